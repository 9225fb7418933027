// The life of one call after its arguments passed the schema, as one ordered list of
// named steps. Each step either lets the call go on (it may leave something in the call's
// state for the steps after it) or ends it with a result: a refusal, a question, the
// answer. The executor runs them in order and writes the audit line of the one that ended
// the call. Order matters and is the policy of this file: nobody is asked about a call
// that cannot be built, that the allowlist or the release refuses, or that the operator's
// policy denies; a build limit counts only a call that was let through.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { ToolArgs, ToolDefinition } from '../core/tool.js';
import type { ToolArgsByName, ToolName } from '../../generated/index.js';
import { errorResult } from '../core/errors.js';
import type { Approval } from '../gate/gate.js';
import { principalDigest } from '../gate/fingerprint.js';
import { answerOf, type ToolAnswer } from '../output/answer.js';
import { finishAnswer } from '../output/outputStep.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../output/resultLimit.js';
import type { PolicyVerdict } from '../policy/operatorPolicy.js';
import type { WoodpeckerRequest } from '../core/tool.js';
import type { AuditOutcome } from './auditLog.js';
import type { CallReader } from './callReader.js';
import type { CallContext, ExecutorDeps } from './executorDeps.js';
import type { ToolHandler } from './handlerContext.js';
import { lookWith, requireStoredId, withCurrent } from './plainCall.js';
import { CURRENT_USER } from '../woodpecker/currentUser.js';

/** What the steps know about the call so far. */
export interface CallState {
  readonly tool: ToolDefinition;
  readonly args: ToolArgs;
  readonly call: CallContext;
  readonly reader: CallReader;
  /** The plain call tools.yaml declares, built before anything else. */
  request?: WoodpeckerRequest;
  verdict?: PolicyVerdict;
  /** The operator's rules that matched, named on the audit line. */
  rules: readonly string[];
  /** How the call was let through, kept for the audit line of a write that then broke. */
  approval?: Approval;
  /** What the guard read of the object, handed on so that nothing reads it twice. */
  current?: unknown;
  /** Gives back the build-limit places this call took, should it start nothing. */
  giveBack?: () => void;
  answer?: ToolAnswer;
  status?: number;
}

/** How a step ended the call; `outcome` undefined: the result goes back without an audit line. */
export interface CallEnd {
  readonly result: CallToolResult | InputRequiredResult;
  readonly outcome?: AuditOutcome;
  readonly status?: number;
  readonly approval?: Approval;
}

export interface CallStep {
  readonly name: string;
  run(state: CallState, deps: ExecutorDeps): Promise<CallEnd | undefined>;
}

const refused = (result: CallToolResult | undefined): CallEnd | undefined =>
  result && { result, outcome: 'refused' };

export const CALL_STEPS: readonly CallStep[] = [
  {
    name: 'a Woodpecker is configured',
    async run({ tool }, deps) {
      if (deps.client) return undefined;
      return {
        result: errorResult(
          `${tool.name}: woodpecker-ci-mcp has no Woodpecker server configured. Set WOODPECKER_URL to your server's address (for example https://ci.example.com) and WOODPECKER_TOKEN to an API token (Woodpecker → your user settings → Personal access token), then restart the MCP server.`,
        ),
      };
    },
  },
  {
    name: 'the call has a token',
    async run({ tool, call }) {
      if (call.token !== undefined || tool.worksWithoutToken) return undefined;
      return {
        result: errorResult(
          `${tool.name}: no Woodpecker API token (Woodpecker → your user settings → Personal access token). Over HTTP, send it with each request as "Authorization: Bearer <token>"; over stdio, set WOODPECKER_TOKEN and restart the MCP server.`,
        ),
      };
    },
  },
  {
    // Arguments that do not make a Woodpecker call are the caller's mistake (thrown here
    // and worded by toolErrors.ts), and nobody is asked about a call that cannot be made.
    name: 'the request can be built',
    async run(state) {
      const request = state.tool.request?.(state.args);
      if (request) state.request = request;
      return undefined;
    },
  },
  {
    // The operator's log shows a write this server refused as well as one it made.
    name: 'the repository allowlist (WOODPECKER_REPOS)',
    async run({ tool, args, reader }, deps) {
      return refused(await deps.repositoryScope?.check(tool, args, reader.send));
    },
  },
  {
    name: 'the Woodpecker release has what the call needs',
    async run({ tool, args, reader }, deps) {
      return refused(await deps.serverVersion?.check(tool, args, reader.send));
    },
  },
  {
    // Before the gate, so a denied or over-limit call asks nobody.
    name: "the operator's policy (WOODPECKER_MCP_POLICY)",
    async run(state, deps) {
      const verdict = await deps.policy?.decide({
        tool: state.tool,
        args: state.args,
        principal: principalDigest(state.call.token),
        send: state.reader.send,
      });
      if (!verdict) return undefined;
      state.verdict = verdict;
      state.rules = verdict.rules;
      return verdict.kind === 'refused'
        ? { result: verdict.result, outcome: 'refused' }
        : undefined;
    },
  },
  {
    name: 'the gate: a person is asked where tools.yaml or the policy says so',
    async run(state, deps) {
      const { tool, args, reader, verdict } = state;
      const gate = await deps.gate.check({
        tool,
        args,
        principal: principalDigest(state.call.token),
        channel: state.call.channel,
        readCurrent: async (guard, readArgs) =>
          guard.read ? (await reader.send(guard.read(readArgs))).body : undefined,
        look: (request) => lookWith(reader.send, request),
        ...(verdict?.kind === 'proceed' && verdict.question ? { added: verdict.question } : {}),
        callerIsAdmin: async () => {
          // Woodpecker leaves `admin` out of /api/user when it is false.
          const me = await lookWith(() => reader.currentUser(), CURRENT_USER);
          if (me.status !== 'found' || typeof me.body !== 'object' || me.body === null)
            return undefined;
          return (me.body as { admin?: unknown }).admin === true;
        },
      });
      if (!gate.proceed)
        return {
          result: gate.result,
          ...(gate.outcome === 'asked' ? {} : { outcome: gate.outcome }),
        };
      state.approval = gate.approval;
      state.current = gate.current;
      return undefined;
    },
  },
  {
    // Counted as it is sent: a call refused or declined above counted nothing.
    name: 'the build limits count the call',
    async run(state, deps) {
      if (!state.verdict || !deps.policy) return undefined;
      const taken = deps.policy.take(state.tool, state.verdict);
      if (taken.refused) return { result: taken.refused, outcome: 'refused' };
      if (taken.giveBack) state.giveBack = taken.giveBack;
      return undefined;
    },
  },
  {
    name: 'Woodpecker is called: the plain call, or the hand-written handler',
    async run(state, deps) {
      const { tool, args, reader } = state;
      if (tool.handler) {
        const handler = await handlerOf(tool, deps);
        if (!handler)
          return {
            result: errorResult(
              `${tool.name}: its handler "${tool.handler}" is missing from runtime/handlers.`,
            ),
          };
        state.answer = await handler(handlerContext(state, deps));
        return undefined;
      }
      if (!state.request)
        return {
          result: errorResult(`${tool.name}: tools.yaml declares neither a call nor a handler.`),
        };
      const response = await reader.send(
        await withCurrent(tool, args, state.request, state.current, reader.send),
      );
      state.status = response.status;
      if (tool.output.storedId) requireStoredId(tool, response);
      state.answer = answerOf(tool, args, response);
      return undefined;
    },
  },
  {
    // A change that happened is recorded as done even when its answer was too big to return.
    name: 'the output step shapes the answer',
    async run(state, deps) {
      const result = await finishAnswer(
        state.tool,
        state.answer!,
        {
          maxResultBytes: deps.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
          repositoryScope: deps.repositoryScope,
        },
        state.reader.send,
      );
      return {
        result,
        outcome: 'done',
        ...(state.status === undefined ? {} : { status: state.status }),
        ...(state.approval ? { approval: state.approval } : {}),
      };
    },
  },
];

/**
 * A handler is named after its tool (the generator refuses another name) and runs on
 * arguments already checked against that tool's inputSchema: the types it was written
 * against are the arguments it gets.
 */
async function handlerOf(
  tool: ToolDefinition,
  deps: ExecutorDeps,
): Promise<ToolHandler | undefined> {
  const handlers = typeof deps.handlers === 'function' ? await deps.handlers() : deps.handlers;
  return (handlers as Readonly<Record<string, ToolHandler | undefined>>)[tool.handler!];
}

function handlerContext(state: CallState, deps: ExecutorDeps): Parameters<ToolHandler>[0] {
  const { tool, args, call, reader } = state;
  const client = deps.client!;
  return {
    tool,
    args,
    call: reader.send,
    fresh: reader.fresh,
    startedNothing: () => {
      state.giveBack?.();
      delete state.giveBack;
    },
    stream: (request, onText) =>
      client.stream(request, { token: call.token, signal: call.signal }, onText),
    toolNamed: <N extends ToolName>(name: N) => {
      const found = deps.toolsByName.get(name);
      if (!found) throw new Error(`no tool named ${name}`);
      // The catalogue's definition of a name is the generated one, of that name's arguments.
      return found as ToolDefinition<ToolArgsByName[N]>;
    },
    progress: call.progress,
    signal: call.signal,
    woodpeckerUrl: client.baseUrl,
    checkRepository: async (repository) =>
      deps.repositoryScope?.checkRepository(tool, repository, reader.send),
  };
}
