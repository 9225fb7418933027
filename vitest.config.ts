import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/generator/**/*.test.ts'],
          // Generator tests run prettier and tsc; several engineers share 2 cores, so a
          // 5 s default fails on load, not on a fault.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // One real Woodpecker stack for the whole run (see test/harness/README.md).
          globalSetup: ['test/harness/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // The machines have 2 cores and every file shares one server and agent.
          fileParallelism: false,
        },
      },
    ],
  },
});
