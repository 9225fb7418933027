// WOODPECKER_REPOS against the real Woodpecker, as an attacker or a careless caller would
// test it: a repository outside the list must answer exactly like one that does not exist,
// on every tool that takes a repository; a lookup that fails must refuse, not let through;
// queue and agent views must not show other repositories; a rename must take effect at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import { ArgumentValidator } from '../../runtime/call/argumentValidator.js';
import type { ToolDefinition } from '../../runtime/core/tool.js';
import type { TestRepo, WoodpeckerPipeline } from '../harness/fixtures.js';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  uniqueName,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { waitUntil } from '../harness/wait-until.js';
import { repositoryLookup, startFaultProxy, type FaultProxy } from './faultProxy.js';
import { openSession, textOf, withSession, type McpSession } from './mcpSession.js';

const NOT_FOUND = /^\S+ failed: Woodpecker has no such repository, or the token cannot see it\./;
const FAILED_CLOSED =
  /refused: WOODPECKER_REPOS limits this server to some repositories, and Woodpecker could not say which repository this is .*nothing was sent/;
/** Far above any id the test server hands out, and still a valid argument. */
const NO_SUCH_REPO_ID = 2_000_000_000;

let allowed: TestRepo;
let hidden: TestRepo;
let proxy: FaultProxy;

beforeAll(async () => {
  allowed = await createRepo();
  hidden = await createRepo();
  proxy = await startFaultProxy(harnessInfo().url);
});
afterAll(async () => proxy?.close());

/** A session that reaches Woodpecker through the proxy, limited to `allowed`. */
function throughProxy(env: Record<string, string> = {}): Promise<McpSession> {
  return openSession({
    revision: '2026-07-28',
    woodpecker: { url: proxy.url, token: harnessInfo().adminToken },
    env: { WOODPECKER_REPOS: allowed.fullName, ...env },
  });
}

/** What Woodpecker holds for a repository: anything a tool could change. */
async function stateOf(repo: TestRepo): Promise<string> {
  const api = adminApi();
  const parts = await Promise.all(
    [
      `/api/repos/${repo.repoId}`,
      `/api/repos/${repo.repoId}/pipelines`,
      `/api/repos/${repo.repoId}/secrets`,
      `/api/repos/${repo.repoId}/registries`,
      `/api/repos/${repo.repoId}/cron`,
    ].map(async (path) => (await api.request('GET', path)).body),
  );
  return JSON.stringify(parts);
}

/** Writes that reached Woodpecker, and reads of a repository's contents (anything but the id lookup). */
function touches(repoId: number): string[] {
  return proxy.forwarded
    .filter(
      (seen) =>
        seen.method !== 'GET' ||
        (seen.path.startsWith(`/api/repos/${repoId}/`) && !repositoryLookup(seen)),
    )
    .map((seen) => `${seen.method} ${seen.path}`);
}

describe('a failed repository lookup refuses the call (fail closed)', () => {
  for (const answer of ['error', 'stall'] as const) {
    it(`when GET /api/repos/{id} ${answer === 'error' ? 'answers 500' : 'never answers'}, nothing is sent and nothing changes`, async () => {
      const secret = uniqueName('FAILCLOSED').toUpperCase().replace(/-/g, '_');
      const before = await Promise.all([stateOf(hidden), stateOf(allowed)]);
      const session = await throughProxy({ WOODPECKER_TIMEOUT_SECONDS: '1' });
      proxy.forwarded.length = 0;
      proxy.fault = { matches: repositoryLookup, answer };
      try {
        for (const repo of [hidden, allowed]) {
          const calls: [string, Record<string, unknown>][] = [
            ['list_pipelines', { repo_id: repo.repoId }],
            ['trigger_pipeline', { repo_id: repo.repoId, branch: 'main' }],
            [
              'create_secret',
              {
                scope: 'repository',
                repo_id: repo.repoId,
                name: secret,
                value: 'never-stored',
                events: ['push'],
              },
            ],
          ];
          for (const [name, args] of calls) {
            const result = await session.call(name, args);
            expect(result.isError, `${name} on ${repo.fullName}: ${textOf(result)}`).toBe(true);
            expect(textOf(result)).toMatch(FAILED_CLOSED);
            if (answer === 'stall') expect(textOf(result)).toContain('no answer within 1 s');
            expect(result.structuredContent).toBeUndefined();
          }
        }
        expect(session.dialogs).toEqual([]);
      } finally {
        proxy.fault = undefined;
        await session.close();
      }
      expect([...touches(hidden.repoId), ...touches(allowed.repoId)]).toEqual([]);
      expect(proxy.faulted.length).toBeGreaterThan(0);
      expect(await Promise.all([stateOf(hidden), stateOf(allowed)])).toEqual(before);
    });
  }
});

/** Valid arguments for `tool` that point at repository `target` (an id, a name, a forge id). */
function argumentsFor(
  tool: ToolDefinition,
  target: { repoId: number; fullName: string; forgeRemoteId: string },
): Record<string, unknown> {
  const properties = tool.inputSchema.properties as Record<
    string,
    { type?: string; enum?: unknown[]; items?: { enum?: unknown[] } }
  >;
  const args: Record<string, unknown> = {};
  const required = new Set(tool.inputSchema.required ?? []);
  const declared = tool.repositories?.args ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    const kind = declared[name];
    if (kind === 'id') args[name] = target.repoId;
    else if (kind === 'full_name') args[name] = target.fullName;
    else if (kind === 'forge_remote_id') args[name] = target.forgeRemoteId;
    else if (kind === 'new_full_name')
      args[name] = allowed.fullName; // move_repository's `to`: only repo_id may be outside
    else if (name === 'scope')
      args[name] = schema.enum?.includes('repository') ? 'repository' : schema.enum?.[0];
    else if (!required.has(name)) continue;
    else if (schema.enum) args[name] = schema.enum[0];
    else if (schema.type === 'integer') args[name] = 1;
    else if (schema.type === 'boolean') args[name] = false;
    else if (schema.type === 'array') args[name] = [schema.items?.enum?.[0] ?? 'push'];
    else if (schema.type === 'object') args[name] = {};
    else if (name === 'number') args[name] = '1';
    else if (name === 'name') args[name] = 'NOPE';
    else if (name === 'schedule') args[name] = '@daily';
    else args[name] = 'x';
  }
  return args;
}

// What tools.yaml declares (activate_repository names a repository by its forge id), and
// any tool with a repo_id or full_name, which the generator refuses to leave undeclared.
const repositoryTools = tools.filter(
  (tool) =>
    Object.keys(tool.repositories?.args ?? {}).length > 0 ||
    ['repo_id', 'full_name'].some((name) => name in tool.inputSchema.properties),
);

describe('every tool that takes a repository answers a repository outside the list like a missing one', () => {
  it('covers the tools the generated index lists', () => {
    expect(repositoryTools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'get_repository',
        'lookup_repository',
        'activate_repository',
        'trigger_pipeline',
        'create_secret',
        'delete_repository',
        'wait_for_pipeline',
      ]),
    );
    expect(repositoryTools.length).toBeGreaterThanOrEqual(40);
  });

  describe('the same text byte for byte, no dialog, no write reaching Woodpecker', () => {
    const validator = new ArgumentValidator();
    const outside = () => ({
      repoId: hidden.repoId,
      fullName: hidden.fullName,
      forgeRemoteId: String(hidden.forgeRemoteId),
    });
    const missing = () => ({
      repoId: NO_SUCH_REPO_ID,
      fullName: `${hidden.owner}/no-such-repository`,
      forgeRemoteId: '987654321',
    });
    let session: McpSession;
    beforeAll(async () => {
      session = await throughProxy();
    });
    afterAll(async () => session?.close());

    it.each(repositoryTools.map((tool) => [tool.name, tool] as const))('%s', async (name, tool) => {
      const hiddenArgs = argumentsFor(tool, outside());
      const missingArgs = argumentsFor(tool, missing());
      // The arguments must be valid, or the test would only show the schema's refusal.
      expect(
        validator.getValidator(tool.inputSchema as never)(hiddenArgs).errorMessage,
      ).toBeUndefined();
      const before = await stateOf(hidden);
      proxy.forwarded.length = 0;
      const refusedHidden = await session.call(name, hiddenArgs);
      const refusedMissing = await session.call(name, missingArgs);
      expect(refusedHidden.isError, textOf(refusedHidden)).toBe(true);
      expect(textOf(refusedHidden)).toMatch(NOT_FOUND);
      expect(textOf(refusedHidden)).toBe(textOf(refusedMissing));
      expect(refusedHidden.structuredContent).toBeUndefined();
      expect(session.dialogs).toEqual([]);
      expect(touches(hidden.repoId)).toEqual([]);
      expect(proxy.forwarded.filter((seen) => seen.method !== 'GET')).toEqual([]);
      expect(await stateOf(hidden)).toBe(before);
    });
  });

  it('names: a listed name Woodpecker does not know, and a move to a name outside the list, answer the same way', async () => {
    const ghost = `${allowed.owner}/${uniqueName('listed-but-missing')}`;
    const before = await stateOf(allowed);
    const session = await openSession({
      revision: '2026-07-28',
      woodpecker: { url: proxy.url, token: harnessInfo().adminToken },
      env: { WOODPECKER_REPOS: `${allowed.fullName},${ghost}` },
    });
    proxy.forwarded.length = 0;
    try {
      const listedButMissing = await session.call('lookup_repository', { full_name: ghost });
      const outside = await session.call('lookup_repository', { full_name: hidden.fullName });
      expect(textOf(listedButMissing)).toMatch(NOT_FOUND);
      expect(textOf(listedButMissing)).toBe(textOf(outside));

      const moveOut = await session.call('move_repository', {
        repo_id: allowed.repoId,
        to: hidden.fullName,
      });
      const moveMissing = await session.call('move_repository', {
        repo_id: NO_SUCH_REPO_ID,
        to: ghost,
      });
      expect(textOf(moveOut)).toMatch(NOT_FOUND);
      expect(textOf(moveOut)).toBe(textOf(moveMissing));
      expect(session.dialogs).toEqual([]);
    } finally {
      await session.close();
    }
    expect(proxy.forwarded.filter((seen) => seen.method !== 'GET')).toEqual([]);
    expect(await stateOf(allowed)).toBe(before);
  });

  it('repair_repository at instance scope, which would touch every repository, is refused', async () => {
    const session = await throughProxy();
    proxy.forwarded.length = 0;
    try {
      const refused = await session.call('repair_repository', { scope: 'instance' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/including ones outside WOODPECKER_REPOS/);
      expect(session.dialogs).toEqual([]);
    } finally {
      await session.close();
    }
    expect(proxy.forwarded).toEqual([]);
  });
});

describe('queue and agent views leave out repositories outside the list', () => {
  it('get_queue_info, list_agent_tasks and list_queued_pipelines show only allowed repositories', async () => {
    const slow = offlinePipelineYaml([{ name: 'slow', commands: ['sleep 40'] }]);
    const busy = await createRepo({ files: { '.woodpecker.yaml': slow } });
    const pipeline = await adminApi().post<WoodpeckerPipeline>(
      `/api/repos/${busy.repoId}/pipelines`,
      { branch: 'main' },
    );
    const agents = await adminApi().get<{ id: number; name: string }[]>('/api/agents');
    const agentId = agents.find((agent) => agent.name === harnessInfo().agentName)!.id;
    type Task = { repo_id: number };
    type Queue = { pending: Task[] | null; running: Task[] | null; waiting_on_deps: Task[] | null };
    const tasksOf = (queue: Queue) => [
      ...(queue.pending ?? []),
      ...(queue.running ?? []),
      ...(queue.waiting_on_deps ?? []),
    ];
    try {
      // Control: with the busy repository in the list, each view shows it.
      await withSession(
        { revision: '2026-07-28', env: { WOODPECKER_REPOS: busy.fullName } },
        async (session) => {
          await waitUntil(
            'the busy repository running on the harness agent',
            async () => {
              const list = await session.ok<{ items: Task[] }>('list_agent_tasks', {
                agent_id: agentId,
              });
              return list.items.some((task) => task.repo_id === busy.repoId) ? true : undefined;
            },
            { timeoutMs: 20_000, intervalMs: 200 },
          );
          expect(
            tasksOf(await session.ok<Queue>('get_queue_info')).some(
              (task) => task.repo_id === busy.repoId,
            ),
          ).toBe(true);
          const queued = await session.ok<{ items: Task[] }>('list_queued_pipelines');
          expect(queued.items.some((item) => item.repo_id === busy.repoId)).toBe(true);
        },
      );

      const session = await throughProxy();
      try {
        const queue = await session.ok<Queue>('get_queue_info');
        expect(tasksOf(queue).filter((task) => task.repo_id === busy.repoId)).toEqual([]);
        const tasks = await session.ok<{ items: Task[] }>('list_agent_tasks', {
          agent_id: agentId,
        });
        expect(tasks.items.filter((task) => task.repo_id === busy.repoId)).toEqual([]);
        const queued = await session.ok<{ items: Task[] }>('list_queued_pipelines');
        expect(queued.items.filter((item) => item.repo_id === busy.repoId)).toEqual([]);
        for (const result of [
          await session.call('get_queue_info'),
          await session.call('list_agent_tasks', { agent_id: agentId }),
        ]) {
          expect(textOf(result)).not.toContain(busy.fullName);
        }

        // The repository of a task cannot be determined: the answer is withheld, not shown.
        proxy.fault = { matches: repositoryLookup, answer: 'error' };
        for (const [name, args] of [
          ['get_queue_info', {}],
          ['list_agent_tasks', { agent_id: agentId }],
        ] as const) {
          const result = await session.call(name, args);
          expect(result.isError, `${name}: ${textOf(result)}`).toBe(true);
          expect(textOf(result)).toMatch(
            /could not say which repository this is .*its answer is withheld/,
          );
          expect(textOf(result)).not.toContain(busy.fullName);
        }
      } finally {
        proxy.fault = undefined;
        await session.close();
      }
    } finally {
      await adminApi().request(
        'POST',
        `/api/repos/${busy.repoId}/pipelines/${pipeline.number}/cancel`,
      );
      await waitForPipelineStatus(busy.repoId, pipeline.number, ['killed', 'success', 'failure']);
    }
  });
});

describe('a repository renamed out of the list stops working at once', () => {
  it('by id and by its old name, in a server that used it before the rename', async () => {
    const renamedFrom = await createRepo();
    // The forge stand-in cannot rename; the new name is another forge repository (see tools-repositories).
    const renamedTo = await createRepo({ activate: false, name: uniqueName('renamed-out') });
    await withSession(
      { revision: '2026-07-28', env: { WOODPECKER_REPOS: renamedFrom.fullName } },
      async (session) => {
        await session.ok('get_repository', { repo_id: renamedFrom.repoId });
        await session.ok('lookup_repository', { full_name: renamedFrom.fullName });

        // Woodpecker up to 3.12 moves and then answers 500, so the move is checked by reading back.
        await adminApi().request(
          'POST',
          `/api/repos/${renamedFrom.repoId}/move?to=${encodeURIComponent(renamedTo.fullName)}`,
        );
        expect(await adminApi().get(`/api/repos/${renamedFrom.repoId}`)).toMatchObject({
          full_name: renamedTo.fullName,
        });
        // Woodpecker now answers the old name with the renamed repository (a redirection).
        expect(
          (await adminApi().get<{ id: number }>(`/api/repos/lookup/${renamedFrom.fullName}`)).id,
        ).toBe(renamedFrom.repoId);

        const missing = await session.call('get_repository', { repo_id: NO_SUCH_REPO_ID });
        const byId = await session.call('get_repository', { repo_id: renamedFrom.repoId });
        expect(byId.isError, textOf(byId)).toBe(true);
        expect(textOf(byId)).toBe(textOf(missing));

        const byOldName = await session.call('lookup_repository', {
          full_name: renamedFrom.fullName,
        });
        expect(byOldName.isError, textOf(byOldName)).toBe(true);
        expect(textOf(byOldName)).toMatch(NOT_FOUND);
        expect(textOf(byOldName)).not.toContain(renamedTo.fullName);

        const trigger = await session.call('trigger_pipeline', {
          repo_id: renamedFrom.repoId,
          branch: 'main',
        });
        expect(trigger.isError).toBe(true);
        expect(session.dialogs).toEqual([]);
      },
    );
    expect(
      (await adminApi().get<unknown[] | null>(`/api/repos/${renamedFrom.repoId}/pipelines`)) ?? [],
    ).toHaveLength(0);
  });
});
