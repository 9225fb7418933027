// A test-only build for the MCP conformance suite: the product runtime and HTTP transport,
// plus the suite's three diagnostic tools, so the server-stateless checks that concern
// paths our tools take can run (scripts/conformance.sh starts it for that scenario only).
//   test_streaming_elicitation: asks through our own Gate, as every guarded tool does, so
//     the suite sees the 2026 request stream a guarded call produces;
//   test_logging_tool: logs through the SDK, which must stay silent without a log level;
//   test_missing_capability: asks for sampling input, which the SDK refuses with -32021
//     when the request did not declare sampling.
// Usage: tsx test/conformance/diagnosticServer.ts <port>
import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  inputRequired,
  type ClientCapabilities,
  type McpRequestContext,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { APPROVAL_TTL_SECONDS, Gate } from '../../runtime/gate/gate.js';
import { Sealer } from '../../runtime/gate/seal.js';
import { loadConfig } from '../../runtime/process/config.js';
import { startHttpServer } from '../../runtime/http/httpServer.js';
import { buildRuntime } from '../../runtime/process/buildRuntime.js';
import type { ToolDefinition } from '../../runtime/core/tool.js';

const port = Number(process.argv[2] ?? 39393);
const config = loadConfig(process.env);
const runtime = buildRuntime(config);
const gate = new Gate({
  elicitationEnabled: true,
  sealer: new Sealer(undefined, APPROVAL_TTL_SECONDS * 1000),
});

// A guarded tool that always asks and touches nothing: the gate's own question path.
const alwaysAsks = {
  name: 'test_streaming_elicitation',
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  guard: {
    targets: [],
    bindBody: false,
    condition: 'always',
    reasons: () => ['the conformance suite asks'],
    dialog: () => 'Conformance check: approve?',
  },
} as unknown as ToolDefinition;

function capabilitiesOf(ctx: ServerContext): ClientCapabilities | undefined {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
    CLIENT_CAPABILITIES_META_KEY
  ] as ClientCapabilities | undefined;
}

function withDiagnosticTools(server: McpServer): McpServer {
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Conformance diagnostic: asks a person through the gate.' },
    async (ctx: ServerContext) => {
      const requestState = ctx.mcpReq.requestState<unknown>();
      const outcome = await gate.check({
        tool: alwaysAsks,
        args: {},
        principal: 'conformance',
        channel: {
          revision: '2026-07-28',
          clientCanElicit: capabilitiesOf(ctx)?.elicitation !== undefined,
          inputResponses: ctx.mcpReq.inputResponses,
          requestState: typeof requestState === 'string' ? requestState : undefined,
        },
        readCurrent: async () => undefined,
        look: async () => ({ status: 'absent' }) as never,
      });
      return outcome.proceed ? { content: [{ type: 'text', text: 'approved' }] } : outcome.result;
    },
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Conformance diagnostic: logs one message.' },
    async (ctx: ServerContext) => {
      await ctx.mcpReq.log('info', 'conformance log line').catch(() => undefined);
      return { content: [{ type: 'text', text: 'logged' }] };
    },
  );
  // Asks for a sampling answer the way any tool asks for input; the SDK's input-required
  // step must refuse it with -32021 when the request did not declare sampling.
  server.registerTool(
    'test_missing_capability',
    { description: 'Conformance diagnostic: needs sampling.' },
    async () =>
      inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }],
            maxTokens: 8,
          }),
        },
      }),
  );
  return server;
}

const factory = async (context: McpRequestContext) => {
  const built = await runtime.factory(context);
  if (!(built instanceof McpServer))
    throw new Error(
      'the runtime no longer builds an McpServer; register the diagnostic tools another way',
    );
  return withDiagnosticTools(built);
};
const server = await startHttpServer({
  host: '127.0.0.1',
  port,
  factory,
  policy: config.http,
  verifyToken: (token) => runtime.verifyToken(token),
});
process.stderr.write(`diagnostic server at ${server.url}\n`);
process.once('SIGTERM', () => void server.shutdown(1_000).finally(() => process.exit(0)));
