// `npm run bench`: every figure a user feels, each against a baseline measured in the
// same run (the machines are noisy; medians and ratios travel, absolute numbers do not).
// Prints a Markdown table (docs/performance.md holds the last one) and exits 1 when a
// goal is missed, so it can run as a check. No timing assertion is in the test suite.
//
//   npm run bench                          everything (about 5 minutes on 2 cores)
//   npm run bench -- --only logs,per-call  some figures: micro, per-call, cold-start, logs,
//                                          throughput, guarded, tokens, answers, go-sdk,
//                                          first-run
//   npm run bench -- --quick               fewer rounds, for trying a change
//   npm run bench -- --check               the figures a change to start-up, the tool list
//                                          or the demo is checked against (cold-start,
//                                          tokens, first-run; a few minutes), exit 1 on a
//                                          missed goal (the first run's: under 60 s)
// The goals are committed beside each figure (bench/figures/*.ts, GOAL_*; the first run's
// in bench/firstRunFigure.ts, which the README's figure is held to).
// The tool list's tokens (tokens) are deterministic: absolute numbers, each preset against
// its budget (bench/toolListCost.ts), and every toolset reported.
import { cpus, loadavg } from 'node:os';
import { coldStart } from './figures/coldStart.js';
import { guardedRoundTrip } from './figures/guarded.js';
import { logFigures } from './figures/logs.js';
import { gateSealing, logSearchEngine } from './figures/micro.js';
import { perCallOverhead } from './figures/perCall.js';
import { throughput } from './figures/throughput.js';
import { toolListTokens } from './figures/tokens.js';
import { answerTokens } from './figures/answers.js';
import { goSdkConnects } from './figures/goSdk.js';
import { firstRun } from './figures/firstRun.js';
import { figuresToRun } from './figureList.js';
import { verdict, type Row } from './row.js';
import { buildDist } from './serverProcess.js';
import { startWoodpecker, stopWoodpecker } from './woodpecker.js';
import { woodpeckerBinaries } from '../test/harness/woodpecker-binaries.js';

/** The release with the plain-text log download (GET …/logs/{n}/{step}/download). */
const NEXT_RELEASE = 'main-a4cb541';

function table(rows: readonly Row[]): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| figure | measured | baseline in the same run | result | goal | |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${[row.figure, row.subject, row.baseline, row.result, row.goal, verdict(row.met)].map(escape).join(' | ')} |`,
    ),
  ].join('\n');
}

async function main(): Promise<number> {
  const { only, quick } = figuresToRun(process.argv.slice(2));
  const rows: Row[] = [];
  const report = (more: Row[]) => {
    rows.push(...more);
    for (const row of more)
      process.stderr.write(`  ${row.figure}: ${row.result} (${verdict(row.met)})\n`);
  };
  process.stderr.write(
    `bench: Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}\n`,
  );
  await buildDist();
  if (only.has('micro')) report([...(await logSearchEngine()), ...(await gateSealing())]);
  // Needs no Woodpecker: the list is the server's own.
  if (only.has('tokens')) report(await toolListTokens());
  if (only.has('answers')) report(await answerTokens());
  // Needs no Woodpecker either: connecting and tools/list are the server's own.
  if (only.has('go-sdk')) report(await goSdkConnects(quick ? 3 : undefined));
  // Its own clone, Woodpecker and release stand-in.
  if (only.has('first-run')) report(await firstRun());

  const needsPinned = (['per-call', 'cold-start', 'logs', 'throughput', 'guarded'] as const).some(
    (name) => only.has(name),
  );
  if (needsPinned) {
    const woodpecker = await startWoodpecker();
    const release = woodpecker.stack.version;
    try {
      if (only.has('per-call')) report(await perCallOverhead(woodpecker, quick ? 200 : undefined));
      if (only.has('cold-start')) report(await coldStart(woodpecker.url, quick ? 5 : undefined));
      if (only.has('logs')) report(await logFigures(woodpecker, release, quick ? 3 : undefined));
      if (only.has('throughput')) report(await throughput(woodpecker, 50, quick ? 40 : undefined));
      if (only.has('guarded')) report(await guardedRoundTrip(woodpecker, quick ? 10 : undefined));
    } finally {
      await stopWoodpecker(woodpecker);
    }
  }
  if (only.has('logs')) {
    let hasNext = true;
    try {
      woodpeckerBinaries(NEXT_RELEASE);
    } catch {
      hasNext = false;
      process.stderr.write(
        `bench: no ${NEXT_RELEASE} build (npm run woodpecker:build -- ${NEXT_RELEASE}); the plain-text log path is not measured\n`,
      );
    }
    if (hasNext) {
      const next = await startWoodpecker(NEXT_RELEASE);
      try {
        report(await logFigures(next, next.stack.version, quick ? 3 : undefined));
      } finally {
        await stopWoodpecker(next);
      }
    }
  }

  process.stdout.write(`${table(rows)}\n`);
  const missed = rows.filter((row) => row.met === false);
  process.stderr.write(
    missed.length === 0
      ? 'bench: every goal met\n'
      : `bench: ${missed.length} goal(s) missed: ${missed.map((row) => row.figure).join('; ')}\n`,
  );
  return missed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
