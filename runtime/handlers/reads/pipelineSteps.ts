// A pipeline as Woodpecker returns it nests steps inside workflows
// (`workflows[].children[]`). Handlers that look at steps read them through here.
import { pipelineFacts, text, whole } from './pipelineFacts.js';

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

export function workflowsOf(pipeline: unknown): WorkflowSummary[] {
  const { workflows } = pipelineFacts(pipeline).answer;
  if (!Array.isArray(workflows)) return [];
  return workflows.filter(isObject).map((workflow) => {
    const name = text(workflow.name);
    const children = Array.isArray(workflow.children) ? workflow.children.filter(isObject) : [];
    return {
      name,
      state: text(workflow.state),
      error: text(workflow.error),
      steps: children.map((step) => ({
        id: whole(step.id),
        pid: whole(step.pid),
        name: text(step.name),
        state: text(step.state),
        exit_code: whole(step.exit_code),
        error: text(step.error),
        workflow: name,
        type: text(step.type),
        started: whole(step.started),
        finished: whole(step.finished),
      })),
    };
  });
}

/** A workflow or step that is an object; a null or a number in the list is no workflow. */
const isObject = <T>(value: T): value is T & object => typeof value === 'object' && value !== null;

export function stepsOf(pipeline: unknown): StepSummary[] {
  return workflowsOf(pipeline).flatMap((workflow) => workflow.steps);
}

export function pipelineStatus(pipeline: unknown): string {
  return pipelineFacts(pipeline).status || 'unknown';
}
