import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const harnessDir = dirname(fileURLToPath(import.meta.url));

/** The Woodpecker tag the project pins, e.g. "v3.17.0"; the single source is test/harness/woodpecker-version. */
export function pinnedWoodpeckerTag(): string {
  return readFileSync(join(harnessDir, 'woodpecker-version'), 'utf8').trim();
}

/** "v3.17.0" or "3.17.0" → "v3.17.0"; a branch build such as "main-a4cb541" stays as it is. */
export function normalizeTag(version: string): string {
  return version.startsWith('v') || version.startsWith('main-') ? version : `v${version}`;
}

/** Whether this run is against the pinned release (no WOODPECKER_TEST_VERSION, or the pin). */
export function runsOnPinnedRelease(): boolean {
  const chosen = process.env.WOODPECKER_TEST_VERSION;
  return chosen === undefined || chosen === '' || normalizeTag(chosen) === pinnedWoodpeckerTag();
}

export interface WoodpeckerBuild {
  tag: string;
  /** What the build reports on GET /version, e.g. "3.18.0-dev+a4cb541". */
  version: string;
  role: string;
}

/** The builds the tests know (test/harness/woodpecker-versions), in the table's order. */
export function knownWoodpeckerBuilds(): WoodpeckerBuild[] {
  return readFileSync(join(harnessDir, 'woodpecker-versions'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [tag = '', version = '', ...role] = line.trim().split(/\s+/);
      return { tag, version, role: role.join(' ') };
    });
}

/** The version a tag's build reports on GET /version. */
export function reportedVersion(tag: string): string {
  const normalized = normalizeTag(tag);
  return (
    knownWoodpeckerBuilds().find((build) => build.tag === normalized)?.version ??
    normalized.replace(/^v/, '')
  );
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
  const binaries = {
    tag,
    server: join(dir, 'woodpecker-server'),
    agent: join(dir, 'woodpecker-agent'),
  };
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

/**
 * Puts a woodpecker-server and woodpecker-agent from `fromDir` into the cache for `tag`,
 * with the SOURCE line that says where they came from, in one rename: an interrupted or
 * concurrent run never leaves half a cache entry (build-woodpecker.sh publishes the same way).
 */
export function publishWoodpeckerBinaries(
  tag: string,
  fromDir: string,
  source: string,
): WoodpeckerBinaries {
  const root = woodpeckerCacheDir();
  mkdirSync(root, { recursive: true });
  const target = join(root, `woodpecker-${normalizeTag(tag)}`);
  const staging = mkdtempSync(join(root, `.woodpecker-${normalizeTag(tag)}.`));
  try {
    for (const binary of ['woodpecker-server', 'woodpecker-agent'])
      renameSync(join(fromDir, binary), join(staging, binary));
    writeFileSync(join(staging, 'SOURCE'), `${source}\n`);
    rmSync(`${target}.old`, { recursive: true, force: true });
    if (existsSync(target)) renameSync(target, `${target}.old`);
    renameSync(staging, target);
    rmSync(`${target}.old`, { recursive: true, force: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return woodpeckerBinaries(tag);
}

/**
 * Whether this run tests a release other than the pin (WOODPECKER_TEST_VERSION names
 * another build): suites whose extra cases depend only on this server, not on the
 * release, run fewer of them there.
 */
export function testsAnotherRelease(): boolean {
  const asked = process.env.WOODPECKER_TEST_VERSION;
  return asked !== undefined && asked !== '' && normalizeTag(asked) !== pinnedWoodpeckerTag();
}
