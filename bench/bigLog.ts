// The pipeline the log figures read: one step that prints 200,000 lines (a few of them
// errors, for search_logs to find) and then fails, as a long failing build does.
import { createRepo, runPipeline, type Woodpecker } from './woodpecker.js';

export const BIG_LOG_LINES = 200_000;

export interface BigLog {
  readonly repoId: number;
  readonly number: number;
  readonly stepId: number;
  /** GET /api/repos/{repo_id}/logs/{number}/{step_id}: Woodpecker's JSON entries. */
  readonly jsonPath: string;
}

// awk's print ends each line itself: no backslash escapes to survive YAML and the shell.
const PRINT = `awk 'BEGIN { for (i = 1; i <= ${BIG_LOG_LINES}; i++) { if (i % 20000 == 10000) print "ERROR: test " i " failed: expected 200, got 500"; else print "ok " i " - compiling module pkg/" i "/handler.go" } }'`;

export async function bigLogPipeline(woodpecker: Woodpecker): Promise<BigLog> {
  const repoId = await createRepo(woodpecker, `bench-logs-${Date.now().toString(36)}`, [
    { name: 'build', commands: [PRINT, 'exit 1'] },
  ]);
  const pipeline = await runPipeline(woodpecker, repoId);
  const step = pipeline.steps.find((candidate) => candidate.name === 'build');
  if (!step) throw new Error(`pipeline ${pipeline.number} has no build step`);
  const jsonPath = `/api/repos/${repoId}/logs/${pipeline.number}/${step.id}`;
  // The agent's last log batch can land after the step's final state: wait for all of it.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const entries = (await woodpecker.get(jsonPath)) as unknown[] | null;
    if ((entries?.length ?? 0) >= BIG_LOG_LINES) break;
    if (Date.now() > deadline)
      throw new Error(`the step's log has ${entries?.length ?? 0} entries, not ${BIG_LOG_LINES}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return { repoId, number: pipeline.number, stepId: step.id, jsonPath };
}
