// get_pipeline_failure: "why did pipeline N fail" in one call: the failed workflows and
// steps with their exit codes and the tail of each failed step's log, within a budget.
import { setTimeout as sleep } from 'node:timers/promises';
import { linesAnswer, UNTRUSTED_NOTE, WindowCollector, type LogLine } from './reads/logs.js';
import {
  FAILED_STATES,
  KNOWN_STATES,
  pipelineStatus,
  RUNNING_STATES,
  workflowsOf,
  type StepSummary,
} from './reads/pipelineSteps.js';
import type { HandlerContext, HandlerOf } from '../call/handlerContext.js';
import { readPipeline, scanStepLog } from './reads/pipelineReads.js';
import { sinceGreen } from './insight/sinceGreen.js';
import { flakyHistory, type PassedLater } from './insight/flakyHistory.js';
import { compact } from './reads/compactAnswer.js';
import { stepLogLink } from '../output/resourceLinks.js';
import { WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';

const DEFAULT_TAIL = 50;
/** Total characters of log text returned across all failed steps. */
const LOG_BUDGET = 16_000;
const MAX_FAILED_STEPS = 10;
// The agent reports a step done before it has sent the step's last log lines: it sends
// logs in batches, the last up to a second after the step ends (maxLogFlushPeriod in
// Woodpecker's agent/rpc/client_grpc.go). A log that reads empty for a step that finished
// this recently is read again, every FRESH_LOG_POLL_MS for at most FRESH_LOG_WAIT_MS.
const FRESH_STEP_SECONDS = 30;
const FRESH_LOG_WAIT_MS = 3_000;
const FRESH_LOG_POLL_MS = 200;

/** The tail of a step's log; for a step that just finished, read again while it is empty. */
async function stepTail(
  context: HandlerContext,
  repoId: number,
  number: number,
  step: StepSummary,
  tail: number,
): Promise<{ window: ReturnType<WindowCollector['window']>; note?: string }> {
  const read = async () => {
    const collector = new WindowCollector(tail, 'tail');
    await scanStepLog(context, repoId, number, step.id, (line) => collector.add(line));
    return collector.window();
  };
  let window = await read();
  const finishedAgo = Math.round(Date.now() / 1000 - step.finished);
  // Either side of our clock: Woodpecker's may run a little ahead.
  if (
    (window.total_lines ?? 0) > 0 ||
    step.finished <= 0 ||
    Math.abs(finishedAgo) > FRESH_STEP_SECONDS
  )
    return { window };
  const deadline = Date.now() + FRESH_LOG_WAIT_MS;
  while (!window.total_lines && Date.now() < deadline) {
    await sleep(FRESH_LOG_POLL_MS, undefined, { signal: context.signal });
    window = await read();
  }
  if ((window.total_lines ?? 0) > 0) return { window };
  return {
    window,
    note: `The log reads empty: the step finished ${Math.max(0, finishedAgo)} s ago and Woodpecker may still be storing its last lines (the agent sends them up to a few seconds late). Call again shortly; an empty log then is the step's own.`,
  };
}

export const getPipelineFailure: HandlerOf<'get_pipeline_failure'> = async (context) => {
  const { repo_id: repoId, number } = context.args;
  const tail = typeof context.args.tail_lines === 'number' ? context.args.tail_lines : DEFAULT_TAIL;
  const pipeline = await readPipeline(context, repoId, number);
  const status = pipelineStatus(pipeline);
  const workflows = workflowsOf(pipeline);

  if (!FAILED_STATES.has(status)) {
    // A blocked pipeline does not run until someone approves it: waiting would not help.
    const summary =
      status === 'blocked'
        ? `Pipeline ${String(number)} has not run: it is blocked, waiting for approval. approve_pipeline lets it run, decline_pipeline refuses it; nothing can have failed yet.`
        : RUNNING_STATES.has(status)
          ? `Pipeline ${String(number)} has not finished (status ${status}); wait_for_pipeline waits for it.`
          : KNOWN_STATES.has(status)
            ? `Pipeline ${String(number)} did not fail: its status is ${status}.`
            : `Pipeline ${String(number)} has status ${status}, which none of the Woodpecker releases this server was checked against uses (a newer release?): it is not counted as failed. get_pipeline shows its workflows and steps.`;
    return { data: { repo_id: repoId, number, status, failed: false, summary, failed_steps: [] } };
  }

  const failedWorkflows = workflows.filter(
    (workflow) => FAILED_STATES.has(workflow.state) || workflow.error,
  );
  const failedSteps = workflows
    .flatMap((workflow) => workflow.steps)
    .filter((step) => FAILED_STATES.has(step.state));
  let budget = LOG_BUDGET;
  const reported = [];
  for (const step of failedSteps.slice(0, MAX_FAILED_STEPS)) {
    const { window, note } = await stepTail(context, repoId, number, step, tail);
    const kept: LogLine[] = [];
    for (const line of [...window.lines].reverse()) {
      if (budget - line.text.length < 0) break;
      budget -= line.text.length;
      kept.unshift(line);
    }
    // The tail's texts alone, numbered from its first line (as get_step_logs numbers them).
    const { first_line, lines, line_numbers } = linesAnswer(kept);
    reported.push({
      step_id: step.id,
      name: step.name,
      workflow: step.workflow,
      state: step.state,
      exit_code: step.exit_code,
      error: step.error || undefined,
      total_lines: window.total_lines,
      first_line,
      log_tail: lines,
      line_numbers,
      log_tail_truncated: kept.length < (window.total_lines ?? 0),
      log_note: note,
    });
  }
  // The failure itself is the answer; history that cannot be read is said, not fatal.
  const unreadable = (error: unknown) => {
    if (error instanceof WoodpeckerHttpError)
      return { note: `The pipeline history could not be read (HTTP ${error.status}).` };
    throw error;
  };
  const since = await sinceGreen(context, repoId, pipeline).catch((error: unknown) => ({
    last_success: null,
    ...unreadable(error),
  }));
  const history: Record<string, unknown> = await flakyHistory(
    context,
    repoId,
    pipeline as Record<string, unknown>,
    failedSteps,
  ).catch(unreadable);
  const flaky = compact(history);
  // Judged by the commit's final attempt: a failure that already went green says so first.
  const passedLater = (history.passed_on_later_attempt as PassedLater[] | undefined) ?? [];
  const finalAttempt = history.final_attempt as { number: number; status: string } | undefined;
  const laterOf = (step: { name: string; workflow: string }) =>
    passedLater.find((later) => later.name === step.name && later.workflow === step.workflow)
      ?.passed_in;
  const later =
    finalAttempt === undefined
      ? ''
      : ` The commit ran again; its final attempt, pipeline ${finalAttempt.number}, ended ${finalAttempt.status}${passedLater.length ? `, and ${passedLater.map((step) => `step ${step.name}`).join(', ')} passed on a later attempt` : ''}.`;
  const summary =
    failedSteps.length === 0
      ? `Pipeline ${String(number)} ended ${status} without a failed step${failedWorkflows.some((w) => w.error) ? ' (a workflow reported an error, see workflows)' : ''}.`
      : `Pipeline ${String(number)} ended ${status}: ${failedSteps.map((step) => `step ${step.name} (id ${step.id}, exit code ${step.exit_code})`).join(', ')} failed.${later}`;
  return {
    // No null errors, no empty lists, no zero more_* counts: a model pays for each.
    data: compact({
      repo_id: repoId,
      number,
      status,
      failed: true,
      summary,
      errors: (pipeline as { errors?: unknown } | undefined)?.errors ?? undefined,
      workflows: failedWorkflows.map((workflow) => ({
        name: workflow.name,
        state: workflow.state,
        error: workflow.error || undefined,
      })),
      failed_steps: reported.map((step) => ({ ...step, passed_later: laterOf(step) })),
      more_failed_steps: Math.max(0, failedSteps.length - MAX_FAILED_STEPS),
      since_green: since,
      flaky,
      note: UNTRUSTED_NOTE,
    }),
    // A tail that leaves lines out links the whole log, for a client to read when needed.
    links: reported
      .filter((step) => step.log_tail_truncated)
      .map((step) => stepLogLink(repoId, number, step.step_id, step.name)),
    shortenable: { field: 'failed_steps', keep: 'start', narrow: 'a smaller tail_lines' },
  };
};
