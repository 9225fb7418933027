// npm run demo: a local Woodpecker (the test harness's stack: forge stand-in, server and
// agent on free loopback ports) filled with sample data, the server built as a client runs
// it, and ready commands and configurations to paste, so every tool can be tried without
// touching a real CI. `npm run demo -- --help` lists the options (scripts/demo/options.ts).
//
// Ctrl-C (SIGINT) or SIGTERM at any point stops whatever is running (a download, a source
// build, the stack's processes) and removes everything the demo made, then exits 130 or
// 143; an error does the same and exits 1. Each demo's Woodpecker has a new address and new
// tokens; the stdio configurations it prints name neither: they start the server with
// `node --env-file=<file>`, and every demo rewrites that file.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from './build.js';
import { envFileProblem, writeEnvFile } from './demo/envFile.js';
import { getWoodpecker, ROUTE_NAMES } from './demo/getWoodpecker.js';
import { parseDemoOptions, USAGE, UsageError, type DemoOptions } from './demo/options.js';
import { readyText } from './demo/readyText.js';
import { fillDemo } from '../test/harness/demoData.js';
import { useStack } from '../test/harness/fixtures.js';
import { harnessInfoOf, startStack, type Stack } from '../test/harness/stack.js';
import {
  normalizeTag,
  pinnedWoodpeckerTag,
  woodpeckerCacheDir,
} from '../test/harness/woodpecker-binaries.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

let options: DemoOptions;
try {
  const parsed = parseDemoOptions(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  options = parsed;
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`demo: ${error.message}\n`);
  process.exit(2);
}
const envFile = options.envFile ?? join(woodpeckerCacheDir(), 'demo.env');
// Refused before anything starts: nothing to clean up yet.
const envProblem = envFileProblem(envFile);
if (envProblem) {
  process.stderr.write(`demo: ${envProblem}\n`);
  process.exit(2);
}

// --- stopping ------------------------------------------------------------------------
const stopping = new AbortController();
let stack: Stack | undefined;
/** The step under way before the stack exists; a stop waits for it to give up. */
let starting: Promise<unknown> = Promise.resolve();
const step = <T>(promise: Promise<T>): Promise<T> => {
  starting = promise.catch(() => undefined);
  return promise;
};
let cleaning: Promise<void> | undefined;
/** Stops everything and removes the stack's directory; once, whoever asks first. */
const cleanUp = (): Promise<void> =>
  (cleaning ??= (async () => {
    // A running stack is stopped at once (a fill still under way fails against it);
    // before that, the step under way stops on the abort and cleans up after itself.
    if (!stack) await starting;
    await stack?.stop();
  })());
const exitAfterCleanUp = (code: number) => void cleanUp().finally(() => process.exit(code));

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.on(signal, () => {
    if (stopping.signal.aborted) {
      say(`demo: still removing what it made (${signal} again ignored)…`);
      return;
    }
    say(`\ndemo: ${signal}: stopping Woodpecker and removing everything the demo made…`);
    stopping.abort(new Error(`stopped by ${signal}`));
    exitAfterCleanUp(code);
  });
}
const fail = (error: unknown) => {
  if (stopping.signal.aborted) return; // the signal's handler is cleaning up and exits
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  stopping.abort(error);
  exitAfterCleanUp(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

// --- the demo ------------------------------------------------------------------------
const started = Date.now();
const version = process.env.WOODPECKER_TEST_VERSION;
const tag = normalizeTag(version ?? pinnedWoodpeckerTag());
try {
  const { route } = await step(
    getWoodpecker({ tag, srcDir: options.srcDir, signal: stopping.signal, say }),
  );
  stopping.signal.throwIfAborted();
  say('Building the server (esbuild, into dist/)…');
  await step(buildPackage(undefined, { typeCheck: false }));
  stopping.signal.throwIfAborted();
  say('Starting a local Woodpecker (forge stand-in, server, agent)…');
  stack = await step(startStack({ version: tag, signal: stopping.signal }));
  const info = harnessInfoOf(stack);
  useStack(info);
  const filling = Date.now();
  say('Filling it with sample repositories and pipelines (real pipelines on the local agent)…');
  const demo = await fillDemo();
  stopping.signal.throwIfAborted();
  say(`  filled in ${seconds(filling)}`);

  // The admin token of this throwaway Woodpecker, readable by this user only; the next
  // demo overwrites it. Not through a link planted there since the check at start.
  writeEnvFile(envFile, `WOODPECKER_URL=${info.url}\nWOODPECKER_TOKEN=${info.adminToken}\n`);
  process.stdout.write(readyText({ root: ROOT, envFile, port: options.port, info, demo }));
  say(`Ready in ${seconds(started)}; Woodpecker came from ${ROUTE_NAMES[route]}.`);
  say(
    `Ctrl-C stops Woodpecker and removes everything the demo made (its files are in ${info.dir}).`,
  );
  // Keep running until a signal arrives.
  setInterval(() => undefined, 1 << 30);
} catch (error) {
  fail(error);
}
