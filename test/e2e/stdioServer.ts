// The server as an MCP host starts it for stdio: a child process (by default
// `tsx runtime/process/main.ts` in the repository) with the environment a host would give
// it, spoken to through the SDK's stdio client transport. Every e2e file that talks to a
// real server process over stdio starts it here.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { harnessInfo } from '../harness/fixtures.js';
import type { Revision } from './mcpSession.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The command that runs the server from the repository's sources. */
export const SOURCE_SERVER = {
  command: `${ROOT}node_modules/.bin/tsx`,
  args: ['runtime/process/main.ts'],
  cwd: ROOT,
} as const;

export interface StdioOptions {
  /** The server's environment besides PATH and HOME: nothing else is passed on. */
  readonly env: Record<string, string>;
  /** Another command than the sources (an installed package, a pasted client config). */
  readonly command?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** The client's name in clientInfo. */
  readonly name?: string;
  /** Pins the revision; by default the client negotiates (2025-11-25). */
  readonly revision?: Revision;
  /** Declares the elicitation capability; every dialog is then approved and recorded. */
  readonly canElicit?: boolean;
}

export interface StdioServer {
  readonly client: Client;
  /** Every dialog message the client was shown, in order. */
  readonly dialogs: string[];
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** A host's environment for the server: PATH and HOME, and `env`; nothing else of ours. */
export function serverEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env };
}

/** The harness Woodpecker, as the two variables a user would set. */
export function harnessWoodpecker(): Record<string, string> {
  const info = harnessInfo();
  return { WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken };
}

/**
 * Runs the server from the sources to its end with `input` on stdin (empty: the client
 * hangs up at once), for what it prints and how it exits.
 */
export function runSourceServer(
  args: readonly string[],
  env: Record<string, string>,
  input = '',
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(SOURCE_SERVER.command, [...SOURCE_SERVER.args, ...args], {
    cwd: SOURCE_SERVER.cwd,
    env: serverEnv(env),
    input,
    encoding: 'utf8',
    timeout: 45_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The transport alone, unconnected: for a test that expects connecting to fail. */
export function stdioTransport(options: StdioOptions): {
  transport: StdioClientTransport;
  stderr(): string;
} {
  const transport = new StdioClientTransport({
    command: options.command ?? SOURCE_SERVER.command,
    args: [...(options.args ?? (options.command ? [] : SOURCE_SERVER.args))],
    cwd: options.cwd ?? SOURCE_SERVER.cwd,
    env: serverEnv(options.env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { transport, stderr: () => stderr };
}

/** Starts the server and connects a client to it (initialize done). */
export async function startStdioServer(options: StdioOptions): Promise<StdioServer> {
  const { transport, stderr } = stdioTransport(options);
  const client = new Client(
    { name: options.name ?? 'stdio-e2e', version: '1' },
    {
      capabilities: options.canElicit ? { elicitation: { form: {} } } : {},
      ...(options.revision === '2026-07-28'
        ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
        : {}),
    },
  );
  const dialogs: string[] = [];
  if (options.canElicit) {
    client.setRequestHandler('elicitation/create', async (request) => {
      dialogs.push(String((request.params as { message?: unknown }).message ?? ''));
      return { action: 'accept', content: { approve: true } };
    });
  }
  await client.connect(transport);
  return { client, dialogs, stderr, close: () => client.close() };
}

/** Runs `body` against a fresh server process and closes it afterwards, whatever happens. */
export async function withStdioServer<T>(
  options: StdioOptions,
  body: (server: StdioServer) => Promise<T>,
): Promise<T> {
  const server = await startStdioServer(options);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}
