// The server under test runs as users run it: the built package (`npm run build`
// output, here in .bench/dist) in a process of its own, over stdio or HTTP.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { buildPackage } from '../scripts/build.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, '.bench', 'dist');
export const MAIN = join(DIST, 'runtime', 'process', 'main.js');

export type Revision = '2025-11-25' | '2026-07-28';

/** Builds the package once per bench run (as `npm run build` does), so the figures are the package's. */
export async function buildDist(): Promise<void> {
  await buildPackage(DIST);
}

export function newClient(revision: Revision, canElicit = false): Client {
  return new Client(
    { name: 'woodpecker-ci-mcp-bench', version: '1.0.0' },
    {
      capabilities: canElicit ? { elicitation: { form: {} } } : {},
      ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      inputRequired: { autoFulfill: true, maxRounds: 3 },
    },
  );
}

export interface StdioServer {
  readonly client: Client;
  readonly pid: number;
  close(): Promise<void>;
}

export async function startStdio(
  env: Record<string, string>,
  revision: Revision = '2025-11-25',
): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'ignore',
  });
  const client = newClient(revision);
  await client.connect(transport);
  return { client, pid: transport.pid ?? 0, close: () => client.close() };
}

export interface HttpServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startHttp(env: Record<string, string>): Promise<HttpServer> {
  const child: ChildProcess = spawn(process.execPath, [MAIN, '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const found = /serving MCP over HTTP at (\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited (${String(code)}) before serving: ${seen}`)),
    );
  });
  return {
    url,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function connectHttp(
  url: string,
  revision: Revision,
  canElicit = false,
): Promise<Client> {
  const client = newClient(revision, canElicit);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Resident set size of a process now and its peak since the last reset, in bytes (Linux). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Resets the peak RSS the kernel keeps (VmHWM) to the current RSS. */
export function resetPeak(pid: number): void {
  spawnSync('sh', ['-c', `echo 5 > /proc/${pid}/clear_refs`]);
}

/** CPU time (user + system) a process has used so far, in milliseconds (Linux, 10 ms ticks). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
