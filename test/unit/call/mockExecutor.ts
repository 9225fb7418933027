// The executor as the server builds it (real gate, handlers, output step), for unit tests
// whose Woodpecker is undici's MockAgent, and the call of a client that can show no
// dialog: guarded tools take the two-call token path.
//
// Every result it returns is held to both halves (test/unit/output/bothHalves.ts) as the
// MCP layer hands it to a client: a unit test of any tool that gets an answer whose
// structuredContent and text disagree fails there, whatever else it checks.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { bothHalves } from '../../../runtime/output/bothHalves.js';
import { halvesDisagree } from '../output/bothHalves.js';
import { tools } from '../../../generated/index.js';
import { Executor, type CallContext } from '../../../runtime/call/executor.js';
import { RepositoryScope } from '../../../runtime/call/repositoryScope.js';
import { handlers } from '../../../runtime/handlers/index.js';
import { Gate } from '../../../runtime/gate/gate.js';
import { Sealer } from '../../../runtime/gate/seal.js';
import type { WoodpeckerClient } from '../../../runtime/woodpecker/woodpeckerClient.js';

export const toolsByName = new Map(tools.map((tool) => [tool.name, tool] as const));

/** A 2026-07-28 client without elicitation: a guarded tool answers with a confirm_token. */
export const TOKEN_PATH_CALL: CallContext = {
  token: 'test-token',
  channel: {
    revision: '2026-07-28',
    clientCanElicit: false,
    inputResponses: undefined,
    requestState: undefined,
  },
  signal: new AbortController().signal,
  progress: async () => {},
};

/** One executor per pair of calls: its gate's sealer opens only the tokens it handed out. */
export function mockExecutor(
  client: WoodpeckerClient,
  options: { maxResultBytes?: number; repositories?: string[] } = {},
): Executor {
  return checkingHalves(
    new Executor({
      client,
      gate: new Gate({ elicitationEnabled: true, sealer: new Sealer(undefined, 300_000) }),
      toolsByName,
      handlers,
      audit: undefined,
      repositoryScope: options.repositories
        ? new RepositoryScope(options.repositories, toolsByName)
        : undefined,
      ...(options.maxResultBytes === undefined ? {} : { maxResultBytes: options.maxResultBytes }),
    }),
  );
}

/** The tools whose results a mock executor of this test file checked for both halves. */
export const checkedTools = new Set<string>();

/** Makes `executor` hold every result it returns to both halves. */
export function checkingHalves(executor: Executor): Executor {
  const run = executor.run.bind(executor);
  executor.run = async (tool, args, context) => {
    const result = await run(tool, args, context);
    // An input_required answer (2026-07-28) is a question, not a result: no halves.
    if (!('content' in result)) return result;
    const problems = halvesDisagree(bothHalves(result as CallToolResult));
    if (problems.length > 0)
      throw new Error(`${tool.name}: the halves of its result disagree: ${problems.join('; ')}`);
    checkedTools.add(tool.name);
    return result;
  };
  return executor;
}
