// A real MCP client talking to a real woodpecker-ci-mcp (over its Streamable HTTP
// transport, on loopback) which talks to the real Woodpecker of the harness. Tests pick
// the protocol revision, whether the client can show dialogs, and how the "person"
// answers them.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';
import { loadConfig } from '../../runtime/process/config.js';
import { startHttpServer } from '../../runtime/http/httpServer.js';
import { buildRuntime } from '../../runtime/process/buildRuntime.js';
import { tools as allTools } from '../../generated/index.js';
import { harnessInfo } from '../harness/fixtures.js';
import { testsAnotherRelease } from '../harness/woodpecker-binaries.js';
import { ownSignalFetch } from './ownSignalFetch.js';
import {
  addCanariesFromArguments,
  addCanary,
  assertNoLeaks,
  checkForCanaries,
  watchStderr,
} from './canaries.js';

const toolsByName = new Map(allTools.map((tool) => [tool.name, tool] as const));

export type Revision = '2025-11-25' | '2026-07-28';
/**
 * The protocol revisions a test runs on. Which one a call arrives on is this server's
 * path (a dialog pushed, or a sealed round trip), not Woodpecker's: the pinned release
 * runs both, the oldest and the next release run 2026-07-28 only, and the tests that
 * name a revision themselves still run as written.
 */
export const REVISIONS: readonly Revision[] = testsAnotherRelease()
  ? ['2026-07-28']
  : ['2025-11-25', '2026-07-28'];
export type PersonAnswer = 'approve' | 'decline' | 'cancel' | 'submit-unticked';

export interface SessionOptions {
  readonly revision: Revision;
  /** Whether the client declares the elicitation capability (default true). */
  readonly canElicit?: boolean;
  /** Woodpecker account the server runs as (default admin), or a raw token. */
  readonly as?: 'admin' | 'user' | { token: string };
  /** Extra environment for the server (ELICITATION, WOODPECKER_REPOS, ...). */
  readonly env?: Record<string, string>;
  /** 2026 only: false returns input_required to the test instead of answering it. */
  readonly autoFulfill?: boolean;
  /** Sent as Authorization: Bearer on every HTTP request (multi-user mode). */
  readonly bearer?: string;
  /** For expiry tests: the server's clock. */
  readonly now?: () => number;
  /**
   * false: this session's credential arguments are not canaries (the fuzz suite sends the
   * same strings as secrets and as names, so a name echoed in an error is no leak).
   */
  readonly canaries?: boolean;
  /** Extensions the client declares (e.g. io.modelcontextprotocol/ui for the views). */
  readonly extensions?: Record<string, unknown>;
  /** Another Woodpecker than the run's shared stack (e.g. an older release). */
  readonly woodpecker?: { readonly url: string; readonly token: string };
}

export interface McpSession {
  readonly client: Client;
  /** Every dialog message the "person" was shown, in order. */
  readonly dialogs: string[];
  /** How the person answers the next dialogs. */
  answer: PersonAnswer;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The structured content of a call that must succeed. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  readonly url: string;
  close(): Promise<void>;
}

export async function openSession(options: SessionOptions): Promise<McpSession> {
  const info = options.woodpecker ? undefined : harnessInfo();
  const as = options.as ?? 'admin';
  const token =
    options.woodpecker?.token ??
    (as === 'admin' ? info!.adminToken : as === 'user' ? info!.userToken : as.token);
  // Every session writes an audit log, so the canary check covers it on every write.
  const auditDir = options.env?.WOODPECKER_MCP_AUDIT_LOG
    ? undefined
    : mkdtempSync(join(tmpdir(), 'wcm-audit-'));
  const auditLog = options.env?.WOODPECKER_MCP_AUDIT_LOG ?? join(auditDir!, 'audit.log');
  watchStderr();
  addCanary(token);
  addCanary(options.bearer);
  const config = loadConfig({
    WOODPECKER_URL: options.woodpecker?.url ?? info!.url,
    ...(options.bearer ? {} : { WOODPECKER_TOKEN: token }),
    WOODPECKER_MCP_AUDIT_LOG: auditLog,
    ...options.env,
  });
  const runtime = buildRuntime(config, options.now ? { now: options.now } : {});
  // Wired as main.ts wires it, so every e2e session passes the same request checks.
  const http = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    factory: runtime.factory,
    policy: config.http,
    verifyToken: runtime.verifyToken,
  });

  const client = new Client(
    { name: 'woodpecker-ci-mcp-tests', version: '1.0.0' },
    {
      capabilities: {
        ...(options.canElicit === false ? {} : { elicitation: { form: {} } }),
        ...(options.extensions ? ({ extensions: options.extensions } as object) : {}),
      },
      ...(options.revision === '2026-07-28'
        ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
        : {}),
      inputRequired: { autoFulfill: options.autoFulfill ?? true, maxRounds: 3 },
    },
  );
  const session: McpSession = {
    client,
    dialogs: [],
    answer: 'approve',
    url: http.url,
    call: async (name, args = {}) => {
      // Optional record of which tool ran on which revision, for coverage reports.
      if (process.env.WOODPECKER_E2E_CALL_LOG)
        appendFileSync(process.env.WOODPECKER_E2E_CALL_LOG, `${options.revision}\t${name}\n`);
      if (options.canaries !== false) addCanariesFromArguments(toolsByName.get(name), args);
      let result: CallToolResult;
      try {
        result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      } catch (error) {
        checkForCanaries(
          `the error of ${name}`,
          error instanceof Error ? `${error.message}\n${JSON.stringify(error)}` : String(error),
        );
        assertNoLeaks();
        throw error;
      }
      // create_agent alone must show the new agent's token, once: from then on it is a canary.
      const revealed =
        name === 'create_agent'
          ? (result.structuredContent as { token?: unknown } | undefined)?.token
          : undefined;
      checkForCanaries(`the result of ${name}`, JSON.stringify(result));
      for (const dialog of session.dialogs) checkForCanaries('a dialog', dialog);
      addCanary(revealed);
      assertNoLeaks();
      return result;
    },
    ok: async (name, args = {}) => {
      const result = await session.call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return result.structuredContent as never;
    },
    close: async () => {
      await client.close().catch(() => undefined);
      await http.close();
      await runtime.close();
      // A regular file only: a test may point the log at a device (/dev/full reads as
      // endless zeros), and there is nothing written to read back there.
      if (existsSync(auditLog) && statSync(auditLog).isFile())
        checkForCanaries('the audit log', readFileSync(auditLog, 'utf8'));
      if (auditDir) rmSync(auditDir, { recursive: true, force: true });
      assertNoLeaks();
    },
  };
  if (options.canElicit !== false) {
    client.setRequestHandler('elicitation/create', async (request): Promise<ElicitResult> => {
      session.dialogs.push(String((request.params as { message?: unknown }).message ?? ''));
      switch (session.answer) {
        case 'approve':
          return { action: 'accept', content: { approve: true } };
        case 'submit-unticked':
          return { action: 'accept', content: { approve: false } };
        case 'decline':
          return { action: 'decline' };
        case 'cancel':
          return { action: 'cancel' };
      }
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(http.url), {
    fetch: ownSignalFetch,
    ...(options.bearer
      ? { requestInit: { headers: { authorization: `Bearer ${options.bearer}` } } }
      : {}),
  });
  await client.connect(transport);
  return session;
}

export function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** For tests that run one body on both revisions. */
export async function withSession<T>(
  options: SessionOptions,
  body: (session: McpSession) => Promise<T>,
): Promise<T> {
  const session = await openSession(options);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}
