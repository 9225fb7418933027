import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, existsSync } from 'node:fs';

/** A long-running binary whose stdout and stderr go to a log file. */
export interface LoggedProcess {
  readonly name: string;
  readonly logFile: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<string>;
  hasExited(): boolean;
  /** SIGTERM to the whole process group, SIGKILL after graceMs; resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartProcessOptions {
  name: string;
  command: string;
  args?: string[];
  cwd: string;
  env: Record<string, string>;
  logFile: string;
}

// Process groups still running. If the Node process exits without stop() having run (a
// crash, a worker torn down), the 'exit' hook below kills them so nothing is orphaned.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function killLiveGroupsOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of liveGroups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

export function startLoggedProcess(options: StartProcessOptions): LoggedProcess {
  const logFd = openSync(options.logFile, 'a');
  // detached: the child leads its own process group, so stop() can signal everything it
  // started (the agent's step shells included) with one kill(-pid).
  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  killLiveGroupsOnExit();
  const pid = child.pid;
  if (pid !== undefined) liveGroups.add(pid);
  let exitDescription: string | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitDescription = signal ?? String(code);
      resolve(exitDescription);
    });
    child.once('error', (error) => {
      exitDescription = `spawn error: ${error.message}`;
      resolve(exitDescription);
    });
  });

  const signalGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };

  return {
    name: options.name,
    logFile: options.logFile,
    child,
    exited,
    hasExited: () => exitDescription !== undefined,
    async stop(graceMs = 5000) {
      if (exitDescription !== undefined || child.pid === undefined) {
        signalGroup('SIGKILL'); // reap any grandchildren the leader left behind
        return;
      }
      signalGroup('SIGTERM');
      const timer = new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), graceMs).unref(),
      );
      if ((await Promise.race([exited, timer])) === 'timeout') {
        signalGroup('SIGKILL');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      }
      signalGroup('SIGKILL');
      if (pid !== undefined) liveGroups.delete(pid);
    },
  };
}

/** The last lines of a log file, for error messages. */
export function tailOfFile(path: string, lines = 40): string {
  if (!existsSync(path)) return `(no log file at ${path})`;
  const all = readFileSync(path, 'utf8').split('\n');
  return all.slice(-lines).join('\n');
}
