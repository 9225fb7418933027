// since_green's decisions without a server: which pipelines count as the same line of
// work, what happens when nothing succeeded, and the bounds on every list it returns.
// The real green, green, red, red sequence runs in test/e2e/answers.test.ts.
import { describe, expect, it } from 'vitest';
import { sinceGreen } from '../../../runtime/handlers/insight/sinceGreen.js';
import { fakeHistory as contextWith, type Raw } from './fakeHistory.js';

const steps = (state: string) => [
  { name: 'wf', state, children: [{ id: 1, pid: 2, name: 'test', state }] },
];
const pipeline = (number: number, status: string, extra: Raw = {}): Raw => ({
  number,
  status,
  branch: 'main',
  event: 'push',
  commit: `sha${number}`,
  author: 'dev',
  message: `change ${number}`,
  workflows: steps(status),
  ...extra,
});

describe('sinceGreen', () => {
  it('says so when nothing succeeded before, and how far it looked', async () => {
    const failing = pipeline(3, 'failure');
    const { context } = contextWith([failing, pipeline(2, 'failure'), pipeline(1, 'killed')]);
    expect(await sinceGreen(context, 7, failing)).toMatchObject({
      last_success: null,
      note: expect.stringMatching(
        /No earlier pipeline of this branch and event succeeded \(3 looked at\)/,
      ),
    });
  });

  it('compares a pull request only with the same pull request, not others into the same branch', async () => {
    const pr = { event: 'pull_request', ref: 'refs/pull/5/head' };
    const failing = pipeline(4, 'failure', pr);
    const history = [
      failing,
      pipeline(3, 'success', { ...pr, ref: 'refs/pull/6/head' }),
      pipeline(2, 'failure', pr),
      pipeline(1, 'success', pr),
    ];
    const since = await sinceGreen(contextWith(history).context, 7, failing);
    expect(since).toMatchObject({
      ref: 'refs/pull/5/head',
      last_success: { number: 1 },
      first_failure: { number: 2 },
    });
    expect((since.pipelines_since as Raw[]).map((entry) => entry.number)).toEqual([2, 4]);
  });

  it('ignores other branches and events, and names the steps that fail now but passed then', async () => {
    const failing = pipeline(5, 'failure');
    const history = [
      failing,
      pipeline(4, 'success', { branch: 'dev' }),
      pipeline(3, 'success', { event: 'manual' }),
      pipeline(2, 'success'),
    ];
    const since = await sinceGreen(contextWith(history).context, 7, failing);
    expect(since).toMatchObject({
      last_success: { number: 2 },
      first_failure: { number: 5 },
      newly_failing_steps: [{ name: 'test', workflow: 'wf', now: 'failure', then: 'success' }],
    });
  });

  it('bounds pipelines, changed files, messages and how far back it looks', async () => {
    const files = Array.from({ length: 25 }, (_, index) => `file${index}`);
    const reds = Array.from({ length: 30 }, (_, index) =>
      pipeline(100 - index, 'failure', { changed_files: files, message: 'x'.repeat(500) }),
    );
    const { context } = contextWith([...reds, pipeline(70, 'success')]);
    const since = await sinceGreen(context, 7, reds[0]!);
    const listed = since.pipelines_since as {
      changed_files: string[];
      more_changed_files: number;
      message: string;
    }[];
    expect(listed).toHaveLength(20);
    expect(since.more_pipelines_since).toBe(10);
    expect(listed[0]!.changed_files).toHaveLength(20);
    expect(listed[0]!.more_changed_files).toBe(5);
    expect(listed[0]!.message).toHaveLength(201);

    const endless = Array.from({ length: 260 }, (_, index) => pipeline(1000 - index, 'failure'));
    const far = contextWith(endless);
    expect(await sinceGreen(far.context, 7, endless[0]!)).toMatchObject({
      last_success: null,
      note: expect.stringMatching(/No success among the last 200 pipelines/),
    });
    expect(far.sent).toHaveLength(4);
  });
});
