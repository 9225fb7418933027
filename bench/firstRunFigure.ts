// The first-run figure as one figure: its row's name and goal (the bench measures it in
// bench/figures/firstRun.ts), the seconds docs/performance.md's last run holds, and the
// README's sentence that states them. `npm run docs:figures` rewrites the README from the
// row; test/unit/firstRunFigure.test.ts fails while they differ.

/** Issue 35: ready in under 60 s with a warm npm cache and the release from loopback. */
export const FIRST_RUN_GOAL_SECONDS = 60;
export const FIRST_RUN_FIGURE = 'first run: npm ci && npm run demo, release from loopback';

export function firstRunGoal(): string {
  return `under ${FIRST_RUN_GOAL_SECONDS} s`;
}

/** The seconds of the first-run row of a docs/performance.md text ("ready in 12.9 s"). */
export function measuredFirstRunSeconds(performance: string): number {
  const row = performance.split('\n').filter((line) => line.startsWith(`| ${FIRST_RUN_FIGURE} |`));
  const seconds = row.length === 1 ? /\| ready in ([\d.]+) s \|/.exec(row[0]!)?.[1] : undefined;
  if (seconds === undefined)
    throw new Error(
      `expected one "${FIRST_RUN_FIGURE}" row with "ready in <seconds> s" in docs/performance.md, found ${row.length}`,
    );
  return Number(seconds);
}

/** The README's words for the figure, rounded to whole seconds. */
export function firstRunReadmeFigure(seconds: number): string {
  return `${Math.round(seconds)} s for \`npm ci && npm run demo\``;
}
