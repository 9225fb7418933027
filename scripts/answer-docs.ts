// Rewrites the measured blocks of docs/performance.md ("What an answer costs" and "Lists as
// rows") from test/answers/captured.json through today's views. Run it after changing a
// view; test/unit/output/answerCost.test.ts fails while the page and the figures differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { answerCostTables, loadCaptured, rowsTable } from '../bench/answerCost.js';

const page = new URL('../docs/performance.md', import.meta.url);
const captured = loadCaptured();
const blocks = {
  'answer-cost': await answerCostTables(captured),
  'answer-rows': await rowsTable(captured),
};
let text = readFileSync(page, 'utf8');
for (const [name, body] of Object.entries(blocks)) {
  const pattern = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(\\n<!-- ${name}:end -->)`);
  if (!pattern.test(text)) throw new Error(`docs/performance.md has no ${name} block`);
  text = text.replace(pattern, (_all, start: string, end: string) => start + body + end);
}
writeFileSync(page, text);
console.log('docs/performance.md: answer-cost and answer-rows blocks rewritten');
