// One line of the bench's table: a figure, what it was compared with, and whether it met
// its goal. A figure without a goal is reported only.
export interface Row {
  readonly figure: string;
  readonly subject: string;
  readonly baseline: string;
  readonly result: string;
  readonly goal: string;
  /** undefined: reported only; false makes the bench exit non-zero. */
  readonly met: boolean | undefined;
}

export function verdict(met: boolean | undefined): string {
  return met === undefined ? 'reported' : met ? 'met' : 'MISSED';
}
