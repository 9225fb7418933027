// build-woodpecker.sh's decisions, without building anything: which source it takes, when the
// cache counts as a hit, and what it says when there is no source. Each case stops before
// `go build` (a digest mismatch, a missing archive, an archive without a module), so this
// runs in seconds and needs no network: GOPROXY=off makes the proxy refuse the way the
// proxy on the project's machines does.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildScriptPath } from '../harness/woodpecker-binaries.js';

const TAG = 'v9.9.9';
const scratch = mkdtempSync(join(tmpdir(), 'build-woodpecker-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

interface Archives {
  dir: string;
  woodpeckerDigest: string;
  xormigrateDigest: string;
}

/** A source folder shaped like the shared one. The archives hold no Go module, so a build stops at unpacking. */
function sourceFolder(
  name: string,
  options: { wrongDigest?: boolean; withoutWoodpecker?: boolean } = {},
): Archives {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const payload = join(scratch, `${name}-payload`);
  mkdirSync(join(payload, 'not-a-module'), { recursive: true });
  writeFileSync(join(payload, 'not-a-module', 'README'), 'no go.mod here');
  const tar = (archive: string): void => {
    const result = spawnSync('tar', ['-czf', join(dir, archive), '-C', payload, 'not-a-module']);
    expect(result.status).toBe(0);
  };
  if (!options.withoutWoodpecker) tar(`woodpecker-${TAG}.tar.gz`);
  tar('xormigrate-v1.7.1.tar.gz');
  const digestOf = (archive: string): string => sha256(readFileSync(join(dir, archive)));
  const woodpeckerDigest = options.withoutWoodpecker ? '' : digestOf(`woodpecker-${TAG}.tar.gz`);
  const xormigrateDigest = digestOf('xormigrate-v1.7.1.tar.gz');
  const listed = options.wrongDigest ? '0'.repeat(64) : woodpeckerDigest;
  writeFileSync(
    join(dir, 'SHA256SUMS'),
    `${options.withoutWoodpecker ? '' : `${listed}  woodpecker-${TAG}.tar.gz\n`}${xormigrateDigest}  xormigrate-v1.7.1.tar.gz\n`,
  );
  return { dir, woodpeckerDigest, xormigrateDigest };
}

function runBuild(args: string[], cacheDir: string): { status: number | null; output: string } {
  const result = spawnSync('bash', [buildScriptPath, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      WOODPECKER_CACHE_DIR: cacheDir,
      WOODPECKER_SRC_DIR: '',
      GOPROXY: 'off',
      GOFLAGS: '-mod=mod',
    },
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A cache entry with stand-in binaries and the given SOURCE line. */
function cacheEntry(name: string, source: string): string {
  const cacheDir = join(scratch, name);
  const target = join(cacheDir, `woodpecker-${TAG}`);
  mkdirSync(target, { recursive: true });
  for (const binary of ['woodpecker-server', 'woodpecker-agent']) {
    writeFileSync(join(target, binary), '#!/bin/sh\n');
    chmodSync(join(target, binary), 0o755);
  }
  writeFileSync(join(target, 'SOURCE'), `${source}\n`);
  return cacheDir;
}

const agentDigest = sha256(readFileSync(join(buildScriptPath, '..', 'agent-local.go'))).slice(
  0,
  16,
);
const sourceLine = (archives: Archives): string =>
  `archive woodpecker-${TAG}.tar.gz sha256=${archives.woodpeckerDigest} xormigrate-v1.7.1.tar.gz sha256=${archives.xormigrateDigest} agent-local=${agentDigest} version=9.9.9`;

describe('build-woodpecker.sh', () => {
  it('refuses an archive whose digest does not match SHA256SUMS, naming both digests', () => {
    const archives = sourceFolder('tampered', { wrongDigest: true });
    const { status, output } = runBuild(
      ['--src', archives.dir, TAG],
      join(scratch, 'cache-tampered'),
    );
    expect(status).toBe(1);
    expect(output).toContain(`woodpecker-${TAG}.tar.gz does not match`);
    expect(output).toContain(archives.woodpeckerDigest);
  });

  it('with a refused proxy and no archive for the tag, gives one error naming both sources', () => {
    const { status, output } = runBuild([TAG], join(scratch, 'cache-nothing'));
    expect(status).toBe(1);
    expect(output).toContain('the proxy refused');
    expect(output).toMatch(
      /no source for woodpecker v9\.9\.9\.\n {2}Go module proxy: .*GOPROXY=off/,
    );
    expect(output).toMatch(/\n {2}archives: .*(has no woodpecker-v9\.9\.9\.tar\.gz|no directory)/);
  });

  it('names the missing archive when a source folder is given', () => {
    const archives = sourceFolder('incomplete', { withoutWoodpecker: true });
    const { status, output } = runBuild(
      ['--src', archives.dir, TAG],
      join(scratch, 'cache-incomplete'),
    );
    expect(status).toBe(1);
    expect(output).toContain(`${archives.dir} has no woodpecker-${TAG}.tar.gz`);
  });

  it('counts the cache as a hit only for the same source: the same archive is a hit, another digest rebuilds', () => {
    const archives = sourceFolder('verified');
    const hit = runBuild(
      ['--src', archives.dir, TAG],
      cacheEntry('cache-same', sourceLine(archives)),
    );
    expect(hit.status).toBe(0);
    expect(hit.output).toContain(`woodpecker ${TAG}: cached in`);

    const other = { ...archives, woodpeckerDigest: 'f'.repeat(64) };
    const rebuilt = runBuild(
      ['--src', archives.dir, TAG],
      cacheEntry('cache-other', sourceLine(other)),
    );
    expect(rebuilt.output).toContain('was built from another source; rebuilding');
    // The digest matches SHA256SUMS, so it got as far as unpacking this stand-in archive.
    expect(rebuilt.output).toContain('did not unpack');
    expect(rebuilt.status).toBe(1);
  });
});
