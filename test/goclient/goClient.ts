// Builds and runs the Go SDK client (main.go beside this file) for the e2e test and the
// bench. The binary goes to the shared cache, never into the repository; Go keeps its
// module and build caches in its own places (GOMODCACHE, GOCACHE), outside it too.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SOURCE = fileURLToPath(new URL('.', import.meta.url));

/** One line the client prints: a check on one leg (stdio, http-2025-11-25, http-2026-07-28). */
export interface GoCheck {
  readonly leg: string;
  readonly check: string;
  readonly ok: boolean;
  readonly detail?: string;
  readonly ms?: number;
}

/** Builds the client (seconds when Go's caches are warm) and returns the binary's path. */
export async function buildGoClient(): Promise<string> {
  const cacheRoot =
    process.env.WOODPECKER_CACHE_DIR ?? join(homedir(), '.cache', 'woodpecker-ci-mcp');
  const directory = join(cacheRoot, 'goclient');
  mkdirSync(directory, { recursive: true });
  const binary = join(directory, 'goclient');
  // -mod=readonly: go.sum is the record of what was fetched; nothing is added by a test.
  await run('go', ['build', '-mod=readonly', '-o', binary, '.'], {
    cwd: SOURCE,
    timeout: 300_000,
    env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto', GOFLAGS: '' },
  });
  return binary;
}

/** Runs the client to its end; `env` is the environment of the stdio server it starts. */
export async function runGoClient(
  binary: string,
  options: { readonly args: readonly string[]; readonly env: Record<string, string> },
): Promise<GoCheck[]> {
  const { stdout } = await run(binary, [...options.args], {
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
  });
  return stdout
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as GoCheck);
}
