import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import './provided-context.js';
import { buildScriptPath, normalizeTag, pinnedWoodpeckerTag } from './woodpecker-binaries.js';
import { harnessInfoOf, startStack } from './stack.js';

// One Woodpecker stack for the whole integration run. WOODPECKER_TEST_VERSION=v3.11.0 runs
// the suite against another release (its binaries must build or already be cached).
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const tag = normalizeTag(process.env.WOODPECKER_TEST_VERSION ?? pinnedWoodpeckerTag());
  // A cache hit returns at once; a miss builds from the Go module proxy (minutes).
  const build = spawnSync('bash', [buildScriptPath, tag], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 30 * 60_000,
  });
  if (build.status !== 0)
    throw new Error(
      `build-woodpecker.sh ${tag} failed (exit ${build.status ?? build.signal}); see its output above`,
    );

  const stack = await startStack({ version: tag });
  project.provide('woodpecker', harnessInfoOf(stack));
  return async () => {
    await stack.stop();
  };
}
