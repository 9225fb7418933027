// Every stage: Every refusal of the generator has the same shape, so a person can jump to the line:
//   tools.yaml:<line>: <tool>: <field>: <what is wrong and how to fix it>
import { fieldPath as pathOf } from '../runtime/core/yamlPlaces.js';

export interface Problem {
  readonly line: number;
  readonly tool: string;
  readonly field: string;
  readonly message: string;
}

export function formatProblem(file: string, problem: Problem): string {
  return `${file}:${problem.line}: ${problem.tool}: ${problem.field}: ${problem.message}`;
}

/** Thrown when the manifest (or the spec check) refuses; the CLI prints it without a stack. */
export class ManifestError extends Error {
  readonly problems: readonly Problem[];
  readonly file: string;

  constructor(file: string, problems: readonly Problem[]) {
    const lines = problems.map((problem) => formatProblem(file, problem));
    super(lines.join('\n'));
    this.name = 'ManifestError';
    this.file = file;
    this.problems = problems;
  }
}

/** Field paths as people write them: calls[0].body.trusted.network; (entry) for a whole entry. */
export function fieldPath(segments: readonly (string | number)[]): string {
  return pathOf(segments) || '(entry)';
}
