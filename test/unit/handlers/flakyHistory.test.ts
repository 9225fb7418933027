// The flaky section's evidence without a server: counts up to the failing pipeline, a
// commit that failed then passed (restart or rerun), the failed step's earlier outcomes,
// and the bound on pipelines read whole. The real alternating step runs in
// test/e2e/insight-history.test.ts.
import { describe, expect, it } from 'vitest';
import { flakyHistory, MAX_DETAILED } from '../../../runtime/handlers/insight/flakyHistory.js';
import { stepsOf } from '../../../runtime/handlers/reads/pipelineSteps.js';
import { fakeHistory as contextWith, type Raw } from './fakeHistory.js';

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

/** A pipeline whose workflow ran two steps, each ending as given. */
const twoSteps = (number: number, status: string, lint: string, test: string, extra: Raw = {}) => ({
  ...run(number, status, 'c9', extra),
  workflows: [
    {
      name: 'ci',
      state: status,
      agent_id: 1,
      children: [
        { id: number * 10, name: 'lint', state: lint },
        { id: number * 10 + 1, name: 'test', state: test },
      ],
    },
  ],
});

describe('judged by the final attempt', () => {
  it('says which failed steps passed on a later attempt of the same commit, and how it ended', async () => {
    const history = [
      twoSteps(12, 'failure', 'success', 'failure', { parent: 11 }),
      twoSteps(11, 'failure', 'success', 'failure', { parent: 10 }),
      twoSteps(10, 'failure', 'failure', 'failure'),
    ];
    const failing = history[2]!;
    const { context, sent } = contextWith(history);
    const flaky = await flakyHistory(
      context,
      7,
      failing,
      stepsOf(failing).filter((s) => s.state === 'failure'),
    );
    expect(flaky.final_attempt).toEqual({ number: 12, status: 'failure' });
    expect(flaky.passed_on_later_attempt).toEqual([
      { name: 'lint', workflow: 'ci', passed_in: [11, 12] },
    ]);
    expect(flaky.summary).toMatch(
      /^This commit ran again 2 times after this pipeline; its final attempt, pipeline 12, ended failure; passed on a later attempt: lint \(pipeline 11, 12\)/,
    );
    // The later attempts are read whole: 12 and 11, within the bound of MAX_DETAILED.
    expect(sent.map((request) => request.path)).toEqual(
      expect.arrayContaining(['/api/repos/7/pipelines/12', '/api/repos/7/pipelines/11']),
    );
  });

  it('says nothing of later attempts when the commit did not run again', async () => {
    const history = [run(3, 'failure', 'c3'), run(2, 'success', 'c2')];
    const { context } = contextWith(history);
    const flaky = await flakyHistory(context, 7, history[0]!, stepsOf(history[0]!));
    expect(flaky.final_attempt).toBeUndefined();
    expect(flaky.passed_on_later_attempt).toEqual([]);
    expect(String(flaky.summary)).not.toMatch(/ran again/);
  });

  it('never reads more than MAX_DETAILED pipelines whole, later attempts included', async () => {
    const history = [
      ...Array.from({ length: 5 }, (_, i) => run(30 - i, 'success', 'c20', { parent: 20 })),
      run(20, 'failure', 'c20'),
      ...Array.from({ length: 15 }, (_, i) => run(19 - i, 'failure', `e${i}`)),
    ];
    const failing = history[5]!;
    const { context, sent } = contextWith(history);
    await flakyHistory(context, 7, failing, stepsOf(failing));
    const whole = sent.filter((request) => /\/pipelines\/\d+$/.test(request.path));
    expect(whole.length).toBeLessThanOrEqual(MAX_DETAILED);
  });
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
      // 6 (the later attempt of c5), then 4, 3, 2 and 1.
      pipelines_read_whole: 5,
      final_attempt: { number: 6, status: 'success' },
      passed_on_later_attempt: [{ name: 'test', workflow: 'ci', passed_in: [6] }],
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
