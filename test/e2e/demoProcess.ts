// `npm run demo` as a person runs it, for the demo's tests: its own process group (a
// terminal's Ctrl-C signals the whole group; `kill PID` only the demo), its output
// collected, and what it leaves behind once it is gone: files in its TMPDIR and processes
// whose working directory is under a given folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface DemoProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves once `marker` is in the output; rejects if the demo exits first or after timeoutMs. */
  waitFor(marker: string | RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code, or the signal's name. */
  readonly exited: Promise<number | string>;
  /** `group`: as Ctrl-C does, to every process of the demo's group. */
  signal(name: NodeJS.Signals, options?: { group?: boolean }): void;
  /** Whether any process of the demo's group is still there (npm's child outlives npm). */
  groupAlive(): boolean;
  kill(): void;
}

/**
 * `viaNpm: false` (the default) runs what `npm run demo` runs (package.json): the demo is
 * this process itself, with tsx as its loader, so its exit is the end of its cleanup and
 * carries its exit code. `viaNpm: true` runs `npm run demo` itself, as a person types it:
 * npm dies of a SIGINT at once and hides the demo's code, so a caller waits for the whole
 * group to be gone (groupAlive) instead of for `exited`.
 */
export function startDemo(
  args: string[],
  env: Record<string, string | undefined>,
  { viaNpm = false }: { viaNpm?: boolean } = {},
): DemoProcess {
  const [command, commandArgs] = viaNpm
    ? ['npm', ['run', '--silent', 'demo', '--', ...args]]
    : [process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  let done = false;
  void exited.then(() => (done = true));
  const matches = (marker: string | RegExp) =>
    typeof marker === 'string' ? output.includes(marker) : marker.test(output);
  return {
    child,
    output: () => output,
    exited,
    waitFor: (marker, timeoutMs = 180_000) =>
      new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const check = setInterval(() => {
          if (matches(marker)) {
            clearInterval(check);
            resolve();
          } else if (done || Date.now() > deadline) {
            clearInterval(check);
            reject(
              new Error(
                `demo ${done ? 'exited' : `still running after ${timeoutMs} ms`} without printing ${String(marker)}:\n${output}`,
              ),
            );
          }
        }, 100);
      }),
    signal: (name, { group = false } = {}) => process.kill(group ? -child.pid! : child.pid!, name),
    groupAlive: () => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    },
    kill: () => {
      if (done) return;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/** Entries left in a demo's TMPDIR, without tsx's own compile cache. */
export function leftIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => !name.startsWith('tsx-'));
}

/** Processes (pid and command) whose working directory is under `dir` (Linux /proc). */
export function processesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir))
        found.push(`${pid} ${readlinkSync(`/proc/${pid}/exe`)}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
