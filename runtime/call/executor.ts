// Runs one tool call: setup checks → gate → the Woodpecker call (or a hand-written
// handler) → the output step → audit. Every failure becomes a tool error through
// toolErrors.ts; nothing here throws into the MCP layer.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { AUDIT_LOG_VARIABLE, type AuditLog, type AuditOutcome } from './auditLog.js';
import type { Approval, Channel, Gate } from '../gate/gate.js';
import type { OperatorPolicy } from '../policy/operatorPolicy.js';
import { principalDigest } from '../gate/fingerprint.js';
import { CallRefused, type HandlerRegistry, type ToolHandler } from './handlerContext.js';
import { answerOf, type ToolAnswer } from '../output/answer.js';
import { finishAnswer } from '../output/outputStep.js';
import type { RepositoryScope } from './repositoryScope.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../output/resultLimit.js';
import type { ServerVersion } from './serverVersion.js';
import type { ToolArgs, ToolDefinition, WoodpeckerRequest } from '../core/tool.js';
import type { Looked } from '../core/tool.js';
import type { ToolArgsByName, ToolName } from '../../generated/index.js';
import { errorResult, ToolOutcomeError, ToolPolicyRefusal } from '../core/errors.js';
import { describeFailure } from './toolErrors.js';
import { sharingReads } from './sharedReads.js';
import { WoodpeckerHttpError, WoodpeckerUnreachableError } from '../woodpecker/woodpeckerClient.js';
import type { WoodpeckerClient, WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';

export interface CallContext {
  /** The Woodpecker token this call runs with (per request in multi-user HTTP mode). */
  readonly token: string | undefined;
  readonly channel: Channel;
  readonly signal: AbortSignal;
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
}

export interface ExecutorDeps {
  readonly client: WoodpeckerClient | undefined;
  readonly gate: Gate;
  readonly toolsByName: ReadonlyMap<string, ToolDefinition>;
  /**
   * The hand-written handlers, by the name tools.yaml gives in `handler:` (runtime/handlers),
   * or how to load them: the server loads them at the first call that needs one, since a
   * start-up that only lists tools has no use for them.
   */
  readonly handlers: HandlerRegistry | (() => Promise<HandlerRegistry>);
  readonly audit: AuditLog | undefined;
  readonly repositoryScope: RepositoryScope | undefined;
  /** WOODPECKER_MCP_MAX_RESULT_BYTES; the default when not given. */
  readonly maxResultBytes?: number;
  /** Refuses arguments the answering Woodpecker release would silently drop. */
  readonly serverVersion?: ServerVersion;
  /** WOODPECKER_MCP_POLICY: the operator's questions, refusals and build limits. */
  readonly policy?: OperatorPolicy;
  /** Told (tool name and system reason) when an audit line could not be written. */
  readonly onAuditFailure?: (toolName: string, reason: string) => void;
}

export class Executor {
  constructor(private readonly deps: ExecutorDeps) {}

  private handlerRegistry(): Promise<HandlerRegistry> {
    const { handlers } = this.deps;
    return typeof handlers === 'function' ? handlers() : Promise.resolve(handlers);
  }

  async run(
    tool: ToolDefinition,
    rawArgs: ToolArgs,
    call: CallContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    const args = withoutAbsent(rawArgs);
    const client = this.deps.client;
    if (!client) {
      return errorResult(
        `${tool.name}: woodpecker-ci-mcp has no Woodpecker server configured. Set WOODPECKER_URL to your server's address (for example https://ci.example.com) and WOODPECKER_TOKEN to an API token (Woodpecker → your user settings → Personal access token), then restart the MCP server.`,
      );
    }
    if (call.token === undefined && !tool.worksWithoutToken) {
      return errorResult(
        `${tool.name}: no Woodpecker API token. Set WOODPECKER_TOKEN (Woodpecker → your user settings → Personal access token) and restart the MCP server, or, over HTTP, send it as "Authorization: Bearer <token>".`,
      );
    }

    const send = (request: Parameters<WoodpeckerClient['send']>[0]) =>
      client.send(request, { token: call.token, signal: call.signal });

    // The checks before the gate share their reads (one GET of a repository, not two).
    const checkRead = sharingReads(send);

    // How the call was let through, kept for the audit line of a write that then broke.
    let approval: Approval | undefined;
    // The operator's rules that matched, named on the audit line.
    let rules: readonly string[] = [];
    // Gives back the build-limit places this call took, when it then started nothing.
    let giveBack: (() => void) | undefined;
    try {
      // Build the call before anything else: arguments that do not make a Woodpecker call
      // are the caller's mistake, and nobody is asked about a call that cannot be made.
      const request = tool.request?.(args);
      // The operator's log shows a write this server refused as well as one it made.
      const refusal = await this.deps.repositoryScope?.check(tool, args, checkRead);
      if (refusal) return this.recorded(refusal, tool, args, 'refused', undefined, undefined);
      // Before the gate: nobody should be asked about a call this server then refuses.
      const tooOld = await this.deps.serverVersion?.check(tool, args, checkRead);
      if (tooOld) return this.recorded(tooOld, tool, args, 'refused', undefined, undefined);
      // The operator's policy: before the gate, so a denied or over-limit call asks nobody.
      const verdict = await this.deps.policy?.decide({
        tool,
        args,
        principal: principalDigest(call.token),
        send,
      });
      if (verdict?.kind === 'refused')
        return this.recorded(
          verdict.result,
          tool,
          args,
          'refused',
          undefined,
          undefined,
          verdict.rules,
        );
      rules = verdict?.rules ?? [];

      const gate = await this.deps.gate.check({
        tool,
        args,
        principal: principalDigest(call.token),
        channel: call.channel,
        readCurrent: async (guard, readArgs) =>
          guard.read ? (await send(guard.read(readArgs))).body : undefined,
        look: (request) => lookWith(checkRead, request),
        ...(verdict?.kind === 'proceed' && verdict.question ? { added: verdict.question } : {}),
        callerIsAdmin: async () => {
          // Woodpecker leaves `admin` out of /api/user when it is false.
          const me = await lookWith(checkRead, { method: 'GET', path: '/api/user' });
          if (me.status !== 'found' || typeof me.body !== 'object' || me.body === null)
            return undefined;
          return (me.body as { admin?: unknown }).admin === true;
        },
      });
      if (!gate.proceed) {
        if (gate.outcome === 'asked') return gate.result;
        return this.recorded(gate.result, tool, args, gate.outcome, undefined, undefined, rules);
      }
      approval = gate.approval;
      // Counted as it is sent: a call refused or declined above counted nothing.
      const taken = verdict && this.deps.policy?.take(tool, verdict);
      if (taken?.refused)
        return this.recorded(taken.refused, tool, args, 'refused', undefined, undefined, rules);
      giveBack = taken?.giveBack;

      // A handler is named after its tool (the generator refuses another name) and runs on
      // arguments already checked against that tool's inputSchema: the types it was written
      // against are the arguments it gets.
      const handlers = tool.handler ? await this.handlerRegistry() : undefined;
      const registry = handlers as Readonly<Record<string, ToolHandler | undefined>> | undefined;
      const handler = tool.handler ? registry?.[tool.handler] : undefined;
      if (tool.handler && !handler)
        return errorResult(
          `${tool.name}: its handler "${tool.handler}" is missing from runtime/handlers.`,
        );
      let answer: ToolAnswer;
      let status: number | undefined;
      if (handler) {
        answer = await handler({
          tool,
          args,
          call: send,
          stream: (request, onText) =>
            client.stream(request, { token: call.token, signal: call.signal }, onText),
          toolNamed: <N extends ToolName>(name: N) => {
            const found = this.deps.toolsByName.get(name);
            if (!found) throw new Error(`no tool named ${name}`);
            // The catalogue's definition of a name is the generated one, of that name's arguments.
            return found as ToolDefinition<ToolArgsByName[N]>;
          },
          progress: call.progress,
          signal: call.signal,
          woodpeckerUrl: client.baseUrl,
          checkRepository: async (repository) =>
            this.deps.repositoryScope?.checkRepository(tool, repository, send),
        });
      } else {
        if (!request)
          return errorResult(`${tool.name}: tools.yaml declares neither a call nor a handler.`);
        const response = await send(
          await withCurrent(tool, args, request, gate.current, (read) => send(read)),
        );
        status = response.status;
        if (tool.output.storedId) requireStoredId(tool, response);
        answer = answerOf(tool, args, response);
      }
      const result = await finishAnswer(
        tool,
        answer,
        {
          maxResultBytes: this.deps.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
          repositoryScope: this.deps.repositoryScope,
        },
        send,
      );
      // A change that happened is recorded as done even when its answer was too big to return.
      return this.recorded(result, tool, args, 'done', status, gate.approval, rules);
    } catch (error) {
      // Nothing started: refused here after the count, or by Woodpecker with a 4xx. A 5xx
      // or a lost connection may have started a build, and stays counted.
      if (
        error instanceof CallRefused ||
        error instanceof ToolPolicyRefusal ||
        (error instanceof WoodpeckerHttpError && error.status < 500)
      )
        giveBack?.();
      // Refused by this server's own rules (the allowlist in a handler, the restart policy):
      // nothing was written, and the log says refused, not failed.
      if (error instanceof CallRefused)
        return this.recorded(error.result, tool, args, 'refused', undefined, undefined);
      const described = describeFailure(tool, error, (name) => this.deps.toolsByName.has(name));
      if (error instanceof ToolPolicyRefusal)
        return this.recorded(described, tool, args, 'refused', undefined, undefined);
      // A write that broke after it was sent may have happened: the log must not say "failed".
      if (error instanceof WoodpeckerUnreachableError && error.outcomeUnknown)
        return this.recorded(described, tool, args, 'outcome unknown', undefined, approval, rules);
      return this.recorded(
        described,
        tool,
        args,
        'failed',
        error instanceof WoodpeckerHttpError ? error.status : undefined,
        undefined,
        rules,
      );
    }
  }

  /**
   * Writes the audit line and returns the call's own result. A line that could not be
   * written never turns the result into a failure (a model would retry a change that
   * happened): the result stays what it was, and says both facts.
   */
  private recorded<R extends CallToolResult | InputRequiredResult>(
    result: R,
    tool: ToolDefinition,
    args: ToolArgs,
    outcome: AuditOutcome,
    status: number | undefined,
    approval: Approval | undefined,
    rules: readonly string[] = [],
  ): R {
    // A read is logged only when an operator's rule stopped it.
    if ((tool.annotations.readOnlyHint && rules.length === 0) || !this.deps.audit) return result;
    const unwritten = this.deps.audit.record({ tool, args, outcome, status, approval, rules });
    if (unwritten === undefined) return result;
    this.deps.onAuditFailure?.(tool.name, unwritten);
    const note = `Audit: the ${tool.name} call above ${outcome === 'done' ? 'was carried out' : `ended as "${outcome}"`}, but its line could not be written to ${AUDIT_LOG_VARIABLE} (${unwritten}). Do not repeat the call because of this; tell the server's operator.`;
    const content = Array.isArray((result as CallToolResult).content)
      ? (result as CallToolResult).content
      : [];
    return { ...result, content: [...content, { type: 'text', text: note }] };
  }
}

/**
 * A read a predicate declared: 404 means "not there", any other refusal (403 for a
 * caller who may not read that level, 5xx) means "could not tell", which asks.
 */
async function lookWith(
  send: (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>,
  request: WoodpeckerRequest,
): Promise<Looked> {
  try {
    return { status: 'found', body: (await send(request)).body };
  } catch (error) {
    if (!(error instanceof WoodpeckerHttpError)) throw error;
    return error.status === 404 ? { status: 'absent' } : { status: 'unreadable' };
  }
}

// Optional arguments a client left out, sent as undefined or sent as null are all "not given".
function withoutAbsent(args: ToolArgs): ToolArgs {
  return Object.fromEntries(
    Object.entries(args ?? {}).filter(([, value]) => value !== undefined && value !== null),
  );
}

/**
 * The call of a write whose PATCH overwrites what it is not sent (tools.yaml `current`),
 * built with the object as it is now: the guard's read when it made the same one, else a
 * read of its own, sent only when the arguments leave something to fill in.
 */
async function withCurrent(
  tool: ToolDefinition,
  args: ToolArgs,
  request: WoodpeckerRequest,
  guardRead: unknown,
  send: (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>,
): Promise<WoodpeckerRequest> {
  const current = tool.current;
  if (!current || !tool.request || !current.needed(args)) return request;
  const now =
    current.sameAsGuardRead && guardRead !== undefined
      ? guardRead
      : (await send(current.read(args))).body;
  return tool.request(args, now);
}

/** Woodpecker answers some writes that matched nothing with 200 and id 0 (tools.yaml `stored_id`). */
function requireStoredId(tool: ToolDefinition, response: WoodpeckerResponse): void {
  const id = (response.body as { id?: unknown } | null | undefined)?.id;
  if (typeof id === 'number' && id !== 0) return;
  const check = tool.readBack?.[0];
  throw new ToolOutcomeError(
    `Woodpecker answered HTTP ${response.status} but reports no stored object (id ${String(id)}); nothing was changed.${check ? ` Check it with ${check}.` : ''}`,
  );
}
