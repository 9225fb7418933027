// The facts of a pipeline that the insight handlers decide by (since_green, the flaky
// evidence, compare_pipelines), read once from Woodpecker's answer and typed by its spec:
// numbers as numbers, a missing field as its empty value, a status a newer release adds
// kept as sent. The handlers decide by these fields instead of coercing the raw object;
// the steps inside its workflows are read through stepsOf (pipelineSteps.ts), and
// compare_pipelines still shows a few of Woodpecker's fields as sent (its outline).
import type { components } from '../../../generated/woodpecker-api.js';

/** A pipeline as the pinned release's spec describes it; every field may be missing. */
export type WoodpeckerPipeline = components['schemas']['Pipeline'];

export interface PipelineFacts {
  readonly number: number;
  /** Woodpecker's status as sent: an unknown one (a newer release) is kept, not guessed. */
  readonly status: string;
  readonly commit: string;
  readonly branch: string;
  readonly event: string;
  readonly ref: string;
  /** The pipeline a restart re-ran; 0 for one started any other way. */
  readonly parent: number;
  readonly author: string;
  readonly message: string;
  readonly changed_files: readonly string[];
  /** Woodpecker's whole answer, for what is read from its workflows and variables. */
  readonly answer: WoodpeckerPipeline;
}

/** A string field as sent, or '' where it is missing or of another type. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** A number field as sent, or 0 where it is missing or of another type. */
export const whole = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/** Reads the facts from a pipeline object of any release; anything else reads as empty. */
export function pipelineFacts(answer: unknown): PipelineFacts {
  const pipeline: WoodpeckerPipeline =
    typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? (answer as WoodpeckerPipeline)
      : {};
  const files = Array.isArray(pipeline.changed_files) ? pipeline.changed_files : [];
  return {
    number: whole(pipeline.number),
    status: text(pipeline.status),
    commit: text(pipeline.commit),
    branch: text(pipeline.branch),
    event: text(pipeline.event),
    ref: text(pipeline.ref),
    parent: whole(pipeline.parent),
    author: text(pipeline.author),
    message: text(pipeline.message),
    changed_files: files.filter((file): file is string => typeof file === 'string'),
    answer: pipeline,
  };
}

/** A list answer's pipelines, each read once; an answer that is not a list reads as none. */
export function pipelineList(answer: unknown): PipelineFacts[] {
  return Array.isArray(answer) ? answer.map(pipelineFacts) : [];
}
