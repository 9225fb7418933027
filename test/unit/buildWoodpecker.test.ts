// build-woodpecker.sh's decisions, without building anything: which source it takes, when the
// cache counts as a hit, and what it says when there is no source. Each case stops before
// `go build` (a digest mismatch, a missing archive, an archive without a module), so this
// runs in seconds and needs no network: GOPROXY=off makes the proxy refuse the way the
// proxy on the project's machines does.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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

function runBuild(
  args: string[],
  cacheDir: string,
  env: Record<string, string> = {},
): { status: number | null; output: string } {
  const result = spawnSync('bash', [buildScriptPath, ...args], {
    encoding: 'utf8',
    env: buildEnv(cacheDir, env),
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function buildEnv(cacheDir: string, env: Record<string, string>): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    WOODPECKER_CACHE_DIR: cacheDir,
    WOODPECKER_SRC_DIR: '',
    GOPROXY: 'off',
    GOFLAGS: '-mod=mod',
    ...env,
  };
}

/**
 * A `go` that builds nothing: `go build -o OUT` sleeps FAKE_GO_SECONDS and writes a script
 * to OUT; `go env` names the caches given; the rest succeeds. First on PATH, it lets the
 * whole script run, to its publishing step, in seconds.
 */
function fakeGo(name: string): { path: string; modcache: string; gocache: string } {
  const bin = join(scratch, name, 'bin');
  const modcache = join(scratch, name, 'modcache');
  const gocache = join(scratch, name, 'gocache');
  mkdirSync(bin, { recursive: true });
  mkdirSync(modcache, { recursive: true });
  mkdirSync(gocache, { recursive: true });
  writeFileSync(join(modcache, 'module.zip'), Buffer.alloc(64 * 1024));
  writeFileSync(
    join(bin, 'go'),
    [
      '#!/usr/bin/env bash',
      'case "$1" in',
      `  env) [[ "$2" == GOMODCACHE ]] && echo ${modcache} || echo ${gocache} ;;`,
      '  build) out=""; while (($#)); do [[ "$1" == -o ]] && out="$2"; shift; done',
      '    sleep "${FAKE_GO_SECONDS:-0}"; printf "#!/bin/sh\\n" > "$out"; chmod +x "$out" ;;',
      '  mod) [[ "$2" == download ]] && exit 1 || exit 0 ;;',
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'go'), 0o755);
  return { path: `${bin}:${process.env.PATH}`, modcache, gocache };
}

/** A source folder whose archives unpack to a module each, as the shared one's do. */
function buildableSourceFolder(name: string): string {
  const dir = join(scratch, name);
  const payload = join(scratch, `${name}-payload`);
  for (const module of [`woodpecker-${TAG}`, 'xormigrate-v1.7.1']) {
    mkdirSync(join(payload, module), { recursive: true });
    writeFileSync(join(payload, module, 'go.mod'), `module example.org/${module}\n`);
  }
  mkdirSync(dir, { recursive: true });
  const sums: string[] = [];
  for (const [archive, module] of [
    [`woodpecker-${TAG}.tar.gz`, `woodpecker-${TAG}`],
    ['xormigrate-v1.7.1.tar.gz', 'xormigrate-v1.7.1'],
  ] as const) {
    expect(spawnSync('tar', ['-czf', join(dir, archive), '-C', payload, module]).status).toBe(0);
    sums.push(`${sha256(readFileSync(join(dir, archive)))}  ${archive}`);
  }
  writeFileSync(join(dir, 'SHA256SUMS'), `${sums.join('\n')}\n`);
  return dir;
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

  it('never goes quiet: a long build step prints what it is doing and the time so far, and the end says what Go keeps', () => {
    const go = fakeGo('go-slow');
    const cacheDir = join(scratch, 'cache-progress');
    const { status, output } = runBuild(
      ['--src', buildableSourceFolder('src-progress'), TAG],
      cacheDir,
      {
        PATH: go.path,
        FAKE_GO_SECONDS: '4',
        WOODPECKER_BUILD_PROGRESS_SECONDS: '1',
      },
    );
    expect(status, output).toBe(0);
    expect(output).toMatch(
      /woodpecker v9\.9\.9: still downloading modules for and compiling woodpecker-server \(\d+ s so far\)/,
    );
    expect(output).toMatch(/still compiling woodpecker-agent \(\d+ s so far\)/);
    expect(output).toContain(`Go keeps its module cache (`);
    expect(output).toContain(`in ${go.modcache}) and build cache (`);
    expect(output).toContain('`go clean -modcache -cache` removes both');
    expect(existsSync(join(cacheDir, `woodpecker-${TAG}`, 'woodpecker-server'))).toBe(true);
  });

  it('counts binaries fetched from the release as a hit, unless --src asks for a build', () => {
    // The pinned tag, whose archive is beside the checkout here: a build from it would be
    // another source, so only the release SOURCE line itself can make this a hit.
    const pinned = 'v3.17.0';
    const cacheDir = join(scratch, 'cache-release');
    const target = join(cacheDir, `woodpecker-${pinned}`);
    mkdirSync(target, { recursive: true });
    for (const binary of ['woodpecker-server', 'woodpecker-agent']) {
      writeFileSync(join(target, binary), '#!/bin/sh\n');
      chmodSync(join(target, binary), 0o755);
    }
    const release = `release http://127.0.0.1:1/releases/download/${pinned} woodpecker-server_linux_amd64.tar.gz sha256=${'a'.repeat(64)}`;
    writeFileSync(join(target, 'SOURCE'), `${release}\n`);
    const env = { PATH: fakeGo('go-release').path };
    const hit = runBuild([pinned], cacheDir, env);
    expect(hit.status, hit.output).toBe(0);
    expect(hit.output).toContain(`woodpecker ${pinned}: cached in`);
    expect(readFileSync(join(target, 'SOURCE'), 'utf8')).toBe(`${release}\n`);
    const asked = runBuild(
      ['--src', buildableSourceFolder('src-asked'), TAG],
      cacheEntry('cache-release-src', release),
      env,
    );
    expect(asked.output).toContain('was built from another source; rebuilding');
  });

  it('stops at once on SIGTERM mid-build and leaves no work directory behind', async () => {
    const go = fakeGo('go-stuck');
    const tmp = mkdtempSync(join(scratch, 'tmp-'));
    const build = spawn(
      'bash',
      [buildScriptPath, '--src', buildableSourceFolder('src-stuck'), TAG],
      {
        env: buildEnv(join(scratch, 'cache-stuck'), {
          PATH: go.path,
          FAKE_GO_SECONDS: '600',
          TMPDIR: tmp,
        }),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => build.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    while (!output.includes('building woodpecker-server') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(output).toContain('building woodpecker-server');
    expect(readdirSync(tmp)).toHaveLength(1);
    // As the demo stops it: the whole group.
    process.kill(-build.pid!, 'SIGTERM');
    expect(await exited).toBe(143);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(join(scratch, 'cache-stuck', `woodpecker-${TAG}`))).toBe(false);
  }, 60_000);
});
