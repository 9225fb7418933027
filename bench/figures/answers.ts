// What an answer costs a model: o200k tokens of the server's answers to real Woodpecker
// answers (test/answers/captured.json, bench/answerCost.ts) against Woodpecker's compact
// JSON of the same data. Deterministic, so these are absolute numbers.
import type { Row } from '../row.js';

/** The goals of docs/performance.md: the sum, and each answer (a few small ones excepted). */
export const ANSWER_GOALS = { sum: 0.5, each: 0.7 } as const;

export async function answerTokens(): Promise<Row[]> {
  const { costOf, loadCaptured, measuredAnswers, MOST_USED, ROWS_MEASURED, rowsCostOf, TASKS } =
    await import('../answerCost.js');
  const captured = loadCaptured();
  const all = await Promise.all(measuredAnswers(captured).map(costOf));
  const mostUsed = all.filter((cost) => (MOST_USED as readonly string[]).includes(cost.tool));
  const rows: Row[] = [];
  // The goal is set for the most used tools; every tool with a view is reported beside them.
  for (const [label, table, goal] of [
    [`the ${mostUsed.length} most used read tools`, mostUsed, true],
    [`all ${all.length} read tools measured`, all, false],
  ] as const) {
    const now = table.reduce((sum, cost) => sum + cost.now, 0);
    const woodpecker = table.reduce((sum, cost) => sum + cost.woodpecker, 0);
    const worst = [...table].sort((a, b) => b.ratio - a.ratio)[0]!;
    rows.push({
      figure: `answer tokens, ${label}`,
      subject: `${now} tokens (o200k); the most, ${worst.tool}: ${worst.ratio}×`,
      baseline: `Woodpecker ${captured.woodpeckerVersion}'s compact JSON: ${woodpecker} tokens`,
      result: `${(now / woodpecker).toFixed(2)}×`,
      goal: goal ? `≤ ${ANSWER_GOALS.sum}×` : 'reported',
      met: goal ? now / woodpecker <= ANSWER_GOALS.sum : undefined,
    });
  }
  const byKey = new Map(captured.answers.map((answer) => [answer.key, answer] as const));
  for (const [task, keys] of Object.entries(TASKS)) {
    const parts = await Promise.all(keys.map((key) => costOf(byKey.get(key)!)));
    rows.push({
      figure: `task "${task}"`,
      subject: `${parts.reduce((s, p) => s + p.now, 0)} tokens of tool results`,
      baseline: `before views: ${parts.reduce((s, p) => s + p.before, 0)} tokens`,
      result: `${(parts.reduce((s, p) => s + p.now, 0) / parts.reduce((s, p) => s + p.before, 0)).toFixed(2)}×`,
      goal: 'reported',
      met: undefined,
    });
  }
  // Lists as rows (docs/performance.md, "Lists as rows"): measured, not adopted.
  const lists = await Promise.all(ROWS_MEASURED.map((key) => rowsCostOf(byKey.get(key)!)));
  const total = (key: 'json' | 'lines' | 'csv') => lists.reduce((s, l) => s + l[key], 0);
  rows.push({
    figure: `lists as rows (${ROWS_MEASURED.join(', ')})`,
    subject: `header + JSON array a row: ${total('lines')} tokens; CSV: ${total('csv')}`,
    baseline: `JSON objects (today): ${total('json')} tokens`,
    result: `${(total('lines') / total('json')).toFixed(2)}×, CSV ${(total('csv') / total('json')).toFixed(2)}×`,
    goal: 'reported',
    met: undefined,
  });
  return rows;
}
