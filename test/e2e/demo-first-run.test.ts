// A newcomer's first `npm run demo`, from the outside: with an empty cache it gets
// Woodpecker from the release (served here from loopback, shaped like the GitHub release:
// the real binaries in woodpecker-{server,agent}_<os>_<arch>.tar.gz and checksums.txt),
// says which route it took and is ready; stopped at any point (during the download, a
// source build, the start, the fill, after ready; Ctrl-C to the group or SIGTERM to the
// demo; once through `npm run demo` itself, as a person types it) it leaves nothing
// behind: no process, no file in its TMPDIR, no half cache entry.
// `--help`, `--src` and the env file's refusals are here too.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leftIn, processesUnder, startDemo, type DemoProcess } from './demoProcess.js';
import { serveRelease, type ReleaseStandIn } from '../harness/release-stand-in.js';
import { pinnedWoodpeckerTag, woodpeckerBinaries } from '../harness/woodpecker-binaries.js';
import { waitUntil } from '../harness/wait-until.js';

const TAG = pinnedWoodpeckerTag();
const scratch = mkdtempSync(join(tmpdir(), 'demo-first-run-'));

let release: ReleaseStandIn;
let releaseUrl = '';

beforeAll(async () => {
  release = await serveRelease(woodpeckerBinaries(TAG));
  releaseUrl = release.url;
}, 120_000);

const demos: DemoProcess[] = [];
afterEach(() => {
  for (const demo of demos.splice(0)) demo.kill();
  release.slow(false);
});
afterAll(async () => {
  await release.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  demo: DemoProcess;
  tmp: string;
  cache: string;
  envFile: string;
}

/** A demo with its own TMPDIR and env file; `emptyCache`: its own empty cache as well. */
function run(
  name: string,
  options: {
    emptyCache?: boolean;
    args?: string[];
    env?: Record<string, string>;
    viaNpm?: boolean;
  } = {},
): Run {
  const tmp = join(scratch, `${name}-tmp`);
  const cache = options.emptyCache
    ? join(scratch, `${name}-cache`)
    : (process.env.WOODPECKER_CACHE_DIR ?? '');
  mkdirSync(tmp, { recursive: true });
  const envFile = join(scratch, `${name}.env`);
  const demo = startDemo(
    ['--demo-env', envFile, ...(options.args ?? [])],
    {
      TMPDIR: tmp,
      // The loopback release serves the pinned version's archives only: a run on another
      // release must not make the demo ask for that one.
      WOODPECKER_TEST_VERSION: TAG,
      WOODPECKER_RELEASE_URL: releaseUrl,
      ...(options.emptyCache ? { WOODPECKER_CACHE_DIR: cache } : {}),
      ...options.env,
    },
    { viaNpm: options.viaNpm ?? false },
  );
  demos.push(demo);
  return { demo, tmp, cache, envFile };
}

/** Gone, and nothing of it left: no file in its TMPDIR, no process working there. */
async function leavesNothing({ demo, tmp }: Run, code: number): Promise<void> {
  expect(await demo.exited, demo.output()).toBe(code);
  expect(leftIn(tmp), demo.output()).toEqual([]);
  expect(processesUnder(tmp)).toEqual([]);
}

describe('npm run demo, the first hour', () => {
  it('with an empty cache, takes the release binaries (checked against checksums.txt), says so, and SIGTERM removes everything', async () => {
    const started = Date.now();
    const first = run('release', { emptyCache: true });
    await first.demo.waitFor('Ctrl-C stops');
    const readyAfter = (Date.now() - started) / 1000;
    // The figure the README quotes for a first run from the release (a loaded 2-core machine).
    console.log(
      `demo ready from an empty cache via the release route in ${readyAfter.toFixed(1)} s`,
    );
    const output = first.demo.output();
    expect(output).toContain(`trying Woodpecker's release binaries`);
    expect(output).toMatch(
      /woodpecker-server_\w+\.tar\.gz: [\d.]+ MB in [\d.]+ s, sha256 matches checksums\.txt/,
    );
    expect(output).toContain("Woodpecker came from Woodpecker's release binaries.");
    expect(output).not.toContain('building it from source');
    const source = readFileSync(join(first.cache, `woodpecker-${TAG}`, 'SOURCE'), 'utf8');
    expect(source).toMatch(
      new RegExp(
        `^release ${releaseUrl}/${TAG} woodpecker-server_\\w+\\.tar\\.gz sha256=[0-9a-f]{64} `,
      ),
    );
    expect(readdirSync(first.cache).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(lstatSync(first.envFile).mode & 0o077).toBe(0);
    first.demo.signal('SIGTERM');
    await leavesNothing(first, 143);

    // The second run takes the cache and downloads nothing.
    const before = release.requests();
    const second = run('release', { emptyCache: true });
    await second.demo.waitFor('Ctrl-C stops');
    expect(second.demo.output()).toContain('Woodpecker came from the cache.');
    expect(release.requests()).toBe(before);
    second.demo.signal('SIGINT', { group: true });
    await leavesNothing(second, 130);
  }, 400_000);

  it('stopped during the download, keeps no partial download and no cache entry', async () => {
    release.slow(true);
    const stopped = run('download', { emptyCache: true });
    await stopped.demo.waitFor(/downloading woodpecker-server/);
    stopped.demo.signal('SIGINT', { group: true });
    await leavesNothing(stopped, 130);
    expect(readdirSync(stopped.cache)).toEqual([]);
  }, 120_000);

  it('stopped during a source build (--src; SIGTERM to the demo only), ends the build and removes its work directory', async () => {
    // A `go` that compiles nothing and takes its time: the stop must not wait for it.
    const bin = join(scratch, 'slow-go');
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'go'),
      '#!/usr/bin/env bash\ncase "$1" in build) sleep 600 ;; env) echo /nonexistent ;; esac\nexit 0\n',
    );
    chmodSync(join(bin, 'go'), 0o755);
    const building = run('build', {
      emptyCache: true,
      args: ['--src', join(process.cwd(), '..', 'shared', 'woodpecker-src')],
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    await building.demo.waitFor('building woodpecker-server');
    // --src goes straight to the build: no cache, release or image route was asked.
    expect(building.demo.output()).not.toContain('trying');
    expect(building.demo.output()).toContain('It prints a line at least every 30 s');
    building.demo.signal('SIGTERM');
    await leavesNothing(building, 143);
    expect(existsSync(join(building.cache, `woodpecker-${TAG}`))).toBe(false);
  }, 120_000);

  for (const [when, marker, signal, group, code] of [
    ['while its Woodpecker starts (Ctrl-C)', 'Starting a local Woodpecker', 'SIGINT', true, 130],
    ['while it fills the sample data (SIGTERM)', 'Filling it with sample', 'SIGTERM', false, 143],
  ] as const) {
    it(`stopped ${when}, stops every process and removes the stack's folder`, async () => {
      const stopped = run(`stop-${code}`);
      await stopped.demo.waitFor(marker);
      stopped.demo.signal(signal, { group });
      await leavesNothing(stopped, code);
      expect(existsSync(stopped.envFile)).toBe(false);
    }, 240_000);
  }

  it('through `npm run demo` itself, Ctrl-C to its process group after ready stops every process and removes the stack folder', async () => {
    const typed = run('npm-ctrl-c', { viaNpm: true });
    await typed.demo.waitFor('Ctrl-C stops');
    expect(leftIn(typed.tmp).length, 'the stack folder while it runs').toBeGreaterThan(0);
    expect(processesUnder(typed.tmp).length, 'Woodpecker while it runs').toBeGreaterThan(0);
    // A terminal's Ctrl-C: SIGINT to npm, the shell it started and the demo, all at once.
    typed.demo.signal('SIGINT', { group: true });
    await typed.demo.exited;
    // npm is gone at once; the demo, its child, goes when its cleanup is done.
    await waitUntil(
      'the demo to finish its cleanup',
      async () => (typed.demo.groupAlive() ? undefined : true),
      { timeoutMs: 60_000 },
    );
    expect(leftIn(typed.tmp), typed.demo.output()).toEqual([]);
    expect(processesUnder(typed.tmp)).toEqual([]);
  }, 240_000);

  it('--help prints the usage and exits before anything starts; an unknown option is refused', async () => {
    const help = run('help', { emptyCache: true, args: ['--help'] });
    expect(await help.demo.exited).toBe(0);
    expect(help.demo.output()).toMatch(/^Usage: npm run demo -- \[options\]/);
    expect(help.demo.output()).toContain('--src DIR');
    expect(existsSync(help.cache)).toBe(false);
    const unknown = run('unknown', { emptyCache: true, args: ['--sources', 'x'] });
    expect(await unknown.demo.exited).toBe(2);
    expect(unknown.demo.output()).toContain(
      'unknown option --sources (npm run demo -- --help lists the options)',
    );
  }, 60_000);

  it('refuses a link or a folder at the --demo-env path before starting anything, writing nothing through the link', async () => {
    const victim = join(scratch, 'victim');
    writeFileSync(victim, 'untouched\n');
    const link = join(scratch, 'planted.env');
    symlinkSync(victim, link);
    const linked = run('linked', { args: ['--demo-env', link] });
    expect(await linked.demo.exited).toBe(2);
    expect(linked.demo.output()).toContain(`${link} is a symbolic link`);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    const folder = mkdtempSync(join(scratch, 'env-folder-'));
    const foldered = run('foldered', { args: ['--demo-env', folder] });
    expect(await foldered.demo.exited).toBe(2);
    expect(foldered.demo.output()).toContain(`${folder} is a directory`);
    expect(leftIn(linked.tmp)).toEqual([]);
    expect(leftIn(foldered.tmp)).toEqual([]);
  }, 60_000);

  it('when a folder or a link appears at the env path while it starts, exits 1 writing nothing through it, and removes everything', async () => {
    for (const plant of ['folder', 'link'] as const) {
      const victim = join(scratch, `victim-${plant}`);
      writeFileSync(victim, 'untouched\n');
      const raced = run(`raced-${plant}`);
      await raced.demo.waitFor('Filling it with sample');
      if (plant === 'folder') mkdirSync(raced.envFile);
      else symlinkSync(victim, raced.envFile);
      await leavesNothing(raced, 1);
      expect(raced.demo.output()).toContain(
        plant === 'folder'
          ? `${raced.envFile} is a directory`
          : `${raced.envFile} is a symbolic link`,
      );
      expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    }
  }, 400_000);
});
