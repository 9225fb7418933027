// wait_for_pipeline: polls until the pipeline leaves pending/running (or the caller's
// timeout), reporting step states as MCP progress, and stops when the request is
// cancelled.
import { setTimeout as sleep } from 'node:timers/promises';
import { pipelineStatus, RUNNING_STATES, stepsOf, KNOWN_STATES } from './reads/pipelineSteps.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { readPipeline } from './reads/pipelineReads.js';

const DEFAULT_TIMEOUT_SECONDS = 120;
const POLL_INTERVAL_MS = 1_000;

export const waitForPipeline: HandlerOf<'wait_for_pipeline'> = async (context) => {
  const { repo_id: repoId, number } = context.args;
  const timeoutSeconds =
    typeof context.args.timeout_seconds === 'number'
      ? context.args.timeout_seconds
      : DEFAULT_TIMEOUT_SECONDS;
  const deadline = Date.now() + timeoutSeconds * 1000;
  let polls = 0;
  let pipeline: unknown;
  let lastReport = '';
  for (;;) {
    pipeline = await readPipeline(context, repoId, number, { fresh: true });
    polls++;
    const status = pipelineStatus(pipeline);
    const steps = stepsOf(pipeline);
    // `blocked` waits for a person, not for the agent: report it rather than wait on it.
    if (!RUNNING_STATES.has(status) || status === 'blocked') break;
    const finished = steps.filter((step) => !RUNNING_STATES.has(step.state)).length;
    const report = `pipeline ${String(number)} ${status}, ${finished} of ${steps.length} steps done: ${steps.map((step) => `${step.name}=${step.state}`).join(', ')}`;
    if (report !== lastReport) {
      // Progress must only grow, so it counts polls; the message carries the states.
      await context.progress(polls, undefined, report);
      lastReport = report;
    }
    if (Date.now() + POLL_INTERVAL_MS > deadline) break;
    try {
      await sleep(POLL_INTERVAL_MS, undefined, { signal: context.signal });
    } catch {
      break; // cancelled: the answer is discarded by the client anyway
    }
  }
  const status = pipelineStatus(pipeline);
  const finished = !RUNNING_STATES.has(status);
  return {
    data: {
      repo_id: repoId,
      number,
      status,
      finished,
      timed_out: !finished && status !== 'blocked' && !context.signal.aborted,
      waited_seconds: Math.round(
        (timeoutSeconds * 1000 - Math.max(0, deadline - Date.now())) / 1000,
      ),
      polls,
      steps: stepsOf(pipeline).map((step) => ({
        id: step.id,
        name: step.name,
        state: step.state,
        exit_code: step.exit_code,
      })),
      ...(status === 'blocked'
        ? {
            note: 'The pipeline waits for approval; approve_pipeline or decline_pipeline decides it.',
          }
        : !KNOWN_STATES.has(status)
          ? {
              note: `This server does not know status ${status} (no release it was checked against uses it; a newer Woodpecker?), so the wait stopped there. get_pipeline shows where the pipeline stands; call again to wait more.`,
            }
          : {}),
    },
    shortenable: {
      field: 'steps',
      keep: 'start',
      narrow: 'get_pipeline_failure or get_pipeline for the details',
    },
  };
};
