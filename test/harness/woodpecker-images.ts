// Woodpecker's official container images as a source of its binaries, for a machine with
// podman or docker but no route to the release downloads. Both images are built FROM
// scratch around one binary (docker/Dockerfile.server.multiarch.rootless and
// Dockerfile.agent.multiarch in Woodpecker's repository at v3.17.0: /bin/woodpecker-server,
// /bin/woodpecker-agent) and published as woodpeckerci/woodpecker-{server,agent}:<tag>
// (.woodpecker/docker.yaml there); the shared source archives hold neither file. The
// binaries are copied out of a created, never started, container and run on the host like
// any other: no container runs, so no networking or volume setup is involved. Linux only:
// the images hold Linux binaries.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { RouteUnavailable } from './woodpecker-release.js';

const RUNTIMES = ['podman', 'docker'];
const IMAGE_REPOSITORY = 'docker.io/woodpeckerci';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a long command prints while it runs: `still <doing> (<n> s so far; <its last line>)`. */
interface Progress {
  doing: string;
  say: (line: string) => void;
}

/**
 * Seconds between progress lines: WOODPECKER_BUILD_PROGRESS_SECONDS, as for the source
 * build (build-woodpecker.sh), 20 by default; a value that is not a whole number of
 * seconds from 1 to 30 is the default, so a pull is never quiet for more than 30 s.
 */
export function progressSeconds(): number {
  const given = Number(process.env.WOODPECKER_BUILD_PROGRESS_SECONDS);
  return Number.isInteger(given) && given >= 1 && given <= 30 ? given : 20;
}

function run(
  command: string,
  args: string[],
  signal?: AbortSignal,
  timeoutMs = 600_000,
  progress?: Progress,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      ...(signal ? { signal } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // A pull of a large image over a slow link takes minutes, and podman shows its progress
    // bars only on a terminal: say what it is doing, for how long, and its last line.
    const ticker = progress
      ? setInterval(() => {
          const last = lastLine(`${stdout}\n${stderr}`);
          progress.say(
            `still ${progress.doing} (${Math.round((Date.now() - started) / 1000)} s so far${last ? `; ${command}: ${last}` : ''})`,
          );
        }, progressSeconds() * 1000)
      : undefined;
    child.once('error', (error) => {
      clearInterval(ticker);
      reject(error);
    });
    child.once('close', (code) => {
      clearInterval(ticker);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The last line with text in it, at most 120 characters (progress bars rewrite one line). */
function lastLine(text: string): string {
  const lines = text
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? '').slice(0, 120);
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const firstLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';

/** The first installed runtime whose engine answers, or why none does. */
async function usableRuntime(signal?: AbortSignal): Promise<string> {
  const reasons: string[] = [];
  for (const runtime of RUNTIMES) {
    if (!onPath(runtime)) continue;
    const info = await run(runtime, ['info'], signal, 20_000);
    if (info.code === 0) return runtime;
    reasons.push(
      `${runtime} is installed but its engine does not answer (${firstLine(info.stderr)})`,
    );
  }
  throw new RouteUnavailable(reasons.join('; ') || 'neither podman nor docker is installed');
}

export interface FromImagesOptions {
  tag: string;
  /** An empty directory the binaries are copied into. */
  into: string;
  signal?: AbortSignal;
  say?: (line: string) => void;
}

/** Copies woodpecker-server and woodpecker-agent of `tag` out of the official images. */
export async function fetchFromImages(
  options: FromImagesOptions,
): Promise<{ server: string; agent: string; source: string }> {
  if (process.platform !== 'linux')
    throw new RouteUnavailable('the images hold Linux binaries, and this is not Linux');
  if (!/^v\d+\.\d+\.\d+$/.test(options.tag))
    throw new RouteUnavailable(`${options.tag} is not a release tag`);
  const runtime = await usableRuntime(options.signal);
  const sources: string[] = [];
  for (const binary of ['woodpecker-server', 'woodpecker-agent']) {
    const image = `${IMAGE_REPOSITORY}/${binary}:${options.tag}`;
    options.say?.(`${runtime} pull ${image}`);
    const pulled = await run(
      runtime,
      ['pull', image],
      options.signal,
      undefined,
      options.say ? { doing: `pulling ${image}`, say: options.say } : undefined,
    );
    if (pulled.code !== 0)
      throw new RouteUnavailable(`${runtime} pull ${image} failed: ${firstLine(pulled.stderr)}`);
    const id = (
      await run(runtime, ['image', 'inspect', '--format', '{{.Id}}', image], options.signal)
    ).stdout.trim();
    const created = await run(runtime, ['create', image], options.signal);
    const container = created.stdout.trim().split('\n').at(-1) ?? '';
    if (created.code !== 0 || container === '')
      throw new RouteUnavailable(`${runtime} create ${image} failed: ${firstLine(created.stderr)}`);
    try {
      const copied = await run(
        runtime,
        ['cp', `${container}:/bin/${binary}`, join(options.into, binary)],
        options.signal,
      );
      if (copied.code !== 0)
        throw new RouteUnavailable(
          `${runtime} cp of /bin/${binary} failed: ${firstLine(copied.stderr)}`,
        );
    } finally {
      await run(runtime, ['rm', container]);
    }
    sources.push(`${image} id=${id}`);
  }
  return {
    server: join(options.into, 'woodpecker-server'),
    agent: join(options.into, 'woodpecker-agent'),
    source: `image ${runtime} ${sources.join(' ')}`,
  };
}
