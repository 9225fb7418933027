import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const harnessDir = dirname(fileURLToPath(import.meta.url));

/** The Woodpecker tag the project pins, e.g. "v3.17.0"; the single source is test/harness/woodpecker-version. */
export function pinnedWoodpeckerTag(): string {
  return readFileSync(join(harnessDir, 'woodpecker-version'), 'utf8').trim();
}

/** "v3.17.0" or "3.17.0" → "v3.17.0". */
export function normalizeTag(version: string): string {
  return version.startsWith('v') ? version : `v${version}`;
}

export function woodpeckerCacheDir(): string {
  return process.env.WOODPECKER_CACHE_DIR ?? join(homedir(), '.cache', 'woodpecker-ci-mcp');
}

export interface WoodpeckerBinaries {
  tag: string;
  server: string;
  agent: string;
}

/** Paths of the cached binaries for a tag; throws with the command that builds them if absent. */
export function woodpeckerBinaries(version?: string): WoodpeckerBinaries {
  const tag = normalizeTag(version ?? pinnedWoodpeckerTag());
  const dir = join(woodpeckerCacheDir(), `woodpecker-${tag}`);
  const binaries = { tag, server: join(dir, 'woodpecker-server'), agent: join(dir, 'woodpecker-agent') };
  for (const path of [binaries.server, binaries.agent]) {
    if (!existsSync(path)) {
      throw new Error(
        `Woodpecker ${tag} is not built: ${path} is missing. ` +
          `Run: bash test/harness/woodpecker-build/build-woodpecker.sh ${tag}`,
      );
    }
  }
  return binaries;
}

export const buildScriptPath = join(harnessDir, 'woodpecker-build', 'build-woodpecker.sh');
