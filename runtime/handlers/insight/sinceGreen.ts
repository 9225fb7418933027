// "What changed since it last passed": for a failing pipeline, the last successful
// pipeline of the same repository, branch and event before it, every pipeline since
// (with the commits, authors and changed files Woodpecker recorded), the first failing
// one, and which steps fail now that passed then. Every part is bounded: a few pages of
// history, a fixed number of pipelines and files, short commit messages.
import type { HandlerContext } from '../../call/handlerContext.js';
import { FAILED_STATES, stepsOf } from '../reads/pipelineSteps.js';
import { readPipeline } from '../reads/pipelineReads.js';
import { pipelineFacts, type PipelineFacts } from '../reads/pipelineFacts.js';
import { lineOf, lookBack, type Raw } from './pipelineHistory.js';

/** Pages of 50 looked through for the last success: 200 pipelines back at most. */
const MAX_PAGES = 4;
/** Pipelines listed between the last success and the failing one. */
const MAX_SINCE = 20;
const MAX_FILES_PER_PIPELINE = 20;
const MAX_MESSAGE = 200;

export interface PipelineBrief {
  readonly number: number;
  readonly status: string;
  readonly commit: string;
  readonly author: string;
  readonly message: string;
  readonly changed_files: readonly string[];
  readonly more_changed_files: number;
}

export async function sinceGreen(
  context: HandlerContext,
  repoId: number,
  failing: unknown,
): Promise<Raw> {
  const current = pipelineFacts(failing);
  const line = lineOf(current);
  const {
    earlier,
    found: lastSuccess,
    searched,
    exhausted,
  } = await lastSuccessBefore(context, repoId, current);

  const scope = { ...line };
  if (!lastSuccess) {
    return {
      ...scope,
      last_success: null,
      note: exhausted
        ? `No earlier pipeline of this branch and event succeeded (${searched} looked at).`
        : `No success among the last ${searched} pipelines of this branch and event; list_pipelines with status "success" pages further back.`,
    };
  }

  // Oldest first, so the first failing one after the success reads first.
  const since = [...earlier.sort((a, b) => a.number - b.number), current];
  const firstFailure = since.find((pipeline) => FAILED_STATES.has(pipeline.status));
  const green = await readPipeline(context, repoId, lastSuccess.number);
  const passedThen = new Map(
    stepsOf(green).map((step) => [`${step.workflow}/${step.name}`, step.state]),
  );
  const newlyFailing = stepsOf(current.answer)
    .filter(
      (step) =>
        FAILED_STATES.has(step.state) &&
        passedThen.get(`${step.workflow}/${step.name}`) === 'success',
    )
    .map((step) => ({
      step_id: step.id,
      name: step.name,
      workflow: step.workflow,
      now: step.state,
      then: 'success',
    }));

  return {
    ...scope,
    last_success: brief(lastSuccess),
    first_failure: firstFailure ? brief(firstFailure) : null,
    pipelines_since: since.slice(0, MAX_SINCE).map(brief),
    more_pipelines_since: Math.max(0, since.length - MAX_SINCE),
    newly_failing_steps: newlyFailing,
  };
}

/** The last successful pipeline of the same line of work before `pipeline`, and those between. */
export function lastSuccessBefore(
  context: HandlerContext,
  repoId: number,
  pipeline: PipelineFacts,
) {
  return lookBack(
    context,
    repoId,
    lineOf(pipeline),
    pipeline.number,
    MAX_PAGES,
    (earlier) => earlier.status === 'success',
  );
}

export function brief(pipeline: PipelineFacts): PipelineBrief {
  const files = pipeline.changed_files;
  const message = pipeline.message.trim();
  return {
    number: pipeline.number,
    status: pipeline.status,
    commit: pipeline.commit,
    author: pipeline.author,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
    changed_files: files.slice(0, MAX_FILES_PER_PIPELINE),
    more_changed_files: Math.max(0, files.length - MAX_FILES_PER_PIPELINE),
  };
}
