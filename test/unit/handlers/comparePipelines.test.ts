// compare_pipelines' decisions without a server: variables and duration changes (the
// harness's steps run too fast and take no variables), the choice of the last green, a
// pipeline with nothing green before it, and the request bound its description states.
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import type { ComparePipelinesArgs } from '../../../generated/tools/compare_pipelines.js';
import type { HandlerContext } from '../../../runtime/call/handlerContext.js';
import type { WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { comparePipelines } from '../../../runtime/handlers/compare_pipelines.js';

type Raw = Record<string, unknown>;

function contextWith(
  history: Raw[],
  args: ComparePipelinesArgs,
): { context: HandlerContext<ComparePipelinesArgs>; sent: WoodpeckerRequest[] } {
  const sent: WoodpeckerRequest[] = [];
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  const context = {
    args,
    call: async (request: WoodpeckerRequest) => {
      sent.push(request);
      if (/\/pipelines$/.test(request.path)) {
        const page = Number(request.query?.page ?? 1);
        return { status: 200, body: history.slice((page - 1) * 50, page * 50) };
      }
      const config = request.path.match(/\/pipelines\/(\d+)\/config$/);
      if (config) {
        const text = `steps:\n  - name: test\n    commands: [run ${config[1]}]\n`;
        return {
          status: 200,
          body: [{ name: '.woodpecker.yaml', data: Buffer.from(text).toString('base64') }],
        };
      }
      const number = Number(request.path.split('/').pop());
      return { status: 200, body: history.find((pipeline) => pipeline.number === number) };
    },
    toolNamed: (name: string) => byName.get(name)!,
  } as unknown as HandlerContext<ComparePipelinesArgs>;
  return { context, sent };
}

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
