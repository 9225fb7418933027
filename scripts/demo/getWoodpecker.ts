// Where the demo's Woodpecker binaries come from, cheapest first: the cache; Woodpecker's
// official release binaries of the pinned version (checked against the release's
// checksums); its official images through podman or docker; and only then a build from
// source (Go, gcc, minutes). Each route that does not work says why in one line, and the
// route taken is printed, so a person (and the README's table) knows what happened.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fetchFromImages } from '../../test/harness/woodpecker-images.js';
import { fetchRelease, RouteUnavailable } from '../../test/harness/woodpecker-release.js';
import {
  buildScriptPath,
  publishWoodpeckerBinaries,
  woodpeckerBinaries,
  woodpeckerCacheDir,
  type WoodpeckerBinaries,
} from '../../test/harness/woodpecker-binaries.js';

export type Route = 'cache' | 'release' | 'image' | 'source';

export interface GotWoodpecker {
  binaries: WoodpeckerBinaries;
  route: Route;
}

export interface GetWoodpeckerOptions {
  tag: string;
  /** --src DIR: build from these source archives, whatever the cache holds. */
  srcDir?: string | undefined;
  signal: AbortSignal;
  say: (line: string) => void;
}

export const ROUTE_NAMES: Record<Route, string> = {
  cache: 'the cache',
  release: "Woodpecker's release binaries",
  image: "Woodpecker's container images",
  source: 'a build from source',
};

export async function getWoodpecker(options: GetWoodpeckerOptions): Promise<GotWoodpecker> {
  const { tag, say, signal } = options;
  const got = (route: Route, binaries: WoodpeckerBinaries): GotWoodpecker => {
    const source = readFileSync(join(binaries.server, '..', 'SOURCE'), 'utf8').trim();
    say(
      `Woodpecker ${tag}: from ${ROUTE_NAMES[route]} (${source.split(' ').slice(0, 2).join(' ')})`,
    );
    return { binaries, route };
  };
  if (options.srcDir === undefined) {
    try {
      return got('cache', woodpeckerBinaries(tag));
    } catch {
      // not cached: the next route
    }
    for (const [route, fetcher] of [
      ['release', fetchRelease],
      ['image', fetchFromImages],
    ] as const) {
      const into = scratchDir(tag);
      try {
        say(`Woodpecker ${tag} is not on this machine yet: trying ${ROUTE_NAMES[route]}`);
        const fetched = await fetcher({ tag, into, signal, say: (line) => say(`  ${line}`) });
        return got(route, publishWoodpeckerBinaries(tag, into, fetched.source));
      } catch (error) {
        signal.throwIfAborted();
        if (!(error instanceof RouteUnavailable)) throw error;
        say(`  not used: ${error.message}`);
      } finally {
        rmSync(into, { recursive: true, force: true });
      }
    }
  }
  say(
    [
      `Woodpecker ${tag}: building it from source${options.srcDir ? ` in ${options.srcDir}` : ''}.`,
      'The first build takes minutes (10 on a busy 2-core machine): Go downloads modules and',
      'keeps them and its build cache (about 1.1 GB; `go clean -modcache -cache` removes them),',
      `then compiles server and agent into ${woodpeckerCacheDir()}.`,
      'It prints a line at least every 30 s. Later demos start from the cache in seconds.',
    ].join('\n'),
  );
  await runBuildScript(tag, options.srcDir, signal);
  return got('source', woodpeckerBinaries(tag));
}

/** A directory beside the cache entries (the same filesystem, so publishing is a rename). */
function scratchDir(tag: string): string {
  mkdirSync(woodpeckerCacheDir(), { recursive: true });
  return mkdtempSync(join(woodpeckerCacheDir(), `.fetch-${tag}-`));
}

/**
 * build-woodpecker.sh in its own process group, its output passed through. A stop ends
 * the whole group (bash, go, the compilers), and the script's trap removes its work dir.
 */
function runBuildScript(
  tag: string,
  srcDir: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const build = spawn('bash', [buildScriptPath, ...(srcDir ? ['--src', srcDir] : []), tag], {
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    const stop = () => {
      try {
        process.kill(-build.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    signal.addEventListener('abort', stop, { once: true });
    build.once('error', reject);
    build.once('exit', (code, how) => {
      signal.removeEventListener('abort', stop);
      if (signal.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new Error(`building Woodpecker ${tag} failed (exit ${code ?? how}; see above)`));
    });
  });
}
