// Rewrites the figures the docs state that do not depend on the machine, from the code and
// the captured answers: in docs/performance.md the measured blocks ("What an answer
// costs", "Lists as rows") and the tool-list and answer-token rows of "Last run"; in
// docs/configuration.md the tool-list presets' counts and tokens; the per-tool tokens
// doctor adds up (runtime/process/listedToolTokens.json); and the README's answer figure
// and first-run seconds (the latter copied from docs/performance.md's measured row). Run it after changing a
// description, a view or the captures; the unit tests fail while a figure and the code differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { answerCostTables, loadCaptured, rowsTable } from '../bench/answerCost.js';
import { answerTokens } from '../bench/figures/answers.js';
import { toolListTokens } from '../bench/figures/tokens.js';
import { verdict, type Row } from '../bench/row.js';
import { measureToolList, PRESETS } from '../bench/toolListCost.js';
import { measuredListedTokens } from '../bench/listedToolTokens.js';
import { firstRunReadmeFigure, measuredFirstRunSeconds } from '../bench/firstRunFigure.js';

const file = (name: string) => new URL(`../docs/${name}`, import.meta.url);
const captured = loadCaptured();

function replaceOnce(text: string, pattern: RegExp, by: string, what: string): string {
  const found = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`));
  if (found?.length !== 1) throw new Error(`expected one ${what}, found ${found?.length ?? 0}`);
  return text.replace(pattern, () => by);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const rowLine = (row: Row) =>
  `| ${row.figure} | ${row.subject} | ${row.baseline} | ${row.result} | ${row.goal} | ${verdict(row.met)} |`;

let performance = readFileSync(file('performance.md'), 'utf8');
for (const [name, body] of Object.entries({
  'answer-cost': await answerCostTables(captured),
  'answer-rows': await rowsTable(captured),
})) {
  performance = replaceOnce(
    performance,
    new RegExp(`(?<=<!-- ${name}:start -->\\n)[\\s\\S]*?(?=\\n<!-- ${name}:end -->)`),
    body,
    `${name} block`,
  );
}
const presetRows = (await toolListTokens()).filter((row) => !row.figure.includes('toolset'));
const answerRows = (await answerTokens()).filter((row) => row.figure.startsWith('answer tokens'));
for (const row of [...presetRows, ...answerRows])
  performance = replaceOnce(
    performance,
    new RegExp(`^\\| ${escaped(row.figure)} \\|.*$`, 'm'),
    rowLine(row),
    `"Last run" row ${row.figure}`,
  );
writeFileSync(file('performance.md'), performance);

// configuration.md names the presets with backticks and "(default)".
const presetNames: Record<keyof typeof PRESETS, string> = {
  all: 'all (default)',
  'WOODPECKER_READ_ONLY=true': '`WOODPECKER_READ_ONLY=true`',
  'WOODPECKER_ALLOW_TOOLS=essential': '`WOODPECKER_ALLOW_TOOLS=essential`',
};
const selections: [string, Record<string, string>][] = [
  ...Object.entries(PRESETS).map(
    ([preset, { env }]) =>
      [presetNames[preset as keyof typeof PRESETS], env] as [string, Record<string, string>],
  ),
  ['`WOODPECKER_DYNAMIC_TOOLS=true`, first list', { WOODPECKER_DYNAMIC_TOOLS: 'true' }],
];
let configuration = readFileSync(file('configuration.md'), 'utf8');
for (const [name, env] of selections) {
  const cost = await measureToolList(env);
  configuration = replaceOnce(
    configuration,
    new RegExp(`^(\\| ${escaped(name)} \\| )\\d+ \\| [\\d,]+( \\|)`, 'm'),
    `| ${name} | ${cost.tools} | ${cost.tokens.toLocaleString('en-US')} |`,
    `configuration.md row ${name}`,
  );
}
writeFileSync(file('configuration.md'), configuration);
writeFileSync(
  new URL('../runtime/process/listedToolTokens.json', import.meta.url),
  measuredListedTokens(),
);

// The README's answer figure (the most used read tools against Woodpecker's JSON), and
// its first-run seconds, copied from docs/performance.md's measured row (the bench's
// figure depends on the machine, so it is measured there and only copied here).
const readmeFile = new URL('../README.md', import.meta.url);
const [mostUsed] = answerRows.filter((row) => row.figure.includes('most used'));
let readme = replaceOnce(
  readFileSync(readmeFile, 'utf8'),
  /most used read tools cost [\d.]+×/,
  `most used read tools cost ${mostUsed!.result}`,
  'README answer figure',
);
readme = replaceOnce(
  readme,
  /\d+ s for `npm ci && npm run demo`/,
  firstRunReadmeFigure(measuredFirstRunSeconds(performance)),
  'README first-run figure',
);
writeFileSync(readmeFile, readme);
console.log(
  'docs/performance.md, docs/configuration.md, README.md and runtime/process/listedToolTokens.json: figures rewritten',
);
