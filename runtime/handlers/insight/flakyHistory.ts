// "Is it flaky?" for a failed pipeline: evidence, not a verdict. How the pipelines of
// its branch and event ended lately, every commit that failed and then passed when it
// ran again (a restart, linked by `parent`, or another pipeline of the same commit), and
// how each failed step ended in the latest earlier pipelines that ran it. And "is it the
// machine?": the workflows of this pipeline and of those read whole, failed and passed,
// per agent that ran them (workflows record agent_id), with each agent's name and state
// for an admin token.
// And "did it stay failed?": the later attempts of the same commit (restarts and reruns),
// newest first, read whole, so each failed step says whether it passed on a later attempt:
// a failure is judged by the commit's final attempt, not by the first.
// Bounded: FLAKY_PAGES list pages, MAX_DETAILED get_pipeline reads (later attempts and
// earlier pipelines together), 2 agent reads, TIME_LIMIT_MS; the answer says when a bound
// stopped it.
import type { HandlerContext } from '../../call/handlerContext.js';
import { lineOf, lookBack, type Raw } from './pipelineHistory.js';
import { agentFleet } from './agentFleet.js';
import { readPipeline } from '../reads/pipelineReads.js';
import { pipelineFacts, type PipelineFacts } from '../reads/pipelineFacts.js';
import { FAILED_STATES, stepsOf, type StepSummary } from '../reads/pipelineSteps.js';

/** Pages of 50 of the branch and event: the newest 100 pipelines. */
export const FLAKY_PAGES = 2;
/** Earlier pipelines read whole to see how the failed steps ended in them. */
export const MAX_DETAILED = 10;
const TIME_LIMIT_MS = 15_000;
const MAX_LISTED = 20;
const MAX_COMMITS = 10;
/** Later attempts of the same commit read whole (of MAX_DETAILED). */
const MAX_LATER_ATTEMPTS = 3;

/** A failed step that passed on a later attempt of the same commit. */
export interface PassedLater {
  readonly name: string;
  readonly workflow: string;
  /** The later pipelines of the same commit in which the step passed. */
  readonly passed_in: number[];
}

const finished = (pipeline: PipelineFacts) =>
  pipeline.status === 'success' || FAILED_STATES.has(pipeline.status);

export async function flakyHistory(
  context: HandlerContext,
  repoId: number,
  answer: unknown,
  failedSteps: readonly StepSummary[],
): Promise<Raw> {
  const began = Date.now();
  const pipeline = pipelineFacts(answer);
  const number = pipeline.number;
  const line = lineOf(pipeline);
  // Newer pipelines count too: a restart that passed after this failure is the best evidence.
  const looked = await lookBack(context, repoId, line, Number.MAX_SAFE_INTEGER, FLAKY_PAGES);
  const listed = looked.earlier.some((entry) => entry.number === number)
    ? looked.earlier
    : [pipeline, ...looked.earlier];
  const upToThis = listed.filter((entry) => entry.number <= number && finished(entry));
  const failed = upToThis.filter((entry) => entry.status !== 'success');

  const sameCommit = failedThenPassed(listed);
  const stopped: string[] = [];
  if (!looked.exhausted)
    stopped.push(`only the newest ${looked.searched} pipelines of this branch and event were read`);

  const keys = new Map(failedSteps.map((step) => [keyOf(step), step]));
  const outcomes = new Map<string, { failed: number[]; passed: number[] }>();
  for (const key of keys.keys()) outcomes.set(key, { failed: [], passed: [] });
  const earlier = upToThis.filter((entry) => entry.number < number);
  const machines = new AgentTally();
  machines.add(pipeline);

  // The commit's later attempts, newest (the final one) first.
  const later = listed
    .filter(
      (entry) =>
        entry.number > number &&
        finished(entry) &&
        entry.commit !== '' &&
        entry.commit === pipeline.commit,
    )
    .sort((a, b) => b.number - a.number);
  const passedLater = new Map<string, number[]>();
  let detailed = 0;
  for (const entry of later.slice(0, MAX_LATER_ATTEMPTS)) {
    const whole = await readPipeline(context, repoId, entry.number);
    detailed++;
    for (const step of stepsOf(whole))
      if (keys.has(keyOf(step)) && step.state === 'success')
        passedLater.set(keyOf(step), [...(passedLater.get(keyOf(step)) ?? []), entry.number]);
  }
  const finalAttempt = later[0];
  const passedOnLater: PassedLater[] = [...passedLater].map(([key, numbers]) => ({
    name: keys.get(key)!.name,
    workflow: keys.get(key)!.workflow,
    passed_in: numbers.sort((a, b) => a - b),
  }));

  for (const entry of earlier.slice(0, MAX_DETAILED - detailed)) {
    if (Date.now() - began > TIME_LIMIT_MS) {
      stopped.push(
        `the time limit (${TIME_LIMIT_MS / 1000} s) ended step history after ${detailed} pipelines`,
      );
      break;
    }
    const whole = await readPipeline(context, repoId, entry.number);
    detailed++;
    machines.add(pipelineFacts(whole));
    for (const step of stepsOf(whole)) {
      const outcome = outcomes.get(keyOf(step));
      if (!outcome) continue;
      if (step.state === 'success') outcome.passed.push(entry.number);
      else if (FAILED_STATES.has(step.state)) outcome.failed.push(entry.number);
    }
  }
  const steps = [...keys].map(([key, step]) => {
    const outcome = outcomes.get(key)!;
    return {
      workflow: step.workflow,
      name: step.name,
      earlier_failed: outcome.failed,
      earlier_passed: outcome.passed,
    };
  });

  const fleet = await agentFleet(context, Date.now());
  const agents = machines
    .rows()
    .map((row) => ({ ...row, ...(fleet.byId.get(row.agent_id) ?? {}) }));

  return {
    ...line,
    summary: `${laterOf(finalAttempt, later.length, passedOnLater)}${summaryOf(line, upToThis.length, failed.length, sameCommit.length, steps, detailed)} ${machinesOf(agents)}`,
    final_attempt: finalAttempt
      ? { number: finalAttempt.number, status: finalAttempt.status }
      : undefined,
    passed_on_later_attempt: passedOnLater,
    failed: failed.slice(0, MAX_LISTED).map((entry) => entry.number),
    more_failed: Math.max(0, failed.length - MAX_LISTED),
    // A count, where failed lists pipeline numbers: named so that it reads as one.
    passed_count: upToThis.length - failed.length,
    same_commit_failed_then_passed: sameCommit.slice(0, MAX_COMMITS),
    more_same_commit: Math.max(0, sameCommit.length - MAX_COMMITS),
    steps,
    agents,
    agents_note: fleet.note,
    idle_or_unseen_agents: fleet.agents?.filter((agent) => !machines.has(Number(agent.agent_id))),
    pipelines_read_whole: detailed,
    stopped_early: stopped.length ? `${stopped.join('; ')}.` : undefined,
  };
}

/** Commits with a failed pipeline and a later successful one, oldest first. */
interface FailedThenPassed {
  readonly commit: string;
  readonly failed: number[];
  readonly passed: number[];
  readonly restarts: string[];
}

function failedThenPassed(listed: readonly PipelineFacts[]): FailedThenPassed[] {
  const byCommit = new Map<string, PipelineFacts[]>();
  for (const entry of listed) {
    if (!finished(entry) || !entry.commit) continue;
    byCommit.set(entry.commit, [...(byCommit.get(entry.commit) ?? []), entry]);
  }
  const cases: FailedThenPassed[] = [];
  for (const [commit, runs] of byCommit) {
    const sorted = runs.sort((a, b) => a.number - b.number);
    const firstFailure = sorted.find((entry) => entry.status !== 'success');
    if (!firstFailure) continue;
    const laterPasses = sorted.filter(
      (entry) => entry.status === 'success' && entry.number > firstFailure.number,
    );
    if (!laterPasses.length) continue;
    cases.push({
      commit: commit.slice(0, 12),
      failed: sorted.filter((entry) => entry.status !== 'success').map((entry) => entry.number),
      passed: laterPasses.map((entry) => entry.number),
      // Restarts carry the number they restarted; other runs of the commit are reruns.
      restarts: laterPasses
        .filter((entry) => entry.parent > 0)
        .map((entry) => `${entry.parent}→${entry.number}`),
    });
  }
  return cases.sort((a, b) => a.failed[0]! - b.failed[0]!);
}

/** The sentence a reader needs first: whether the commit's final attempt undid the failure. */
function laterOf(
  finalAttempt: PipelineFacts | undefined,
  attempts: number,
  passed: readonly PassedLater[],
): string {
  if (!finalAttempt) return '';
  const head = `This commit ran again ${attempts === 1 ? 'once' : `${attempts} times`} after this pipeline; its final attempt, pipeline ${finalAttempt.number}, ended ${finalAttempt.status}`;
  if (passed.length === 0) return `${head}, and no failed step passed on a later attempt. `;
  const steps = passed.map((step) => `${step.name} (pipeline ${step.passed_in.join(', ')})`);
  return `${head}; passed on a later attempt: ${steps.join(', ')}: judge the failure by the final attempt. `;
}

function summaryOf(
  line: { branch: string; event: string },
  runs: number,
  failures: number,
  sameCommit: number,
  steps: readonly { name: string; earlier_failed: number[]; earlier_passed: number[] }[],
  detailed: number,
): string {
  const parts = [
    `${failures} of the last ${runs} finished pipelines of ${line.branch} (${line.event}) failed, this one included`,
  ];
  if (sameCommit)
    parts.push(
      `${sameCommit} commit${sameCommit === 1 ? '' : 's'} failed and then passed when run again, so the code alone did not decide the outcome (a flaky test, the machine or an outside service)`,
    );
  else parts.push('no commit failed and then passed when run again');
  for (const step of steps) {
    const ran = step.earlier_failed.length + step.earlier_passed.length;
    parts.push(
      ran
        ? `step ${step.name} failed in ${step.earlier_failed.length} of the ${ran} earlier pipelines that ran it (of ${detailed} read)`
        : `step ${step.name} ran in none of the ${detailed} earlier pipelines read`,
    );
  }
  return `${parts.join('; ')}.`;
}

const keyOf = (step: StepSummary) => `${step.workflow}/${step.name}`;

/** Finished workflows per agent: which pipelines failed on it, how many passed. */
class AgentTally {
  private readonly byAgent = new Map<number, { failed: number[]; passed: number }>();

  add(pipeline: PipelineFacts): void {
    const workflows = Array.isArray(pipeline.answer.workflows) ? pipeline.answer.workflows : [];
    for (const workflow of workflows) {
      const state = typeof workflow.state === 'string' ? workflow.state : '';
      if (state !== 'success' && !FAILED_STATES.has(state)) continue;
      // 0: the workflow never reached an agent (a config error, or canceled in the queue).
      const agentId = typeof workflow.agent_id === 'number' ? workflow.agent_id : 0;
      const tally = this.byAgent.get(agentId) ?? { failed: [], passed: 0 };
      const number = pipeline.number;
      if (state === 'success') tally.passed++;
      else if (!tally.failed.includes(number)) tally.failed.push(number);
      this.byAgent.set(agentId, tally);
    }
  }

  has(agentId: number): boolean {
    return this.byAgent.has(agentId);
  }

  rows() {
    return [...this.byAgent]
      .sort(([, a], [, b]) => b.failed.length - a.failed.length)
      .map(([agentId, tally]) => ({
        agent_id: agentId,
        failed: tally.failed,
        passed_count: tally.passed,
      }));
  }
}

function machinesOf(
  agents: readonly { agent_id: number; failed: number[]; passed_count: number }[],
): string {
  const parts = agents.map(
    (agent) =>
      `${agent.agent_id ? `agent ${agent.agent_id}` : 'no agent'}: ${agent.failed.length} failed${agent.failed.length ? ` (pipelines ${agent.failed.join(', ')})` : ''}, ${agent.passed_count} passed`,
  );
  return `Workflows of the pipelines read, by agent: ${parts.join('; ')}.`;
}
