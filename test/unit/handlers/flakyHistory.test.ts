// The flaky section's evidence without a server: counts up to the failing pipeline, a
// commit that failed then passed (restart or rerun), the failed step's earlier outcomes,
// and the bound on pipelines read whole. The real alternating step runs in
// test/e2e/insight-history.test.ts.
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import type { HandlerContext } from '../../../runtime/call/handlerContext.js';
import type { WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { flakyHistory, MAX_DETAILED } from '../../../runtime/handlers/flakyHistory.js';
import { stepsOf } from '../../../runtime/handlers/pipelineSteps.js';

type Raw = Record<string, unknown>;

function contextWith(history: Raw[]): { context: HandlerContext; sent: WoodpeckerRequest[] } {
  const sent: WoodpeckerRequest[] = [];
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  const context = {
    call: async (request: WoodpeckerRequest) => {
      sent.push(request);
      if (/\/pipelines$/.test(request.path)) {
        const page = Number(request.query?.page ?? 1);
        const perPage = Number(request.query?.perPage ?? 50);
        return { status: 200, body: history.slice((page - 1) * perPage, page * perPage) };
      }
      const number = Number(request.path.split('/').pop());
      return { status: 200, body: history.find((pipeline) => pipeline.number === number) };
    },
    toolNamed: (name: string) => byName.get(name)!,
  } as unknown as HandlerContext;
  return { context, sent };
}

const run = (number: number, status: string, commit: string, extra: Raw = {}): Raw => ({
  number,
  status,
  commit,
  branch: 'main',
  event: 'push',
  workflows: [
    {
      name: 'ci',
      state: status,
      agent_id: number % 2 ? 1 : 2,
      children: [{ id: number * 10, name: 'test', state: status }],
    },
  ],
  ...extra,
});

describe('flakyHistory', () => {
  it('counts failures up to this pipeline and names commits that failed then passed', async () => {
    const history = [
      run(6, 'success', 'c5', { parent: 5 }),
      run(5, 'failure', 'c5'),
      run(4, 'success', 'c4'),
      run(3, 'failure', 'c3'),
      run(2, 'success', 'c1', { parent: 1 }),
      run(1, 'failure', 'c1'),
      run(7, 'failure', 'other', { branch: 'dev' }),
    ];
    const failing = history[1]!;
    const { context } = contextWith(history);
    const flaky = await flakyHistory(context, 7, failing, stepsOf(failing));
    expect(flaky).toMatchObject({
      failed: [5, 3, 1],
      passed_count: 2,
      same_commit_failed_then_passed: [
        { commit: 'c1', failed: [1], passed: [2], restarts: ['1→2'] },
        { commit: 'c5', failed: [5], passed: [6], restarts: ['5→6'] },
      ],
      steps: [{ name: 'test', earlier_failed: [3, 1], earlier_passed: [4, 2] }],
      pipelines_read_whole: 4,
    });
    expect(flaky.summary).toMatch(/3 of the last 5 finished pipelines of main \(push\) failed/);
    expect(flaky.summary).toMatch(/2 commits failed and then passed/);
    expect(flaky.stopped_early).toBeUndefined();
    // 5, 3 and 1 ran on agent 1; 6, 4 and 2 on agent 2.
    expect(flaky.agents).toEqual([
      { agent_id: 1, failed: [5, 3, 1], passed_count: 0 },
      { agent_id: 2, failed: [], passed_count: 2 },
    ]);
    expect(flaky.summary).toMatch(
      /by agent: agent 1: 3 failed \(pipelines 5, 3, 1\), 0 passed; agent 2: 0 failed, 2 passed\./,
    );
  });

  it('says there is no same-commit evidence when there is none', async () => {
    const history = [run(2, 'failure', 'b'), run(1, 'success', 'a')];
    const flaky = await flakyHistory(
      contextWith(history).context,
      7,
      history[0]!,
      stepsOf(history[0]),
    );
    expect(flaky.same_commit_failed_then_passed).toEqual([]);
    expect(flaky.summary).toMatch(/no commit failed and then passed/);
  });

  it('reads at most two list pages and MAX_DETAILED pipelines whole, and says it stopped early', async () => {
    const history = Array.from({ length: 120 }, (_, index) =>
      run(120 - index, index % 2 ? 'success' : 'failure', `c${120 - index}`),
    );
    const { context, sent } = contextWith(history);
    const flaky = await flakyHistory(context, 7, history[0]!, stepsOf(history[0]));
    const lists = sent.filter((request) => /\/pipelines$/.test(request.path));
    expect(lists).toHaveLength(2);
    const whole = sent.filter((request) => /\/pipelines\/\d+$/.test(request.path));
    expect(whole).toHaveLength(MAX_DETAILED);
    // The agent list and the queue, for the agents' names and states.
    expect(sent.length - lists.length - whole.length).toBe(2);
    expect(flaky.stopped_early).toMatch(/only the newest 100 pipelines/);
    expect(flaky.more_failed).toBe(30);
  });
});
