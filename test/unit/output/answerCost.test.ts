// The answers of real Woodpecker answers (test/answers/captured.json) through the output
// step: what they cost against Woodpecker's own JSON (docs/performance.md says so and is
// kept true here), and that nothing a next call needs is lost on the way.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerCostTables, costOf, loadCaptured, resultFor } from '../../../bench/answerCost.js';
import { ANSWER_GOALS } from '../../../bench/figures/answers.js';

const captured = loadCaptured();
const plain = captured.answers.filter(
  (answer) => answer.woodpecker !== undefined && !answer.label.startsWith('task:'),
);

/** Small answers above the per-answer goal, and why (docs/performance.md says the same). */
const ABOVE_EACH_GOAL = new Set(['list_crons', 'get_cron', 'lookup_organization']);

/** Fields whose values a follow-up call or a reader's next question needs. */
const KEPT = [
  'id',
  'number',
  'pid',
  'exit_code',
  'state',
  'status',
  'branch',
  'event',
  'commit',
  'author',
  'full_name',
  'name',
  'login',
  'address',
];

function valuesOf(value: unknown, key: string, into: unknown[] = []): unknown[] {
  if (Array.isArray(value)) value.forEach((entry) => valuesOf(entry, key, into));
  else if (value !== null && typeof value === 'object')
    for (const [name, child] of Object.entries(value)) {
      if (name === key && child !== '' && child !== 0 && child !== null) into.push(child);
      valuesOf(child, key, into);
    }
  return into;
}

describe('what an answer costs', () => {
  it('docs/performance.md shows the figures of the captured answers', async () => {
    const doc = readFileSync(new URL('../../../docs/performance.md', import.meta.url), 'utf8');
    const between = /<!-- answer-cost:start -->\n([\s\S]*?)\n<!-- answer-cost:end -->/.exec(doc);
    expect(between?.[1]).toBe(await answerCostTables(captured));
  });

  it(`costs at most ${ANSWER_GOALS.sum}× Woodpecker's JSON in sum, each answer at most ${ANSWER_GOALS.each}× (the named small ones at most 1×)`, async () => {
    expect(plain.length).toBeGreaterThanOrEqual(15);
    const costs = await Promise.all(plain.map(costOf));
    const sum = (key: 'now' | 'woodpecker') => costs.reduce((s, c) => s + c[key], 0);
    expect(sum('now') / sum('woodpecker')).toBeLessThanOrEqual(ANSWER_GOALS.sum);
    for (const cost of costs)
      expect(cost.now / cost.woodpecker, cost.tool).toBeLessThanOrEqual(
        ABOVE_EACH_GOAL.has(cost.tool) ? 1 : ANSWER_GOALS.each,
      );
  });

  it.each(plain.map((answer) => [answer.key, answer] as const))(
    '%s keeps every id, number, state, branch, commit and name Woodpecker gave',
    async (_key, answer) => {
      const viewed = (await resultFor(answer.tool, answer.args, answer.woodpecker))
        .structuredContent;
      // A repository's name is the end of its full_name, which the view keeps.
      const names = new Set(
        valuesOf(viewed, 'full_name').map((full) => String(full).split('/').pop()),
      );
      for (const key of KEPT) {
        const given = valuesOf(answer.woodpecker, key);
        const shown = valuesOf(viewed, key);
        if (key === 'name' && valuesOf(answer.woodpecker, 'full_name').length > 0)
          expect(
            given.filter((name) => !names.has(String(name))),
            answer.tool,
          ).toEqual([]);
        else expect(shown, `${answer.tool}: ${key}`).toEqual(given);
      }
    },
  );
});
