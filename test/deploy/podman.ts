// Podman from the deploy tests: the image built from the Containerfile, containers run
// from it, and what podman says about them. Every command gets CONTAINERS_CONF pointing at
// containers.conf beside this file (runc, no default rlimits; see that file).
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '../harness/wait-until.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONTAINERS_CONF = fileURLToPath(new URL('./containers.conf', import.meta.url));
const BASE_IMAGE_SCRIPT = fileURLToPath(new URL('./base-image.sh', import.meta.url));

/** The tag the deploy tests build the Containerfile into. */
export const IMAGE = 'localhost/woodpecker-ci-mcp:deploy-test';
const BUILD_STAGE = 'localhost/woodpecker-ci-mcp:deploy-test-build';

export function podmanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF, ...extra };
}

/** Runs podman; resolves with its stdout, rejects with its stderr when it fails. */
export async function podman(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<string> {
  return (await podmanOutput(args, env, timeoutMs)).stdout;
}

function podmanOutput(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'podman',
      args,
      { env: podmanEnv(env), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `podman ${args.slice(0, 2).join(' ')} failed: ${stderr.trim().slice(-2000) || error.message}`,
            ),
          );
        else resolve({ stdout: stdout.trim(), stderr: stderr.trim() });
      },
    );
  });
}

/**
 * Builds the stand-in Node base (cached by base-image.sh) and then the Containerfile as a
 * user would, with only NODE_IMAGE changed. Unchanged sources reuse podman's layer cache.
 */
export function buildImage(): void {
  const base = spawnSync('bash', [BASE_IMAGE_SCRIPT], {
    env: podmanEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 15 * 60_000,
  });
  if (base.status !== 0)
    throw new Error(
      `base-image.sh failed (exit ${String(base.status ?? base.signal)}); see its output above`,
    );
  const baseImage = base.stdout.trim().split('\n').at(-1) ?? '';
  // The build stage is tagged too, so that the one a rebuild replaces can be removed: each
  // would otherwise stay behind untagged (565 MB, and 300 MB for the image), while the
  // dependency layer both share is kept as the cache.
  const replaced = [imageId(BUILD_STAGE), imageId(IMAGE)];
  for (const [target, tag] of [
    ['build', BUILD_STAGE],
    [undefined, IMAGE],
  ] as const) {
    const build = spawnSync(
      'podman',
      [
        'build',
        ...(target ? ['--target', target] : []),
        '--build-arg',
        `NODE_IMAGE=${baseImage}`,
        '-t',
        tag,
        '-f',
        'Containerfile',
        '.',
      ],
      {
        cwd: ROOT,
        env: podmanEnv(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 15 * 60_000,
      },
    );
    if (build.status !== 0)
      throw new Error(
        `podman build failed (exit ${String(build.status ?? build.signal)}):\n${(build.stdout + build.stderr).slice(-4000)}`,
      );
  }
  const current = new Set([imageId(BUILD_STAGE), imageId(IMAGE)]);
  for (const id of replaced)
    if (id && !current.has(id))
      spawnSync('podman', ['rmi', id], { env: podmanEnv(), stdio: 'ignore' });
}

function imageId(tag: string): string | undefined {
  const inspected = spawnSync('podman', ['image', 'inspect', '--format', '{{.Id}}', tag], {
    env: podmanEnv(),
    encoding: 'utf8',
  });
  return inspected.status === 0 ? inspected.stdout.trim() : undefined;
}

export interface Container {
  readonly name: string;
  /** podman stop: SIGTERM, then SIGKILL after `graceSeconds`. Resolves with the exit code. */
  stop(graceSeconds?: number): Promise<number>;
  /** SIGKILL at once: a replica that dies. */
  kill(): Promise<void>;
  logs(): Promise<string>;
  remove(): Promise<void>;
}

export interface RunOptions {
  /** podman run options before the image (network, ports, user, ...). */
  readonly podmanArgs?: readonly string[];
  /** Environment for the container; values travel in podman's environment, not on its command line. */
  readonly env?: Record<string, string>;
  /** Arguments after the image (the image's CMD when absent). */
  readonly args?: readonly string[];
}

export async function runContainer(options: RunOptions = {}): Promise<Container> {
  const name = `wcm-deploy-${randomBytes(4).toString('hex')}`;
  const env = options.env ?? {};
  // `-e NAME` without a value copies NAME from podman's own environment: a token passed
  // this way never shows in a process list.
  const envArgs = Object.keys(env).flatMap((key) => ['-e', key]);
  await podman(
    [
      'run',
      '-d',
      '--name',
      name,
      ...envArgs,
      ...(options.podmanArgs ?? []),
      IMAGE,
      ...(options.args ?? []),
    ],
    env,
  );
  return {
    name,
    stop: async (graceSeconds = 10) => {
      await podman(['stop', '-t', String(graceSeconds), name]);
      return Number(await podman(['inspect', '-f', '{{.State.ExitCode}}', name]));
    },
    kill: async () => {
      await podman(['kill', name]);
    },
    // The server writes to stderr, which podman logs hands on as its own stderr.
    logs: async () => {
      const { stdout, stderr } = await podmanOutput(['logs', name], {}, 30_000);
      return `${stdout}\n${stderr}`;
    },
    remove: async () => {
      await podman(['rm', '-f', '-t', '0', name]).catch(() => undefined);
    },
  };
}

/** Waits until GET `url` answers `status` (a container's server takes a moment to start). */
export async function waitForStatus(
  url: string,
  status: number,
  timeoutMs = 30_000,
): Promise<void> {
  await waitUntil(
    `${url} to answer ${status}`,
    async () => {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return response.status === status ? true : undefined;
    },
    { timeoutMs },
  );
}
