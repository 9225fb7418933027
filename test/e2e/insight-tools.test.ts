// The three tools beyond the REST API: search_logs, get_pipeline_failure and
// wait_for_pipeline, against real pipelines.
import { describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  offlinePipelineYaml,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
  type TestRepo,
} from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession, type McpSession } from './mcpSession.js';

async function runPipeline(session: McpSession, repo: TestRepo) {
  const started = await session.ok<{ number: number }>('trigger_pipeline', {
    repo_id: repo.repoId,
    branch: 'main',
  });
  return waitForPipelineStatus(repo.repoId, started.number, ['success', 'failure']);
}

describe.each(REVISIONS)('on %s', (revision) => {
  it('search_logs finds text and RE2 patterns across steps, with context, bounded', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          {
            name: 'build',
            commands: ['echo compiling', 'echo "warning: unused variable"', 'echo linked'],
          },
          {
            name: 'test',
            commands: ['echo "ok 1 parses"', 'echo "WARNING: slow test"', 'echo done'],
          },
        ]),
      },
    });
    await withSession({ revision }, async (session) => {
      const pipeline = await runPipeline(session, repo);
      const test = stepNamed(pipeline, 'test');
      await waitForLogLine(repo.repoId, pipeline.number, test.id, 'done');
      await waitForLogLine(repo.repoId, pipeline.number, stepNamed(pipeline, 'build').id, 'linked');

      type Found = {
        matches: {
          step: string;
          step_id: number;
          line: number;
          stream?: string;
          text: string;
          before?: string[];
          after?: string[];
        }[];
        untrusted: boolean;
        source: string;
        steps_searched: number;
      };
      const plain = await session.ok<Found>('search_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        pattern: 'warning:',
        ignore_case: true,
        context: 1,
      });
      expect(plain).toMatchObject({ untrusted: true, source: 'woodpecker', steps_searched: 2 });
      // Each match appears twice in a step log: the echoed command and its output.
      const outputs = plain.matches.filter((match) => !match.text.startsWith('+ '));
      expect(outputs.map((match) => [match.step, match.text])).toEqual([
        ['build', 'warning: unused variable'],
        ['test', 'WARNING: slow test'],
      ]);
      // The lines around a match are their texts alone: the one printed just before it
      // (the echoed command) and the one just after. stdout, the only stream agents
      // write, goes unsaid.
      expect(outputs[0]!.before).toEqual(['+ echo "warning: unused variable"']);
      expect(outputs[0]!.after).toHaveLength(1);
      expect(typeof outputs[0]!.after![0]).toBe('string');
      expect(outputs[0]!.stream).toBeUndefined();

      const regex = await session.ok<Found>('search_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        step_id: test.id,
        pattern: '^ok \\d+',
        regex: true,
      });
      expect(regex.steps_searched).toBe(1);
      expect(regex.matches.map((match) => match.text)).toEqual(['ok 1 parses']);

      const capped = await session.ok<Found & { limited: boolean }>('search_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        pattern: 'e',
        max_matches: 2,
      });
      expect(capped.matches).toHaveLength(2);
      expect(capped.limited).toBe(true);

      const bad = await session.call('search_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        pattern: '(unclosed',
        regex: true,
      });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/pattern is not a valid regular expression/);

      const hostile = await session.ok<Found>('search_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        pattern: '(e+)+$x',
        regex: true,
      });
      expect(hostile.matches).toEqual([]);
    });
  });

  it('get_pipeline_failure names the failed step, its exit code and its log tail', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          { name: 'prepare', commands: ['echo ready'] },
          { name: 'unit-tests', commands: ['echo "FAIL: parser handles empty input"', 'exit 3'] },
        ]),
      },
    });
    await withSession({ revision }, async (session) => {
      const pipeline = await runPipeline(session, repo);
      expect(pipeline.status).toBe('failure');
      const failing = stepNamed(pipeline, 'unit-tests');
      await waitForLogLine(
        repo.repoId,
        pipeline.number,
        failing.id,
        'FAIL: parser handles empty input',
      );
      const failure = await session.ok<{
        failed: boolean;
        untrusted: boolean;
        failed_steps: {
          name: string;
          exit_code: number;
          total_lines: number;
          first_line: number;
          log_tail: string[];
        }[];
      }>('get_pipeline_failure', { repo_id: repo.repoId, number: pipeline.number });
      expect(failure.failed).toBe(true);
      expect(failure.untrusted).toBe(true);
      expect(failure.failed_steps.map((step) => [step.name, step.exit_code])).toEqual([
        ['unit-tests', 3],
      ]);
      const [step] = failure.failed_steps;
      expect(step!.log_tail).toContain('FAIL: parser handles empty input');
      // The tail ends at the log's last line: numbered from first_line, Woodpecker's count.
      const numbers = (
        (await adminApi().get<{ line: number }[]>(
          `/api/repos/${repo.repoId}/logs/${pipeline.number}/${failing.id}`,
        )) ?? []
      ).map((entry) => entry.line);
      expect(step!.first_line + step!.log_tail.length - 1).toBe(Math.max(...numbers));
    });
  });

  it('get_pipeline_failure says so when the pipeline passed', async () => {
    const repo = await createRepo();
    await withSession({ revision }, async (session) => {
      const pipeline = await runPipeline(session, repo);
      const answer = await session.ok<{ failed: boolean; summary: string; status: string }>(
        'get_pipeline_failure',
        { repo_id: repo.repoId, number: pipeline.number },
      );
      expect(answer).toMatchObject({ failed: false, status: 'success' });
      expect(answer.summary).toContain('did not fail');
    });
  });
});

describe('wait_for_pipeline', () => {
  const slowRepo = () =>
    createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          { name: 'slow', commands: ['sleep 3', 'echo finished'] },
        ]),
      },
    });

  it.each(REVISIONS)(
    'waits until the pipeline finishes and reports progress (%s)',
    async (revision) => {
      const repo = await slowRepo();
      await withSession({ revision }, async (session) => {
        const started = await session.ok<{ number: number }>('trigger_pipeline', {
          repo_id: repo.repoId,
          branch: 'main',
        });
        const progress: string[] = [];
        const result = await session.client.callTool(
          {
            name: 'wait_for_pipeline',
            arguments: { repo_id: repo.repoId, number: started.number, timeout_seconds: 60 },
          },
          {
            onprogress: (update) => void progress.push(String(update.message ?? '')),
            resetTimeoutOnProgress: true,
          },
        );
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({
          status: 'success',
          finished: true,
          timed_out: false,
        });
        expect(progress.length).toBeGreaterThan(0);
        expect(progress.some((message) => message.includes('slow=running'))).toBe(true);
      });
    },
  );

  it('stops at the caller’s timeout and says so', async () => {
    const repo = await createRepo({
      files: { '.woodpecker.yaml': offlinePipelineYaml([{ name: 'slow', commands: ['sleep 8'] }]) },
    });
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const started = await session.ok<{ number: number }>('trigger_pipeline', {
        repo_id: repo.repoId,
        branch: 'main',
      });
      const result = await session.ok<{ finished: boolean; timed_out: boolean; status: string }>(
        'wait_for_pipeline',
        { repo_id: repo.repoId, number: started.number, timeout_seconds: 2 },
      );
      expect(result.finished).toBe(false);
      expect(result.timed_out).toBe(true);
      expect(['pending', 'running']).toContain(result.status);
      await waitForPipelineStatus(repo.repoId, started.number, ['success']);
    });
  });

  it('honours cancellation of the request', async () => {
    const repo = await createRepo({
      files: { '.woodpecker.yaml': offlinePipelineYaml([{ name: 'slow', commands: ['sleep 6'] }]) },
    });
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const started = await session.ok<{ number: number }>('trigger_pipeline', {
        repo_id: repo.repoId,
        branch: 'main',
      });
      const controller = new AbortController();
      const call = session.client.callTool(
        {
          name: 'wait_for_pipeline',
          arguments: { repo_id: repo.repoId, number: started.number, timeout_seconds: 120 },
        },
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(), 1_000);
      const began = Date.now();
      await expect(call).rejects.toThrow();
      expect(Date.now() - began).toBeLessThan(30_000);
      await waitForPipelineStatus(repo.repoId, started.number, ['success']);
    });
  });
});
