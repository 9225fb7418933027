// compare_pipelines' decisions without a server: variables and duration changes (the
// harness's steps run too fast and take no variables), the choice of the last green, a
// pipeline with nothing green before it, and the request bound its description states.
import { describe, expect, it } from 'vitest';
import type { ComparePipelinesArgs } from '../../../generated/tools/compare_pipelines.js';
import { comparePipelines } from '../../../runtime/handlers/compare_pipelines.js';
import { fakeHistory, type Raw } from './fakeHistory.js';

/** The history with each pipeline's config: one step whose command names the pipeline. */
const contextWith = (history: Raw[], args: ComparePipelinesArgs) =>
  fakeHistory(history, {
    args,
    config: (number) => [
      { name: '.woodpecker.yaml', text: `steps:\n  - name: test\n    commands: [run ${number}]\n` },
    ],
  });

const step = (name: string, state: string, seconds: number) => ({
  id: seconds,
  name,
  state,
  exit_code: state === 'success' ? 0 : 1,
  started: 1_000,
  finished: 1_000 + seconds,
});
const pipeline = (number: number, status: string, extra: Raw = {}): Raw => ({
  number,
  status,
  branch: 'main',
  event: 'push',
  commit: `sha${number}`,
  workflows: [
    {
      name: 'ci',
      state: status,
      children: [step('test', status, 5), step('build', 'success', 10)],
    },
  ],
  ...extra,
});

describe('compare_pipelines', () => {
  it('names changed variables and a step that became much slower', async () => {
    const slow = pipeline(3, 'failure', {
      variables: { TARGET: 'staging', DEBUG: '1' },
      workflows: [
        {
          name: 'ci',
          state: 'failure',
          children: [step('test', 'failure', 5), step('build', 'success', 90)],
        },
      ],
    });
    const history = [
      slow,
      pipeline(2, 'failure'),
      pipeline(1, 'success', { variables: { TARGET: 'prod' } }),
    ];
    const { context, sent } = contextWith(history, { repo_id: 7, number: 3 });
    const answer = (await comparePipelines(context)).data as Raw;
    expect(answer).toMatchObject({
      base: { number: 1 },
      head: { number: 3 },
      differs: {
        commit: { base: 'sha1', head: 'sha3' },
        variables: { TARGET: { base: 'prod', head: 'staging' }, DEBUG: { head: '1' } },
      },
      steps: {
        changed: [{ name: 'test', base: 'success (exit 0)', head: 'failure (exit 1)' }],
        durations: [{ name: 'build', base_seconds: 10, head_seconds: 90 }],
      },
      config: { changed: [{ file: '.woodpecker.yaml', added_lines: 1, removed_lines: 1 }] },
      between: { pipelines: [{ number: 2 }] },
    });
    expect(sent.length).toBeLessThanOrEqual(8);
  });

  it('refuses clearly when nothing green comes before, naming other', async () => {
    const history = [pipeline(2, 'failure'), pipeline(1, 'failure')];
    await expect(
      comparePipelines(contextWith(history, { repo_id: 7, number: 2 }).context),
    ).rejects.toThrow(/no successful pipeline .* give other/);
  });

  it('stays within 8 requests when the last green is four pages back', async () => {
    const history = [
      pipeline(200, 'failure'),
      ...Array.from({ length: 198 }, (_, index) => pipeline(199 - index, 'failure')),
      pipeline(1, 'success'),
    ];
    const { context, sent } = contextWith(history, { repo_id: 7, number: 200 });
    const answer = (await comparePipelines(context)).data as Raw;
    expect(answer).toMatchObject({ base: { number: 1 }, between: { more_pipelines: 178 } });
    expect(sent).toHaveLength(8);
  });
});
