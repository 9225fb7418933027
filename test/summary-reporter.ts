import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints `N passed, N failed` as the very last line of a run, for CI to read.
 * Only a test that ran and passed counts as passed. Skipped and todo tests count as failed
 * (a skipped test in our CI is a test that did not prove anything), and so does every
 * test file that failed to load and every unhandled error.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const testModule of testModules) {
      if (testModule.errors().length > 0) failed++;
      for (const testCase of testModule.children.allTests()) {
        if (testCase.result().state === 'passed') passed++;
        else failed++;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
