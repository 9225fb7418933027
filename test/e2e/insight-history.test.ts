// "Is it flaky?" and "what differs?" on real pipelines: a step that fails every other run
// (a flag file the local backend's shell flips), a failed pipeline restarted into a pass,
// and a second config that adds a step. Each answer is checked for its evidence, counted
// in Woodpecker requests through a recording proxy, and measured in o200k tokens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  pushCommit,
  pushWebhook,
  setRepoFiles,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
  type TestRepo,
  type WoodpeckerPipeline,
} from '../harness/fixtures.js';
import { startFaultProxy, type FaultProxy } from './faultProxy.js';
import { openSession, REVISIONS, textOf, withSession, type McpSession } from './mcpSession.js';

// Fails when the flag is absent (and sets it), passes when present (and clears it).
const flag = join(mkdtempSync(join(tmpdir(), 'wcm-flaky-')), 'passed-last-time');
const FLAKY_COMMAND = `if [ -f ${flag} ]; then rm ${flag}; echo "ok this time"; else touch ${flag}; echo "FAIL: timing"; exit 1; fi`;
const CONFIG_A = offlinePipelineYaml([
  { name: 'build', commands: ['echo built'] },
  { name: 'flaky', commands: [FLAKY_COMMAND] },
]);
const CONFIG_B = offlinePipelineYaml([
  { name: 'build', commands: ['echo built with cache'] },
  { name: 'flaky', commands: [FLAKY_COMMAND] },
  { name: 'lint', commands: ['echo linted'] },
]);

let repo: TestRepo;
const runs: WoodpeckerPipeline[] = [];

async function push(files: string[], status: 'success' | 'failure') {
  const sha = await pushCommit(repo, 'main');
  const delivered = await pushWebhook(repo, {
    branch: 'main',
    sha,
    message: `change ${files.join(' ')}`,
    changedFiles: files,
  });
  expect(delivered.status).toBe(200);
  const number = (delivered.body as { number: number }).number;
  runs.push(await waitForPipelineStatus(repo.repoId, number, [status]));
}

beforeAll(async () => {
  repo = await createRepo({ files: { '.woodpecker.yaml': CONFIG_A } });
  await push(['src/a.go'], 'failure'); // 1
  const restarted = await adminApi().post<{ number: number }>(
    `/api/repos/${repo.repoId}/pipelines/${runs[0]!.number}`,
  );
  runs.push(await waitForPipelineStatus(repo.repoId, restarted.number, ['success'])); // 2
  await push(['src/b.go'], 'failure'); // 3
  await push(['src/c.go'], 'success'); // 4
  await setRepoFiles(repo, { '.woodpecker.yaml': CONFIG_B });
  await push(['.woodpecker.yaml', 'src/d.go'], 'failure'); // 5
  const last = runs[4]!;
  await waitForLogLine(repo.repoId, last.number, stepNamed(last, 'flaky').id, 'FAIL: timing');
}, 300_000);

interface Flaky {
  summary: string;
  failed: number[];
  passed_count: number;
  same_commit_failed_then_passed: { failed: number[]; passed: number[]; restarts: string[] }[];
  steps: { name: string; earlier_failed: number[]; earlier_passed: number[] }[];
  stopped_early?: string;
}
interface Comparison {
  chosen?: string;
  base: { number: number; status: string };
  head: { number: number; status: string; parent?: number };
  differs?: Record<string, { base: unknown; head: unknown }>;
  steps: { changed?: { name: string; base: string; head: string }[]; added?: string[] };
  config: { changed?: { file: string; diff: string; added_lines: number }[] };
  between?: { pipelines?: { number: number }[]; changed_files?: string[] };
  untrusted: boolean;
}

describe.each(REVISIONS)('on %s', (revision) => {
  it('get_pipeline_failure shows the flaky evidence: recent failures, a restart that passed, the step’s history', async () => {
    const numbers = runs.map((run) => run.number);
    await withSession({ revision }, async (session) => {
      const failure = await session.ok<{ flaky: Flaky; untrusted: boolean }>(
        'get_pipeline_failure',
        { repo_id: repo.repoId, number: numbers[4] },
      );
      const flaky = failure.flaky;
      expect(flaky.failed).toEqual([numbers[4], numbers[2], numbers[0]]);
      expect(flaky.passed_count).toBe(2);
      expect(flaky.same_commit_failed_then_passed).toEqual([
        expect.objectContaining({
          failed: [numbers[0]],
          passed: [numbers[1]],
          restarts: [`${numbers[0]}→${numbers[1]}`],
        }),
      ]);
      expect(flaky.steps).toEqual([
        expect.objectContaining({
          name: 'flaky',
          earlier_failed: [numbers[2], numbers[0]],
          earlier_passed: [numbers[3], numbers[1]],
        }),
      ]);
      expect(flaky.summary).toMatch(/3 of the last 5 finished pipelines of main \(push\) failed/);
      expect(flaky.summary).toMatch(/1 commit failed and then passed/);
      expect(flaky.stopped_early).toBeUndefined();
    });
  });

  it('get_pipeline_failure judges a failure by the final attempt: the restart that passed', async () => {
    const numbers = runs.map((run) => run.number);
    await withSession({ revision }, async (session) => {
      interface Judged {
        summary: string;
        failed_steps: { name: string; passed_later?: number[] }[];
        flaky: {
          final_attempt?: { number: number; status: string };
          passed_on_later_attempt?: { name: string; passed_in: number[] }[];
        };
      }
      const first = await session.ok<Judged>('get_pipeline_failure', {
        repo_id: repo.repoId,
        number: numbers[0],
      });
      expect(first.flaky.final_attempt).toEqual({ number: numbers[1], status: 'success' });
      expect(first.flaky.passed_on_later_attempt).toEqual([
        expect.objectContaining({ name: 'flaky', passed_in: [numbers[1]] }),
      ]);
      expect(first.failed_steps).toEqual([
        expect.objectContaining({ name: 'flaky', passed_later: [numbers[1]] }),
      ]);
      expect(first.summary).toMatch(
        new RegExp(`its final attempt, pipeline ${numbers[1]}, ended success`),
      );
      // The newest failure's commit never ran again: nothing to judge it by but itself.
      const last = await session.ok<Judged>('get_pipeline_failure', {
        repo_id: repo.repoId,
        number: numbers[4],
      });
      expect(last.flaky.final_attempt).toBeUndefined();
      expect(last.failed_steps.every((step) => step.passed_later === undefined)).toBe(true);
    });
  });

  it('compare_pipelines against the last green: the step that flipped, the added step, the config diff', async () => {
    const numbers = runs.map((run) => run.number);
    await withSession({ revision }, async (session) => {
      const comparison = await session.ok<Comparison>('compare_pipelines', {
        repo_id: repo.repoId,
        number: numbers[4],
      });
      expect(comparison.untrusted).toBe(true);
      expect(comparison.chosen).toMatch(/last successful pipeline of main \(push\)/);
      expect(comparison.base).toMatchObject({ number: numbers[3], status: 'success' });
      expect(comparison.head).toMatchObject({ number: numbers[4], status: 'failure' });
      expect(comparison.differs?.commit).toBeDefined();
      expect(comparison.differs?.event).toBeUndefined();
      // Each side names its own step id: the one get_step_logs takes on that pipeline.
      const stepOf = async (number: number | undefined) =>
        stepNamed(
          await adminApi().get<WoodpeckerPipeline>(`/api/repos/${repo.repoId}/pipelines/${number}`),
          'flaky',
        ).id;
      expect(comparison.steps.changed).toEqual([
        expect.objectContaining({
          name: 'flaky',
          base_step_id: await stepOf(numbers[3]),
          head_step_id: await stepOf(numbers[4]),
          base: 'success (exit 0)',
          head: 'failure (exit 1)',
        }),
      ]);
      expect(comparison.steps.added).toEqual([expect.stringMatching(/\/lint$/)]);
      const [config] = comparison.config.changed!;
      expect(config!.diff).toContain('-      - echo built\n+      - echo built with cache');
      expect(config!.diff).toContain('+  - name: lint');
      expect(comparison.between?.pipelines).toBeUndefined();
      expect(comparison.between?.changed_files).toEqual(['.woodpecker.yaml', 'src/d.go']);
    });
  });

  it('compare_pipelines with two given pipelines lists the pipelines and files between them', async () => {
    const numbers = runs.map((run) => run.number);
    await withSession({ revision }, async (session) => {
      const comparison = await session.ok<Comparison>('compare_pipelines', {
        repo_id: repo.repoId,
        number: numbers[4],
        other: numbers[0],
      });
      expect(comparison.chosen).toBeUndefined();
      expect(comparison.base.number).toBe(numbers[0]);
      expect(comparison.between?.pipelines?.map((pipeline) => pipeline.number)).toEqual([
        numbers[1],
        numbers[2],
        numbers[3],
      ]);
      expect(comparison.between?.changed_files).toEqual([
        'src/a.go',
        'src/b.go',
        'src/c.go',
        '.woodpecker.yaml',
        'src/d.go',
      ]);
      // The restart against its parent: same commit, same config, one step flipped.
      const restart = await session.ok<Comparison>('compare_pipelines', {
        repo_id: repo.repoId,
        number: numbers[1],
        other: numbers[0],
      });
      expect(restart.head).toMatchObject({ number: numbers[1], parent: numbers[0] });
      expect(restart.differs?.commit).toBeUndefined();
      expect(restart.config.changed).toBeUndefined();
      expect(restart.steps.changed?.map((step) => [step.name, step.head])).toEqual([
        ['flaky', 'success (exit 0)'],
      ]);

      const same = await session.call('compare_pipelines', {
        repo_id: repo.repoId,
        number: numbers[1],
        other: numbers[1],
      });
      expect(same.isError).toBe(true);
      expect(textOf(same)).toMatch(/other names the same pipeline/);
    });
  });
});

describe('resolve_link with two links', () => {
  it.each(REVISIONS)(
    'turns two pasted pipeline addresses into compare_pipelines arguments (%s)',
    async (revision) => {
      const address = (number: number) =>
        `${harnessInfo().url}/repos/${repo.repoId}/pipeline/${number}`;
      await withSession({ revision }, async (session) => {
        const resolved = await session.ok<{
          repo_id: number;
          number: number;
          other: number;
          other_status: string;
          next: string;
        }>('resolve_link', {
          link: address(runs[4]!.number),
          compare_with: `${address(runs[3]!.number)}/config`,
        });
        expect(resolved).toMatchObject({
          repo_id: repo.repoId,
          number: runs[4]!.number,
          other: runs[3]!.number,
          other_status: 'success',
        });
        expect(resolved.next).toMatch(/compare_pipelines/);

        const elsewhere = await createRepo();
        const refused = await session.call('resolve_link', {
          link: address(runs[4]!.number),
          compare_with: `${harnessInfo().url}/repos/${elsewhere.repoId}/pipeline/1`,
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/compare_with names a pipeline of another repository/);
        const noPipeline = await session.call('resolve_link', {
          link: address(runs[4]!.number),
          compare_with: `${harnessInfo().url}/repos/${repo.repoId}`,
        });
        expect(textOf(noPipeline)).toMatch(/compare_with names no pipeline/);
      });
    },
  );
});

describe('the flaky-or-changed prompt', () => {
  it.each(REVISIONS)(
    'gathers the flaky evidence and the comparison from two pasted links, pushed text as data (%s)',
    async (revision) => {
      const address = (number: number) =>
        `${harnessInfo().url}/repos/${repo.repoId}/pipeline/${number}`;
      await withSession({ revision }, async (session) => {
        const prompt = await session.client.getPrompt({
          name: 'flaky-or-changed',
          arguments: { link: address(runs[4]!.number), compare_with: address(runs[0]!.number) },
        });
        expect((prompt.messages[0]!.content as { text: string }).text).toMatch(
          /Never call it flaky without pipelines that show it/,
        );
        const resource = (
          prompt.messages[1]!.content as {
            resource: { text: string; _meta: Record<string, unknown> };
          }
        ).resource;
        expect(resource._meta).toMatchObject({ untrusted: true });
        const material = JSON.parse(resource.text) as {
          failure: { flaky: { failed: number[] } };
          comparison: { base: { number: number }; head: { number: number } };
        };
        expect(material.failure.flaky.failed).toHaveLength(3);
        expect(material.comparison.base.number).toBe(runs[0]!.number);
        expect(material.comparison.head.number).toBe(runs[4]!.number);

        // Without other, the comparison is with the last green pipeline.
        const byIds = await session.client.getPrompt({
          name: 'flaky-or-changed',
          arguments: { repo_id: String(repo.repoId), number: String(runs[4]!.number) },
        });
        const byIdsMaterial = JSON.parse(
          (byIds.messages[1]!.content as { resource: { text: string } }).resource.text,
        ) as { comparison: { base: { number: number } } };
        expect(byIdsMaterial.comparison.base.number).toBe(runs[3]!.number);
      });
    },
  );
});

interface ByAgent {
  flaky: {
    summary: string;
    agents: {
      agent_id: number;
      name?: string;
      state?: string;
      failed?: number[];
      passed_count?: number;
    }[];
    idle_or_unseen_agents?: { agent_id: number; name: string; state: string }[];
    agents_note?: string;
  };
}

describe('is it the machine: failures per agent in the flaky section', () => {
  it.each(REVISIONS)(
    'counts failed workflows per agent and, for an admin, names each agent and its state (%s)',
    async (revision) => {
      await withSession({ revision }, async (session) => {
        const { flaky } = await session.ok<ByAgent>('get_pipeline_failure', {
          repo_id: repo.repoId,
          number: runs[4]!.number,
        });
        expect(flaky.agents.flatMap((agent) => agent.failed ?? []).sort((a, b) => a - b)).toEqual([
          runs[0]!.number,
          runs[2]!.number,
          runs[4]!.number,
        ]);
        expect(flaky.agents.reduce((sum, agent) => sum + (agent.passed_count ?? 0), 0)).toBe(2);
        expect(flaky.summary).toMatch(
          /Workflows of the pipelines read, by agent: agent \d+: \d+ failed/,
        );
        for (const agent of flaky.agents) {
          expect(agent.agent_id).toBeGreaterThan(0);
          expect(agent.name).toBeTruthy();
          expect(['busy', 'idle', 'unseen']).toContain(agent.state);
        }
        for (const agent of flaky.idle_or_unseen_agents ?? []) expect(agent.name).toBeTruthy();
        expect(flaky.agents_note).toBeUndefined();
        // An agent's token is never part of the answer.
        expect(JSON.stringify(flaky)).not.toMatch(/token/i);
      });
    },
  );

  it('tells a non-admin token what it cannot see, and still counts by agent id', async () => {
    await withSession({ revision: '2026-07-28', as: 'user' }, async (session) => {
      const { flaky } = await session.ok<ByAgent>('get_pipeline_failure', {
        repo_id: repo.repoId,
        number: runs[4]!.number,
      });
      expect(flaky.agents.flatMap((agent) => agent.failed ?? [])).toHaveLength(3);
      expect(flaky.agents.every((agent) => agent.agent_id > 0 && agent.name === undefined)).toBe(
        true,
      );
      expect(flaky.idle_or_unseen_agents).toBeUndefined();
      expect(flaky.agents_note).toMatch(
        /need an instance admin's token; this token sees agent ids only/,
      );
    });
  });
});

describe('bounded in Woodpecker requests, measured in tokens', () => {
  let proxy: FaultProxy;
  let session: McpSession;
  beforeAll(async () => {
    proxy = await startFaultProxy(harnessInfo().url);
    session = await openSession({
      revision: '2026-07-28',
      woodpecker: { url: proxy.url, token: harnessInfo().adminToken },
    });
  });
  afterAll(async () => {
    await session?.close();
    await proxy?.close();
  });

  async function counted(tool: string, args: Record<string, unknown>) {
    const before = proxy.answered.length;
    const result = await session.call(tool, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    const requests = proxy.answered.slice(before);
    const tokens = encode(textOf(result)).length;
    const flaky = (result.structuredContent as { flaky?: unknown } | undefined)?.flaky;
    const section = flaky ? `, flaky section ${encode(JSON.stringify(flaky)).length} tokens` : '';
    console.log(
      `[insight] ${tool}: ${requests.length} Woodpecker requests, ${tokens} tokens${section}`,
    );
    return { requests, tokens };
  }

  it('get_pipeline_failure stays within the 30 requests its description states', async () => {
    const { requests, tokens } = await counted('get_pipeline_failure', {
      repo_id: repo.repoId,
      number: runs[4]!.number,
    });
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(30);
    expect(tokens).toBeLessThanOrEqual(2_000);
  });

  it('compare_pipelines stays within the 8 requests its description states', async () => {
    for (const args of [
      { repo_id: repo.repoId, number: runs[4]!.number },
      { repo_id: repo.repoId, number: runs[4]!.number, other: runs[0]!.number },
    ]) {
      const { requests, tokens } = await counted('compare_pipelines', args);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.length).toBeLessThanOrEqual(8);
      expect(tokens).toBeLessThanOrEqual(1_500);
    }
  });
});
