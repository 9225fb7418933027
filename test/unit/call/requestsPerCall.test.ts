// One call reads each Woodpecker address once (runtime/call/callReader.ts), whichever
// steps and handler parts need it: issue 36 counted 11 requests, 9 distinct, for one
// get_pipeline_failure (its flaky evidence and its change since green each read the first
// page of pipelines and the green pipeline; the policy read the repository again).
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Executor } from '../../../runtime/call/executor.js';
import type { WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { Gate } from '../../../runtime/gate/gate.js';
import { Sealer } from '../../../runtime/gate/seal.js';
import { handlers } from '../../../runtime/handlers/index.js';
import { OperatorPolicy } from '../../../runtime/policy/operatorPolicy.js';
import { parsePolicy } from '../../../runtime/policy/policyFile.js';
import { RepositoryScope } from '../../../runtime/call/repositoryScope.js';
import type { WoodpeckerClient } from '../../../runtime/woodpecker/woodpeckerClient.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from './mockExecutor.js';

const pipeline = (number: number, status: string, commit: string) => ({
  id: 100 + number,
  number,
  status,
  event: 'push',
  branch: 'main',
  commit,
  started: 1_700_000_000 + number * 60,
  finished: 1_700_000_030 + number * 60,
  workflows: [
    {
      id: 200 + number,
      name: 'ci',
      state: status,
      agent_id: 1,
      children: [
        {
          id: 300 + number,
          pid: 2,
          name: 'test',
          state: status,
          exit_code: status === 'success' ? 0 : 1,
        },
      ],
    },
  ],
});
const history = [
  pipeline(6, 'failure', 'c6'),
  pipeline(5, 'failure', 'c5'),
  pipeline(4, 'success', 'c4'),
  pipeline(3, 'failure', 'c3'),
  pipeline(2, 'success', 'c2'),
];

/** A Woodpecker of one repository with that history, counting what it is asked. */
function fakeWoodpecker() {
  const asked: string[] = [];
  const answer = (request: WoodpeckerRequest): unknown => {
    const { path } = request;
    if (path === '/api/repos/7')
      return { id: 7, full_name: 'acme/web', org_id: 1, require_approval: 'forks' };
    if (path === '/api/user') return { id: 1, login: 'wp-admin', admin: true };
    if (path === '/api/repos/7/pipelines') {
      const page = Number(request.query?.page ?? 1);
      const perPage = Number(request.query?.perPage ?? request.query?.per_page ?? 50);
      return history.slice((page - 1) * perPage, page * perPage);
    }
    const one = /^\/api\/repos\/7\/pipelines\/(\d+)$/.exec(path);
    if (one) return history.find((entry) => entry.number === Number(one[1])) ?? null;
    if (/\/config$/.test(path)) return [{ name: '.woodpecker.yaml', data: 'c3RlcHM6IHt9' }];
    if (/^\/api\/repos\/7\/logs\//.test(path)) return [];
    if (/^\/api\/agents/.test(path)) return [];
    return undefined;
  };
  const keyOf = (request: WoodpeckerRequest) =>
    `${request.method} ${request.path}${request.query ? ` ${JSON.stringify(Object.entries(request.query).sort())}` : ''}`;
  const client = {
    baseUrl: 'https://ci.example.com',
    async send(request: WoodpeckerRequest) {
      asked.push(keyOf(request));
      const body = answer(request);
      if (body === undefined) {
        const { WoodpeckerHttpError } =
          await import('../../../runtime/woodpecker/woodpeckerClient.js');
        throw new WoodpeckerHttpError(404, request.method, request.path, 'not found');
      }
      return { status: 200, headers: {}, body };
    },
    async stream(request: WoodpeckerRequest, _options: unknown, onText: (text: string) => unknown) {
      asked.push(keyOf(request));
      onText('[]');
    },
  } as unknown as WoodpeckerClient;
  return { client, asked };
}

function executorWith(client: WoodpeckerClient): Executor {
  return new Executor({
    client,
    gate: new Gate({ elicitationEnabled: true, sealer: new Sealer(undefined, 300_000) }),
    toolsByName,
    handlers,
    audit: undefined,
    repositoryScope: new RepositoryScope(['acme/*'], toolsByName),
    policy: new OperatorPolicy(
      'p.yaml',
      parsePolicy(
        'rules:\n  - name: r\n    tools: [restart_pipeline]\n    repositories: [acme/*]\n    branches: [main]\n    effect: deny\n',
        'p.yaml',
        [...toolsByName.values()],
      ).rules,
    ),
  });
}

const repeated = (asked: readonly string[]) =>
  [...new Set(asked)].filter((key) => asked.filter((other) => other === key).length > 1);

describe('one call reads each address once', () => {
  it('get_pipeline_failure: the flaky evidence and the change since green share their reads', async () => {
    const { client, asked } = fakeWoodpecker();
    const result = (await executorWith(client).run(
      toolsByName.get('get_pipeline_failure')!,
      { repo_id: 7, number: 6 },
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    expect(repeated(asked), asked.join('\n')).toEqual([]);
  });

  it('restart_pipeline: the allowlist and the policy read the repository and the pipeline once', async () => {
    const { client, asked } = fakeWoodpecker();
    await executorWith(client).run(
      toolsByName.get('restart_pipeline')!,
      { repo_id: 7, number: 5 },
      TOKEN_PATH_CALL,
    );
    expect(repeated(asked), asked.join('\n')).toEqual([]);
  });
});

describe('the requests tools.yaml states (reads_first, then calls)', () => {
  /** An executor with nothing of its own to read: what it asks, the handler sent. */
  const bare = (client: WoodpeckerClient) => mockExecutor(client);
  /** The stated requests for these arguments, built by each stated tool's own request. */
  const statedFor = (name: string, args: Record<string, unknown>) => {
    const tool = toolsByName.get(name)!;
    return [...(tool.readsFirst ?? []).map((read) => toolsByName.get(read)!), tool].map(
      (stated) => {
        const request = stated.request!(args as never);
        return `${request.method} ${request.path}`;
      },
    );
  };
  const withoutQuery = (asked: readonly string[]) =>
    asked.map((key) => key.split(' ').slice(0, 2).join(' '));

  it.each([
    ['get_step_logs', { repo_id: 7, number: 5, step_id: 305 }],
    ['restart_pipeline', { repo_id: 7, number: 5 }],
  ] as const)('%s sends exactly the requests stated, in order', async (name, args) => {
    expect(toolsByName.get(name)!.readsFirst?.length).toBeGreaterThan(0);
    const { client, asked } = fakeWoodpecker();
    const result = (await bare(client).run(
      toolsByName.get(name)!,
      { ...args },
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    expect(withoutQuery(asked)).toEqual(statedFor(name, args));
  });

  it('restart_pipeline dry_run sends the stated reads and no POST', async () => {
    const { client, asked } = fakeWoodpecker();
    await bare(client).run(
      toolsByName.get('restart_pipeline')!,
      { repo_id: 7, number: 5, dry_run: true },
      TOKEN_PATH_CALL,
    );
    expect(withoutQuery(asked)).toEqual(
      statedFor('restart_pipeline', { repo_id: 7, number: 5 }).slice(0, -1),
    );
  });
});
