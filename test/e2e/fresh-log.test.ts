// get_pipeline_failure called the moment wait_for_pipeline says a pipeline finished, as
// a model does. The agent reports a step done before Woodpecker has stored the step's
// last log lines, so a read right then can find the log empty (issue 35: total_lines 0
// twice; 50 ms later all 11 lines were there). Against the real agent, several times,
// since the window is milliseconds wide.
import { describe, expect, it } from 'vitest';
import { createRepo, offlinePipelineYaml } from '../harness/fixtures.js';
import { REVISIONS, withSession } from './mcpSession.js';

interface FailedStep {
  name: string;
  total_lines: number;
  log_tail?: string[];
  log_note?: string;
}

describe('get_pipeline_failure right after wait_for_pipeline', () => {
  it("returns the failed step's log, not an empty one", async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          {
            name: 'migrate',
            commands: [
              'echo connecting to postgres',
              'echo "error: connect ECONNREFUSED 127.0.0.1:5432"',
              'exit 3',
            ],
          },
        ]),
      },
    });
    await withSession({ revision: REVISIONS[0]! }, async (session) => {
      const seen: number[] = [];
      for (let run = 0; run < 6; run++) {
        const { number } = await session.ok<{ number: number }>('trigger_pipeline', {
          repo_id: repo.repoId,
          branch: 'main',
        });
        const finished = await session.ok<{ status: string }>('wait_for_pipeline', {
          repo_id: repo.repoId,
          number,
          timeout_seconds: 120,
        });
        expect(finished.status).toBe('failure');
        const failure = await session.ok<{ failed_steps: FailedStep[] }>('get_pipeline_failure', {
          repo_id: repo.repoId,
          number,
        });
        const step = failure.failed_steps[0]!;
        seen.push(step.total_lines);
        expect(step.log_tail ?? [], JSON.stringify(step)).toContain(
          'error: connect ECONNREFUSED 127.0.0.1:5432',
        );
      }
      expect(
        seen.every((lines) => lines > 0),
        String(seen),
      ).toBe(true);
    });
  }, 600_000);
});
