// A pipeline as Woodpecker returns it nests steps inside workflows
// (`workflows[].children[]`). Handlers that look at steps read them through here.

export interface StepSummary {
  /** The step's database id: what the log routes take as step_id. */
  readonly id: number;
  readonly pid: number;
  readonly name: string;
  readonly state: string;
  readonly exit_code: number;
  readonly error: string;
  readonly workflow: string;
  readonly type: string;
  /** Unix seconds; 0 when the step did not start or finish. */
  readonly started: number;
  readonly finished: number;
}

export interface WorkflowSummary {
  readonly name: string;
  readonly state: string;
  readonly error: string;
  readonly steps: StepSummary[];
}

export const RUNNING_STATES = new Set(['pending', 'running', 'blocked']);
/**
 * Every pipeline and step status the tested releases use (list_pipelines' enum). A newer
 * release may add one: it is then shown as sent, counted neither as running nor failed,
 * and the answer says it is unknown.
 */
export const KNOWN_STATES: ReadonlySet<string> = new Set([
  'skipped',
  'pending',
  'running',
  'success',
  'failure',
  'killed',
  'error',
  'blocked',
  'declined',
  'created',
  'canceled',
]);

export const FAILED_STATES = new Set(['failure', 'error', 'killed', 'declined']);

type Raw = Record<string, unknown>;

export function workflowsOf(pipeline: unknown): WorkflowSummary[] {
  const workflows = (pipeline as { workflows?: unknown } | undefined)?.workflows;
  if (!Array.isArray(workflows)) return [];
  return (workflows as Raw[]).map((workflow) => {
    const name = String(workflow.name ?? '');
    const children = Array.isArray(workflow.children) ? (workflow.children as Raw[]) : [];
    return {
      name,
      state: String(workflow.state ?? ''),
      error: String(workflow.error ?? ''),
      steps: children.map((step) => ({
        id: Number(step.id),
        pid: Number(step.pid ?? 0),
        name: String(step.name ?? ''),
        state: String(step.state ?? ''),
        exit_code: Number(step.exit_code ?? 0),
        error: String(step.error ?? ''),
        workflow: name,
        type: String(step.type ?? ''),
        started: Number(step.started ?? 0),
        finished: Number(step.finished ?? 0),
      })),
    };
  });
}

export function stepsOf(pipeline: unknown): StepSummary[] {
  return workflowsOf(pipeline).flatMap((workflow) => workflow.steps);
}

export function pipelineStatus(pipeline: unknown): string {
  return String((pipeline as { status?: unknown } | undefined)?.status ?? 'unknown');
}
