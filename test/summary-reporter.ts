import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';

/**
 * Prints `N passed, N failed` as the very last line of a run, for CI to read, and before it
 * the slowest test files, so a run that took long says where the time went.
 *
 * Only a test that ran and passed counts as passed. Skipped and todo tests count as failed
 * (a skipped test in our CI is a test that did not prove anything), and so does every
 * test file that failed to load and every unhandled error. A run that failed without any
 * failing test (for example the global setup could not start Woodpecker) counts as one
 * failure, so CI never mistakes a crash for a quiet success.
 *
 * Vitest prints some errors after the run has ended, so in `vitest run` the line is written
 * when the process exits; in watch mode it is written at the end of every run.
 */
export default class SummaryReporter implements Reporter {
  private summary = '0 passed, 1 failed';
  private watchMode = false;

  onInit(vitest: Vitest): void {
    this.watchMode = vitest.config.watch;
    if (!this.watchMode) process.once('exit', () => process.stdout.write(`\n${this.summary}\n`));
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const testModule of testModules) {
      if (testModule.errors().length > 0) failed++;
      for (const testCase of testModule.children.allTests()) {
        if (testCase.result().state === 'passed') passed++;
        else failed++;
      }
    }
    if (reason !== 'passed' && failed === 0) failed = 1;
    if (testModules.length > 1) process.stdout.write(slowestFiles(testModules));
    this.summary = `${passed} passed, ${failed} failed`;
    if (this.watchMode) process.stdout.write(`\n${this.summary}\n`);
  }
}

const SLOWEST_SHOWN = 8;

/** The files that took longest (import, setup and tests), one per line. */
function slowestFiles(testModules: ReadonlyArray<TestModule>): string {
  const timed = testModules.map((testModule) => {
    const diagnostic = testModule.diagnostic();
    const ms = diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration;
    return { file: testModule.relativeModuleId, ms };
  });
  const all = timed.reduce((sum, entry) => sum + entry.ms, 0);
  const lines = timed
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST_SHOWN)
    .map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
  return `\nslowest of ${timed.length} test files (${(all / 1000).toFixed(0)} s in all):\n${lines.join('\n')}\n`;
}
