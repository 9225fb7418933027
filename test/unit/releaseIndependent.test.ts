// The files `npm test` runs on the pinned release only (test/harness/release-independent.ts):
// each entry names a file that exists (a misspelt one would quietly run everywhere), and
// none of the files that show tools working against Woodpecker is among them, since every
// tool must be shown on every supported release.
import { describe, expect, it } from 'vitest';
import {
  integrationTestFiles,
  matchesTestPattern as matches,
  RELEASE_INDEPENDENT,
} from '../harness/release-independent.js';

const testFiles = integrationTestFiles(new URL('../../', import.meta.url));

/** Files that call tools against the run's Woodpecker to show them working. */
const ON_EVERY_RELEASE = [
  'test/e2e/tools-*.test.ts',
  'test/e2e/insight-*.test.ts',
  'test/e2e/answers.test.ts',
  'test/e2e/answer-views.test.ts',
  'test/e2e/operations.test.ts',
  'test/e2e/operator-policy.test.ts',
  'test/e2e/repository-allowlist.test.ts',
  'test/e2e/guard-token.test.ts',
  'test/e2e/guard-dialog.test.ts',
  'test/e2e/guard-sealed.test.ts',
  'test/e2e/guard-conditions.test.ts',
  'test/e2e/guard-identity.test.ts',
  'test/e2e/woodpecker-faults.test.ts',
  'test/e2e/fuzz-arguments.test.ts',
  'test/e2e/woodpecker-versions.test.ts',
  'test/integration/*.test.ts',
];

describe('RELEASE_INDEPENDENT', () => {
  it.each(RELEASE_INDEPENDENT.map((pattern) => [pattern]))('%s names a test file', (pattern) => {
    expect(testFiles.filter((file) => matches(pattern, file))).not.toEqual([]);
  });

  it('leaves every file that shows tools working on each release', () => {
    const kept = testFiles.filter((file) =>
      ON_EVERY_RELEASE.some((pattern) => matches(pattern, file)),
    );
    expect(kept.length).toBeGreaterThanOrEqual(20);
    expect(
      kept.filter((file) => RELEASE_INDEPENDENT.some((pattern) => matches(pattern, file))),
    ).toEqual([]);
  });
});
