// HAProxy from Debian, run in the foreground with deploy/haproxy.cfg exactly as shipped;
// only the addresses come from the environment, as the file documents.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, waitForStatus } from './podman.js';

export interface LoadBalancer {
  /** The MCP endpoint through the balancer. */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startHaproxy(
  port: number,
  replicas: readonly string[],
  /** Optional settings the file documents (MCP_BUILD_LIMIT). */
  options: Record<string, string> = {},
): Promise<LoadBalancer> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    MCP_BIND: `127.0.0.1:${port}`,
    MCP_SHOW_REPLICA: '1',
    ...options,
  };
  replicas.forEach((address, index) => (env[`MCP_REPLICA_${index + 1}`] = address));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', join(ROOT, 'deploy/haproxy.cfg')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200, 15_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`haproxy did not start: ${stderr.slice(-2000)} (${(error as Error).message})`);
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
