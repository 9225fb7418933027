// The MCP face: one McpServer per serving unit (a stdio connection, a 2025 HTTP session,
// or one 2026-07-28 request), every selected tool registered from its definition, and
// each call handed to the executor with what this connection can do.
import {
  CLIENT_CAPABILITIES_META_KEY,
  fromJsonSchema,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ClientCapabilities,
  McpRequestContext,
  McpServerFactory,
  ServerContext,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { Executor } from '../call/executor.js';
import type { Channel } from '../gate/gate.js';
import { calledToolOf } from './calledTool.js';
import { argumentValidator } from './lazyValidator.js';
import type { ToolArgs, ToolDefinition } from '../core/tool.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { toolReader, type ToolReader } from './toolReads.js';
import { listedSchemaOf, toolInputSchema } from './listedSchema.js';
import { resultOf } from '../output/resultLimit.js';
import { bothHalves } from '../output/bothHalves.js';
import { errorResult } from '../core/errors.js';
import type { AccountLookup } from './accountLookup.js';
import { ENABLE_TOOLSET, FIND_TOOLS, discoveryTools, findTools } from './discovery.js';
import { hiddenForAccount, hiddenToolMessage, listedTool } from './toolListing.js';
import { appMetaOf, registerApps, rendersApps } from './apps.js';
import { registerSkills } from './skills.js';
import { DYNAMIC_INSTRUCTIONS, INSTRUCTIONS } from './instructions.js';

export const SERVER_NAME = 'woodpecker-ci-mcp';

/**
 * How long a 2025 dialog may stay open: as long as the sealed question it answers lasts
 * (runtime/gate/gate.ts, APPROVAL_TTL_SECONDS). A later answer would re-enter with an
 * expired seal and only be asked again.
 */
const DIALOG_TIMEOUT_MS = 5 * 60 * 1000;

export interface ServerDeps {
  readonly version: string;
  readonly tools: readonly ToolDefinition[];
  readonly executor: Pick<Executor, 'run'>;
  /** The token from WOODPECKER_TOKEN; an HTTP request's own bearer token wins over it. */
  readonly defaultToken: string | undefined;
  /** Who a token belongs to; with hideAdminTools, a non-admin's list leaves out admin-only tools. */
  readonly accounts?: AccountLookup | undefined;
  readonly hideAdminTools?: boolean;
  /** The first list holds the essential tools plus find_tools and enable_toolset. */
  readonly dynamicTools?: boolean;
  /** Whether the Woodpecker behind us has the tool's routes (see ServerVersion); absent: all. */
  readonly offers?: (tool: ToolDefinition) => boolean;
  /** WOODPECKER_URL: the views link to the page of what they show there. */
  readonly woodpeckerUrl?: string | undefined;
}

export function createServerFactory(deps: ServerDeps): McpServerFactory {
  const reader = toolReader(deps.tools, deps.executor);
  return (requestContext: McpRequestContext) => buildServer(deps, reader, requestContext);
}

// Schemas are wrapped once per process: on 2026-07-28 every HTTP request builds a fresh
// server, and re-wrapping every tool's schemas each time dominated a call's cost. Each is
// compiled on its first use (LazyValidator), so a cold start compiles none.
// No tool declares an outputSchema (docs/configuration.md, "What the tool list costs"): the
// results carry Woodpecker's own objects, whose fields change between releases, and the
// tool list is paid for in the model's context on every turn.
const schemaCache = new WeakMap<ToolDefinition, StandardSchemaWithJSON<ToolArgs>>();
function inputSchemaOf(tool: ToolDefinition): StandardSchemaWithJSON<ToolArgs> {
  let schema = schemaCache.get(tool);
  if (!schema) {
    schema = toolInputSchema(tool.inputSchema, argumentValidator);
    schemaCache.set(tool, schema);
  }
  return schema;
}

function buildServer(
  deps: ServerDeps,
  reader: ToolReader,
  requestContext?: McpRequestContext,
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: deps.version },
    {
      capabilities: { tools: {} },
      // 2025-era revisions from the oldest whose features the answers use (structuredContent,
      // resource_link, elicitation: 2025-06-18); an older initialize is answered with the
      // newest, which a client that cannot speak it declines. The serving entries add
      // 2026-07-28 themselves.
      supportedProtocolVersions: ['2025-11-25', '2025-06-18'],
      instructions: deps.dynamicTools ? `${INSTRUCTIONS} ${DYNAMIC_INSTRUCTIONS}` : INSTRUCTIONS,
      // On 2025 connections the SDK pushes an input_required question as elicitation/create
      // and re-enters the tool with the answer; a fresh question after a bad seal is a round.
      inputRequired: { roundTimeoutMs: DIALOG_TIMEOUT_MS, maxRounds: 4 },
    },
  );
  const accountOf = async (token: string | undefined) =>
    deps.hideAdminTools && deps.accounts ? deps.accounts.of(token) : undefined;
  // Every tool is registered, so one called by name is answered by the executor (which
  // refuses a tool this Woodpecker lacks with the release it needs) or with the reason it
  // is hidden; the list below leaves such tools out. A 2026-07-28 tools/call gets a server
  // with just the tool it names (see calledTool.ts): that tool still goes through the same
  // handler, and a name that is not among the selected tools registers none and is refused
  // as before.
  const called = calledToolOf(requestContext?.requestInfo);
  const registered =
    called === undefined ? deps.tools : deps.tools.filter((tool) => tool.name === called);
  for (const tool of registered) {
    server.registerTool(
      tool.name,
      {
        // No title: it is a display name for people (docs/tools.md has it), and the model
        // reads the name and the description; the list is paid for on every turn.
        description: tool.description,
        inputSchema: inputSchemaOf(tool),
        annotations: { ...tool.annotations },
      },
      async (args: ToolArgs, ctx: ServerContext) => {
        const token = tokenFor(ctx, requestContext, deps.defaultToken);
        const account = tool.adminOnly ? await accountOf(token) : undefined;
        if (account && hiddenForAccount(tool, account))
          return errorResult(hiddenToolMessage(tool, account));
        const result = await deps.executor.run(tool, args, {
          token,
          channel: channelFor(ctx, server),
          signal: ctx.mcpReq.signal,
          progress: progressReporter(ctx),
        });
        // An input_required answer (2026-07-28) has no halves to match.
        return 'content' in result ? bothHalves(result as CallToolResult) : result;
      },
    );
  }
  // Resources and prompts read through the same tools, so they need nothing of their own.
  // A server built for one tools/call answers nothing else, so it registers neither: their
  // URI templates were parsed anew on every 2026-07-28 call.
  if (called === undefined) {
    const tokenOf = (ctx: ServerContext) => tokenFor(ctx, requestContext, deps.defaultToken);
    registerResources(server, { reader, tokenOf });
    registerPrompts(server, { reader, tokenOf });
    registerApps(server, deps.tools, deps.woodpeckerUrl);
    registerSkills(server, (ctx) => clientCapabilitiesOf(ctx, server));
  }
  // Toolsets this connection enabled (dynamic mode); on 2026-07-28 it lives for one request.
  const enabledToolsets = new Set<string>();
  const visibleTo = (account: Awaited<ReturnType<typeof accountOf>>) =>
    deps.tools.filter((tool) => !hiddenForAccount(tool, account) && (deps.offers?.(tool) ?? true));
  if (deps.dynamicTools)
    registerDiscovery(server, deps, requestContext, accountOf, visibleTo, enabledToolsets);
  // The list is ours, not the SDK's: it is decided per request (the token's account, the
  // enabled toolsets) and shows each tool as listedTool() shortens it.
  server.server.setRequestHandler('tools/list', async (_request, ctx) => {
    const account = await accountOf(
      tokenFor(ctx as ServerContext, requestContext, deps.defaultToken),
    );
    // A client that renders MCP Apps views also learns which tools have one; for any
    // other client the list is unchanged, byte for byte.
    const apps = rendersApps(clientCapabilitiesOf(ctx as ServerContext, server));
    const tools = visibleTo(account)
      .filter((tool) => !deps.dynamicTools || tool.essential || enabledToolsets.has(tool.group))
      .map((tool) => {
        const meta = apps ? appMetaOf(tool) : undefined;
        return meta ? { ...listedTool(tool), _meta: meta } : listedTool(tool);
      });
    const discovery = deps.dynamicTools
      ? discoveryTools(deps.tools).map((tool) => ({
          ...tool,
          inputSchema: listedSchemaOf(tool.inputSchema as never),
        }))
      : [];
    return { tools: [...tools, ...discovery] } as never;
  });
  return server;
}

function registerDiscovery(
  server: McpServer,
  deps: ServerDeps,
  requestContext: McpRequestContext | undefined,
  accountOf: (token: string | undefined) => Promise<Parameters<typeof hiddenForAccount>[1]>,
  visibleTo: (account: Parameters<typeof hiddenForAccount>[1]) => ToolDefinition[],
  enabledToolsets: Set<string>,
): void {
  const [find, enable] = discoveryTools(deps.tools);
  const visible = async (ctx: ServerContext) =>
    visibleTo(await accountOf(tokenFor(ctx, requestContext, deps.defaultToken)));
  server.registerTool(
    FIND_TOOLS,
    {
      description: find.description,
      inputSchema: fromJsonSchema<{ query: string }>(find.inputSchema as never, argumentValidator),
      annotations: find.annotations,
    },
    async ({ query }: { query: string }, ctx: ServerContext) =>
      resultOf({ tools: findTools(await visible(ctx), query) }),
  );
  server.registerTool(
    ENABLE_TOOLSET,
    {
      description: enable.description,
      inputSchema: fromJsonSchema<{ toolset: string }>(
        enable.inputSchema as never,
        argumentValidator,
      ),
      annotations: enable.annotations,
    },
    async ({ toolset }: { toolset: string }, ctx: ServerContext) => {
      const tools = (await visible(ctx))
        .filter((tool) => tool.group === toolset)
        .map((tool) => tool.name);
      if (requestContext?.era === 'modern') {
        // A 2026-07-28 request is served by a fresh server: there is no list to grow.
        return resultOf({
          toolset,
          listed: false,
          tools,
          note: 'This connection is stateless (MCP 2026-07-28), so its tool list cannot change. Call these tools by name; they work without being listed.',
        });
      }
      const added = !enabledToolsets.has(toolset);
      enabledToolsets.add(toolset);
      // On the stream of this call: over 2025 HTTP a notification of its own would go only
      // to a listening stream, which a client need not open, and would be lost.
      if (added)
        await ctx.mcpReq
          .notify({ method: 'notifications/tools/list_changed' })
          .catch(() => undefined);
      return resultOf({ toolset, listed: true, tools });
    },
  );
}

function tokenFor(
  ctx: ServerContext,
  requestContext: McpRequestContext | undefined,
  fallback: string | undefined,
): string | undefined {
  return ctx.http?.authInfo?.token ?? requestContext?.authInfo?.token ?? fallback;
}

/** What the client declared: per request on 2026-07-28, at initialize on 2025-11-25. */
function clientCapabilitiesOf(
  ctx: ServerContext,
  server: McpServer,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return typeof envelope?.[PROTOCOL_VERSION_META_KEY] === 'string'
    ? (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : server.server.getClientCapabilities();
}

function channelFor(ctx: ServerContext, server: McpServer): Channel {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = typeof envelope?.[PROTOCOL_VERSION_META_KEY] === 'string';
  const capabilities = clientCapabilitiesOf(ctx, server);
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  // A bare `elicitation: {}` means form support; only a URL-only client cannot show a form.
  const clientCanElicit =
    elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  const requestState = ctx.mcpReq.requestState<unknown>();
  return {
    revision: modern ? '2026-07-28' : '2025-11-25',
    clientCanElicit,
    inputResponses: ctx.mcpReq.inputResponses,
    requestState: typeof requestState === 'string' ? requestState : undefined,
  };
}

function progressReporter(ctx: ServerContext) {
  const token = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)
    ?.progressToken;
  return async (progress: number, total: number | undefined, message: string): Promise<void> => {
    if (token === undefined) return;
    await ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(total === undefined ? {} : { total }),
          message,
        },
      })
      .catch(() => undefined);
  };
}
