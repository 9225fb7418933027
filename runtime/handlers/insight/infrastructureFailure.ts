// Whether a failed pipeline failed because of the machine rather than its code, for
// restart_pipeline's only_if_infrastructure. Evidence, from what Woodpecker records: a
// step's exit code, and a step's or workflow's error text compared with the errors
// Woodpecker's own sources store there when the machine ends a step (read in 3.11, 3.17
// and main-a4cb541: pipeline/errors/runtime.go, pipeline/const.go).
// Every failed step must look like the machine: one that exited 1 is the code's.
//
// Not counted: the state "killed" alone, which Woodpecker's model documents as "killed
// by user" (a person's cancel, not the machine); a failed image pull (a typo in the
// image name fails the same way as a registry outage); the local backend's exit code -1
// (below); and the queue's errors (server/queue/queue.go: "queue: task expired", "worker
// was kicked", "task assigned to different agent"). Those reach the agent through its
// wait for the workflow, which cancels the workflow (agent/runner.go; its runtime then
// answers ErrCancel), so Woodpecker stores "canceled", never their text, on a step or
// workflow; an expired task goes back into the queue and runs again by itself.
import { FAILED_STATES, workflowsOf, type StepSummary } from '../reads/pipelineSteps.js';

/**
 * SIGKILL (Woodpecker's ExitCodeKilled, also the kernel's OOM kill) and SIGTERM (a node
 * drained), as container backends report them. A person's cancel ends as "killed", not
 * "failure".
 */
const MACHINE_EXIT_CODES: ReadonlyMap<number, string> = new Map([
  [137, 'exit code 137: killed by SIGKILL (out of memory, or the machine stopped it)'],
  [143, 'exit code 143: stopped by SIGTERM (the agent or its node shut down)'],
]);

/**
 * Exit codes that do not say who ended the step. The local backend reports the step's
 * shell dying by any signal as -1 (Go's ProcessState.ExitCode, pipeline/backend/local/
 * local.go): the kernel's OOM kill, but as well a program the step `exec`s crashing with
 * SIGSEGV or SIGABRT, or the step killing itself (measured on the harness with `kill -KILL
 * $$`). Counting it would restart code that crashes.
 */
const UNCLEAR_EXIT_CODES: ReadonlyMap<number, string> = new Map([
  [
    -1,
    "exit code -1: the local backend's report of a death by any signal, the step's own crash as much as the machine's kill",
  ],
]);

// Errors Woodpecker stores when the machine, not the step, ended it: the workflow's error
// joins its steps' errors (pipeline/runtime), and OomError says "uuid=<step>: received oom
// kill" (pipeline/errors/runtime.go, main-a4cb541; 3.11 and 3.17 the same).
const MACHINE_ERRORS: readonly (readonly [RegExp, string])[] = [
  [/received oom kill/i, 'the kernel killed the step for memory (OOM)'],
];

export interface StepVerdict {
  readonly name: string;
  readonly state: string;
  readonly exit_code: number;
  /** Why it looks like the machine; undefined when it looks like the code. */
  readonly machine?: string;
  /** Why its exit code does not tell (exit code -1), when it does not look like the machine. */
  readonly unclear?: string;
}

export interface InfrastructureVerdict {
  /** Every failure found looks like the machine. */
  readonly infrastructure: boolean;
  readonly reason: string;
  readonly failed_steps: readonly StepVerdict[];
}

/** Why a step's record cannot say who ended it, when it cannot. */
function unclearReason(step: StepSummary): string | undefined {
  // Before 3.14 Woodpecker stored a step that exited 137 as "killed" (server/pipeline/
  // step_status.go, 3.11), the state a person's cancel leaves: the two look the same.
  if (step.state === 'killed' && MACHINE_EXIT_CODES.has(step.exit_code))
    return `exit code ${step.exit_code} with the state killed, which Woodpecker before 3.14 stores for the machine's kill and for a person's cancel alike`;
  return UNCLEAR_EXIT_CODES.get(step.exit_code);
}

function machineReason(step: StepSummary, workflowError: string): string | undefined {
  // The state "killed" is a person's cancel, whatever code the killed process left.
  const byCode = step.state === 'killed' ? undefined : MACHINE_EXIT_CODES.get(step.exit_code);
  if (byCode) return byCode;
  for (const text of [step.error, workflowError])
    for (const [pattern, reason] of MACHINE_ERRORS) if (pattern.test(text)) return reason;
  return undefined;
}

export function infrastructureVerdict(pipeline: unknown): InfrastructureVerdict {
  const workflows = workflowsOf(pipeline);
  const failed: StepVerdict[] = [];
  const workflowReasons: string[] = [];
  for (const workflow of workflows) {
    const steps = workflow.steps.filter((step) => FAILED_STATES.has(step.state));
    for (const step of steps) {
      const machine = machineReason(step, workflow.error);
      const unclear = machine ? undefined : unclearReason(step);
      failed.push({
        name: step.name,
        state: step.state,
        exit_code: step.exit_code,
        ...(machine ? { machine } : {}),
        ...(unclear ? { unclear } : {}),
      });
    }
    // A workflow that failed before any step did (its agent vanished while it started).
    if (steps.length === 0 && FAILED_STATES.has(workflow.state)) {
      const reason = MACHINE_ERRORS.find(([pattern]) => pattern.test(workflow.error))?.[1];
      if (reason) workflowReasons.push(`workflow ${workflow.name}: ${reason}`);
      else
        failed.push({
          name: `workflow ${workflow.name}`,
          state: workflow.state,
          exit_code: 0,
        });
    }
  }
  const code = failed.filter((step) => step.machine === undefined);
  if (failed.length === 0 && workflowReasons.length === 0)
    return {
      infrastructure: false,
      reason: 'no failed step or workflow was found, so nothing points at the machine',
      failed_steps: failed,
    };
  if (code.length > 0)
    return {
      infrastructure: false,
      reason: `${code.map((step) => `${step.name} (${step.state}, ${step.unclear ?? `exit code ${step.exit_code}`})`).join(', ')} failed in a way that ${code.every((step) => step.unclear) ? 'does not show the machine broke it' : 'points at the code, not the machine'}`,
      failed_steps: failed,
    };
  const reasons = [...failed.map((step) => `${step.name}: ${step.machine}`), ...workflowReasons];
  return {
    infrastructure: true,
    reason: `every failure points at the machine: ${reasons.join('; ')}`,
    failed_steps: failed,
  };
}
