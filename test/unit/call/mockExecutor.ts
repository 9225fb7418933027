// The executor as the server builds it (real gate, handlers, output step), for unit tests
// whose Woodpecker is undici's MockAgent, and the call of a client that can show no
// dialog: guarded tools take the two-call token path.
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
  return new Executor({
    client,
    gate: new Gate({ elicitationEnabled: true, sealer: new Sealer(undefined, 300_000) }),
    toolsByName,
    handlers,
    audit: undefined,
    repositoryScope: options.repositories
      ? new RepositoryScope(options.repositories, toolsByName)
      : undefined,
    ...(options.maxResultBytes === undefined ? {} : { maxResultBytes: options.maxResultBytes }),
  });
}
