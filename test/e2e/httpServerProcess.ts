// The server as users start it for HTTP (`main.ts --http`), in its own process on a free
// loopback port, pointed at the harness Woodpecker: resolves once it says where it serves.
import { spawn } from 'node:child_process';
import { harnessInfo } from '../harness/fixtures.js';
import { freeLoopbackPort } from '../harness/free-port.js';
import { serverEnv, SOURCE_SERVER } from './stdioServer.js';

export interface HttpServerProcess {
  readonly url: string;
  stop(): Promise<void>;
}

/** `env` adds to WOODPECKER_URL; without WOODPECKER_TOKEN every request brings its own. */
export async function startHttpServerProcess(
  env: Record<string, string> = {},
): Promise<HttpServerProcess> {
  const port = await freeLoopbackPort();
  const child = spawn(
    SOURCE_SERVER.command,
    [...SOURCE_SERVER.args, '--http', '--port', String(port)],
    {
      cwd: SOURCE_SERVER.cwd,
      env: serverEnv({ WOODPECKER_URL: harnessInfo().url, ...env }),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('serving MCP over HTTP at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${String(code)}: ${stderr}`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
