// End-to-end: the three "logs" tools through a real MCP client against the real
// Woodpecker of the harness: logs of steps that really ran on the agent, read in windows
// with colours stripped and marked untrusted, and deleted for real.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  offlinePipelineYaml,
  stepLogLines,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
  type TestRepo,
  type WoodpeckerPipeline,
} from '../harness/fixtures.js';
import { waitUntil } from '../harness/wait-until.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';

interface StepLogs {
  untrusted: boolean;
  source: string;
  step?: { name: string; state: string; exit_code?: number };
  total_lines: number;
  from: 'head' | 'tail';
  first_line?: number;
  last_line?: number;
  /** Each line's text alone: lines[i] is line first_line + i. */
  lines: string[];
  line_numbers?: number[];
  stderr_lines?: number[];
  note: string;
}

/** Woodpecker's own line numbers of a step's log, in order. */
async function woodpeckerLineNumbers(repoId: number, number: number, stepId: number) {
  const entries = await adminApi().get<Array<{ line: number }> | null>(
    `/api/repos/${repoId}/logs/${number}/${stepId}`,
  );
  return (entries ?? []).map((entry) => entry.line).sort((a, b) => a - b);
}

// "noisy" prints a red word (ANSI colours), ten numbered lines and a last line; "fails"
// prints one line and exits 3. Both run: the second starts after the first succeeded.
const LOGS_YAML = offlinePipelineYaml([
  {
    name: 'noisy',
    commands: [
      "printf '\\033[31mred\\033[0m\\n'",
      'for i in 1 2 3 4 5 6 7 8 9 10; do echo "line-$$i"; done',
      'echo last-line',
    ],
  },
  { name: 'fails', commands: ['echo about-to-fail', 'exit 3'] },
]);

/** A repository with one finished (failed) run of LOGS_YAML, its last log lines stored. */
async function finishedRun(): Promise<{
  repo: TestRepo;
  pipeline: WoodpeckerPipeline;
  noisy: number;
  fails: number;
}> {
  const repo = await createRepo({ files: { '.woodpecker.yaml': LOGS_YAML } });
  const started = await adminApi().post<{ number: number }>(`/api/repos/${repo.repoId}/pipelines`, {
    branch: 'main',
  });
  const pipeline = await waitForPipelineStatus(repo.repoId, started.number, ['failure']);
  const noisy = stepNamed(pipeline, 'noisy').id;
  const fails = stepNamed(pipeline, 'fails').id;
  await waitForLogLine(repo.repoId, pipeline.number, noisy, 'last-line');
  await waitForLogLine(repo.repoId, pipeline.number, fails, 'about-to-fail');
  return { repo, pipeline, noisy, fails };
}

describe('get_step_logs', () => {
  let run: Awaited<ReturnType<typeof finishedRun>>;
  beforeAll(async () => {
    run = await finishedRun();
  });

  describe.each(REVISIONS)('on %s', (revision) => {
    it('returns the whole log as plain text lines, colours stripped, marked untrusted', async () => {
      const raw = await stepLogLines(run.repo.repoId, run.pipeline.number, run.noisy);
      // The colour codes really are in Woodpecker's copy of the log.
      expect(raw).toContain('\u001b[31mred\u001b[0m');

      await withSession({ revision }, async (session) => {
        const logs = await session.ok<StepLogs>('get_step_logs', {
          repo_id: run.repo.repoId,
          number: run.pipeline.number,
          step_id: run.noisy,
        });
        expect(logs).toMatchObject({ untrusted: true, source: 'woodpecker', from: 'tail' });
        // The caller named the repository, pipeline and step: the answer does not repeat them.
        expect(Object.keys(logs)).not.toEqual(
          expect.arrayContaining(['repo_id', 'number', 'step_id']),
        );
        expect(logs.step).toEqual({ name: 'noisy', state: 'success', exit_code: 0 });
        const texts = logs.lines;
        expect(texts).toContain('red');
        expect(texts.join('\n')).not.toContain('\u001b');
        const numbered = texts.filter((text) => /^line-\d+$/.test(text));
        expect(numbered).toEqual(Array.from({ length: 10 }, (_, index) => `line-${index + 1}`));
        expect(texts[texts.length - 1]).toBe('last-line');
        // Everything fits the default window of 200.
        expect(logs.total_lines).toBe(logs.lines.length);
        // The numbering is Woodpecker's: consecutive, so first and last say it all.
        const numbers = await woodpeckerLineNumbers(
          run.repo.repoId,
          run.pipeline.number,
          run.noisy,
        );
        expect(numbers).toHaveLength(logs.lines.length);
        expect(logs.first_line).toBe(numbers[0]);
        expect(logs.last_line).toBe(numbers[numbers.length - 1]);
        expect(logs.line_numbers).toBeUndefined();
        expect(logs.stderr_lines).toBeUndefined();

        // The text block is the JSON of structuredContent: marked untrusted, never cut.
        const text = textOf(
          await session.call('get_step_logs', {
            repo_id: run.repo.repoId,
            number: run.pipeline.number,
            step_id: run.noisy,
          }),
        );
        const parsed = JSON.parse(text) as StepLogs;
        expect(parsed).toMatchObject({ untrusted: true, source: 'woodpecker' });
        expect(parsed.lines).toContain('last-line');
        expect(text).not.toContain('\u001b');
      });
    });

    it('windows: head and tail with a limit', async () => {
      await withSession({ revision }, async (session) => {
        const all = await session.ok<StepLogs>('get_step_logs', {
          repo_id: run.repo.repoId,
          number: run.pipeline.number,
          step_id: run.noisy,
          from: 'head',
          limit: 5000,
        });
        expect(all.lines).toHaveLength(all.total_lines);
        expect(all.total_lines).toBeGreaterThan(5);

        const head = await session.ok<StepLogs>('get_step_logs', {
          repo_id: run.repo.repoId,
          number: run.pipeline.number,
          step_id: run.noisy,
          from: 'head',
          limit: 3,
        });
        expect(head.lines).toEqual(all.lines.slice(0, 3));
        expect(head.total_lines).toBe(all.total_lines);
        expect(head).toMatchObject({
          from: 'head',
          first_line: all.first_line,
          last_line: all.first_line! + 2,
        });

        const tail = await session.ok<StepLogs>('get_step_logs', {
          repo_id: run.repo.repoId,
          number: run.pipeline.number,
          step_id: run.noisy,
          limit: 2,
        });
        expect(tail.lines).toEqual(all.lines.slice(-2));
        expect(tail.lines).toEqual([all.lines[all.lines.length - 2], 'last-line']);
        expect(tail).toMatchObject({
          from: 'tail',
          first_line: all.last_line! - 1,
          last_line: all.last_line,
        });
      });
    });

    it('from a line: the lines from there on, and next_line after them', async () => {
      await withSession({ revision }, async (session) => {
        const args = { repo_id: run.repo.repoId, number: run.pipeline.number, step_id: run.noisy };
        const all = await session.ok<StepLogs>('get_step_logs', {
          ...args,
          from: 'head',
          limit: 5000,
        });
        const start = all.first_line! + 3;
        const part = await session.ok<StepLogs & { next_line: number; more?: boolean }>(
          'get_step_logs',
          { ...args, from: String(start), limit: 4 },
        );
        expect(part.lines).toEqual(all.lines.slice(3, 7));
        expect(part).toMatchObject({
          first_line: start,
          last_line: start + 3,
          next_line: start + 4,
          more: true,
        });
        const rest = await session.ok<StepLogs & { next_line: number; more?: boolean }>(
          'get_step_logs',
          { ...args, from: part.next_line, limit: 5000 },
        );
        expect([...part.lines, ...rest.lines]).toEqual(all.lines.slice(3));
        expect(rest.more).toBeUndefined();
      });
    });

    it('reports the exit code of a failing step', async () => {
      await withSession({ revision }, async (session) => {
        const logs = await session.ok<StepLogs>('get_step_logs', {
          repo_id: run.repo.repoId,
          number: run.pipeline.number,
          step_id: run.fails,
        });
        expect(logs.step).toMatchObject({ name: 'fails', state: 'failure', exit_code: 3 });
        expect(logs.lines).toContain('about-to-fail');
        // A client that reads only the text block gets the same JSON.
        const text = textOf(
          await session.call('get_step_logs', {
            repo_id: run.repo.repoId,
            number: run.pipeline.number,
            step_id: run.fails,
          }),
        );
        expect(JSON.parse(text)).toMatchObject({ step: { exit_code: 3 } });
      });
    });
  });
});

describe('following a running step', () => {
  it('polls from next_line until neither running nor log_may_grow: every line once, in order', async () => {
    const yaml = offlinePipelineYaml([
      {
        name: 'slow',
        commands: ['for i in 1 2 3 4 5 6; do echo "tick-$$i"; sleep 1; done', 'echo done-ticking'],
      },
    ]);
    const repo = await createRepo({ files: { '.woodpecker.yaml': yaml } });
    const started = await adminApi().post<{ number: number }>(
      `/api/repos/${repo.repoId}/pipelines`,
      {
        branch: 'main',
      },
    );
    const running = await waitForPipelineStatus(repo.repoId, started.number, ['running']);
    const stepId = stepNamed(running, 'slow').id;
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const seen: string[] = [];
      let next: number | string = 'head';
      let polls = 0;
      let sawRunning = false;
      for (;;) {
        const answer: StepLogs & { running?: boolean; log_may_grow?: boolean; next_line: number } =
          await session.ok('get_step_logs', {
            repo_id: repo.repoId,
            number: started.number,
            step_id: stepId,
            from: next,
          });
        polls += 1;
        seen.push(...(answer.lines ?? []));
        sawRunning ||= answer.running === true;
        next = answer.next_line;
        if (answer.running === undefined && answer.log_may_grow === undefined) break;
        expect(polls, 'the step should finish within the wait').toBeLessThan(120);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(sawRunning).toBe(true);
      const whole = await stepLogLines(repo.repoId, started.number, stepId);
      expect(seen).toEqual(whole);
      expect(
        seen.filter((line) => line.startsWith('tick-')),
        JSON.stringify(seen),
      ).toHaveLength(6);
      expect(seen).toContain('done-ticking');
    });
  });
});

describe('deleting logs', () => {
  it("delete_step_logs removes one step's log and leaves the others (2025-11-25)", async () => {
    const { repo, pipeline, noisy, fails } = await finishedRun();
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const deleted = await session.ok<{ done: boolean }>('delete_step_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        step_id: noisy,
      });
      expect(deleted.done).toBe(true);
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(
        `step ${noisy} in pipeline ${pipeline.number} of repository ${repo.repoId}`,
      );

      expect(await stepLogLines(repo.repoId, pipeline.number, noisy)).toEqual([]);
      expect(await stepLogLines(repo.repoId, pipeline.number, fails)).toContain('about-to-fail');
      const after = await session.ok<StepLogs>('get_step_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        step_id: noisy,
      });
      expect(after).toMatchObject({ total_lines: 0, lines: [] });
      // The pipeline and the step stay.
      expect(
        stepNamed(
          await adminApi().get<WoodpeckerPipeline>(
            `/api/repos/${repo.repoId}/pipelines/${pipeline.number}`,
          ),
          'noisy',
        ).id,
      ).toBe(noisy);
    });
  });

  it("delete_pipeline_logs removes every step's log, the pipeline stays; a running one is refused (2026-07-28)", async () => {
    const { repo, pipeline, noisy, fails } = await finishedRun();
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const deleted = await session.ok<{ done: boolean }>('delete_pipeline_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
      });
      expect(deleted.done).toBe(true);
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(
        `every step of pipeline ${pipeline.number} of repository ${repo.repoId}`,
      );

      expect(await stepLogLines(repo.repoId, pipeline.number, noisy)).toEqual([]);
      expect(await stepLogLines(repo.repoId, pipeline.number, fails)).toEqual([]);
      const truth = await adminApi().get<WoodpeckerPipeline>(
        `/api/repos/${repo.repoId}/pipelines/${pipeline.number}`,
      );
      expect(truth.status).toBe('failure');

      // A running pipeline's logs cannot be deleted: refused with the reason, logs intact.
      const sleeper = await createRepo({
        files: {
          '.woodpecker.yaml': offlinePipelineYaml([
            { name: 'nap', commands: ['echo napping', 'sleep 30'] },
          ]),
        },
      });
      const started = await adminApi().post<{ number: number }>(
        `/api/repos/${sleeper.repoId}/pipelines`,
        { branch: 'main' },
      );
      const running = await waitForPipelineStatus(sleeper.repoId, started.number, ['running']);
      const nap = stepNamed(running, 'nap').id;
      await waitForLogLine(sleeper.repoId, started.number, nap, 'napping');
      try {
        const refused = await session.call('delete_pipeline_logs', {
          repo_id: sleeper.repoId,
          number: started.number,
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain('422');
        expect(await stepLogLines(sleeper.repoId, started.number, nap)).toContain('napping');
      } finally {
        await adminApi().post(`/api/repos/${sleeper.repoId}/pipelines/${started.number}/cancel`);
        await waitUntil(
          'the sleeping pipeline to end',
          async () => {
            const status = (
              await adminApi().get<WoodpeckerPipeline>(
                `/api/repos/${sleeper.repoId}/pipelines/${started.number}`,
              )
            ).status;
            return status === 'running' || status === 'pending' ? undefined : status;
          },
          { timeoutMs: 20_000, intervalMs: 250 },
        );
      }
    });
  });
});
