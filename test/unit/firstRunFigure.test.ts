// The first-run figure (issue 35: `npm ci && npm run demo` ready in under 60 s with a warm
// npm cache and the release served from loopback) is one figure: the bench measures it
// (bench/figures/firstRun.ts), docs/performance.md's last run holds the row, and the
// README states that row's seconds. `npm run docs:figures` rewrites the README from the row.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FIRST_RUN_FIGURE,
  FIRST_RUN_GOAL_SECONDS,
  firstRunGoal,
  firstRunReadmeFigure,
  measuredFirstRunSeconds,
} from '../../bench/firstRunFigure.js';
import { figuresToRun } from '../../bench/figureList.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the first-run figure', () => {
  const performance = read('docs/performance.md');

  it("docs/performance.md's last run has one first-run row, with the goal and verdict the bench gives it", () => {
    const rows = performance
      .split('\n')
      .filter((line) => line.startsWith(`| ${FIRST_RUN_FIGURE} |`));
    expect(rows).toHaveLength(1);
    const cells = rows[0]!.split('|').map((cell) => cell.trim());
    const seconds = measuredFirstRunSeconds(performance);
    expect(cells[5]).toBe(firstRunGoal());
    expect(cells[6]).toBe(seconds < FIRST_RUN_GOAL_SECONDS ? 'met' : 'MISSED');
  });

  it("the goals table states the bench's goal", () => {
    expect(performance).toMatch(
      new RegExp(`^\\| first run \\|.*\\| ${firstRunGoal()} \\(issue 35\\) \\|$`, 'm'),
    );
  });

  it("README states the measured row's seconds", () => {
    const seconds = measuredFirstRunSeconds(performance);
    expect(read('README.md')).toContain(firstRunReadmeFigure(seconds));
  });

  it('reads the seconds from the row, not from elsewhere', () => {
    const row = `| ${FIRST_RUN_FIGURE} | empty cache; demo 30.0 s | npm ci alone: 10.0 s | ready in 41.6 s | under 60 s | met |`;
    expect(measuredFirstRunSeconds(`text\n${row}\nmore`)).toBe(41.6);
    expect(firstRunReadmeFigure(41.6)).toMatch(/^42 s for/);
    expect(() => measuredFirstRunSeconds('no row here')).toThrow(/first run/);
  });

  it('`npm run bench -- --check` measures the first run against its goal', () => {
    expect(figuresToRun(['--check']).only.has('first-run')).toBe(true);
    expect(figuresToRun(['--only', 'first-run']).only).toEqual(new Set(['first-run']));
  });
});
