// Load over the real HTTP transport against the real Woodpecker: many MCP clients on both
// protocol revisions, half with one user's token and half with another's, each making a
// mix of calls at once. Every call must succeed and return its own caller's data; after
// the clients leave, the server holds no more sessions, sockets or memory than after a
// warm-up round. Times and figures are printed for docs/security.md, not asserted.
// LOAD_CLIENTS and LOAD_CALLS change the size (defaults: 50 clients × 200 calls).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/process/config.js';
import { startHttpServer, type RunningHttpServer } from '../../runtime/http/httpServer.js';
import { buildRuntime, type Runtime } from '../../runtime/process/buildRuntime.js';
import { createRepo, harnessInfo, type TestRepo } from '../harness/fixtures.js';
import { ownSignalFetch } from './ownSignalFetch.js';
import { normalizeTag, pinnedWoodpeckerTag } from '../harness/woodpecker-binaries.js';
import type { Revision } from './mcpSession.js';

// Full size on the pinned release, where npm test runs it (release-independent.ts); a run
// by hand against another release (WOODPECKER_TEST_VERSION) uses a tenth.
const OTHER_RELEASE =
  process.env.WOODPECKER_TEST_VERSION !== undefined &&
  normalizeTag(process.env.WOODPECKER_TEST_VERSION) !== pinnedWoodpeckerTag();
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? (OTHER_RELEASE ? 20 : 50));
const CALLS = Number(process.env.LOAD_CALLS ?? (OTHER_RELEASE ? 50 : 200));

interface Caller {
  readonly login: string;
  readonly token: string;
  readonly ownRepo: TestRepo;
  readonly othersRepo: TestRepo;
}

let runtime: Runtime;
let http: RunningHttpServer;
let admin: Caller;
let user: Caller;

beforeAll(async () => {
  const info = harnessInfo();
  // Private repositories: each user's list must never show the other's.
  const [adminRepo, userRepo] = await Promise.all([
    createRepo({ owner: 'admin', private: true }),
    createRepo({ owner: 'user', private: true }),
  ]);
  admin = {
    login: info.adminLogin,
    token: info.adminToken,
    ownRepo: adminRepo,
    othersRepo: userRepo,
  };
  user = { login: info.userLogin, token: info.userToken, ownRepo: userRepo, othersRepo: adminRepo };
  // Multi-user mode: no server token, each request brings its own.
  const config = loadConfig({ WOODPECKER_URL: info.url });
  runtime = buildRuntime(config);
  http = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    factory: runtime.factory,
    policy: config.http,
    verifyToken: runtime.verifyToken,
  });
});
afterAll(async () => {
  await http?.close();
  await runtime?.close();
});

// A real collection before each measurement, so garbage not yet collected is not counted.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  collectGarbage();
};

const measure = () => ({
  sessions: http.openSessions(),
  sockets: sockets(),
  rss: process.memoryUsage().rss,
  heap: process.memoryUsage().heapUsed,
});

function sockets(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;
}

async function connect(
  caller: Caller,
  revision: Revision,
): Promise<{ client: Client; leave(): Promise<void> }> {
  const client = new Client(
    { name: 'load', version: '1' },
    {
      capabilities: {},
      ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(http.url), {
    fetch: ownSignalFetch,
    requestInit: { headers: { authorization: `Bearer ${caller.token}` } },
  });
  await client.connect(transport);
  // A client that leaves ends its 2025 session (DELETE); one that vanishes leaves it to the
  // idle timeout and the per-credential cap (http-transport-attacks.test.ts "session limits").
  const leave = async () => {
    if (revision === '2025-11-25') await transport.terminateSession();
    await client.close();
  };
  return { client, leave };
}

/** One call of the mix, checked: it succeeded and carries only this caller's data. */
async function mixedCall(
  client: Client,
  caller: Caller,
  turn: number,
): Promise<string | undefined> {
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const failed = (name: string, result: CallToolResult) =>
    result.isError ? `${name}: ${JSON.stringify(result.content).slice(0, 200)}` : undefined;
  switch (turn % 4) {
    case 0: {
      const result = await call('get_current_user');
      const login = (result.structuredContent as { login?: string } | undefined)?.login;
      return (
        failed('get_current_user', result) ??
        (login === caller.login
          ? undefined
          : `get_current_user answered ${login} to ${caller.login}`)
      );
    }
    case 1: {
      const result = await call('list_repositories', { per_page: 50 });
      const ids = (
        (result.structuredContent as { items?: { id: number }[] } | undefined)?.items ?? []
      ).map((repo) => repo.id);
      if (failed('list_repositories', result)) return failed('list_repositories', result);
      if (caller === user && ids.includes(caller.othersRepo.repoId))
        return `${caller.login} saw the other user's private repository`;
      return undefined;
    }
    case 2: {
      const result = await call('get_repository', { repo_id: caller.ownRepo.repoId });
      // The answer's view names the repository by full_name (owner/name).
      const fullName = (result.structuredContent as { full_name?: string } | undefined)?.full_name;
      const owner = fullName?.split('/')[0];
      return (
        failed('get_repository', result) ??
        (owner === caller.login
          ? undefined
          : `get_repository answered a repository of ${owner} to ${caller.login}`)
      );
    }
    default: {
      const result = await call('list_pipelines', { repo_id: caller.ownRepo.repoId });
      return failed('list_pipelines', result);
    }
  }
}

async function round(
  clients: number,
  calls: number,
): Promise<{ seconds: number; problems: string[]; calls: number }> {
  const problems: string[] = [];
  let made = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const caller = index % 2 === 0 ? admin : user;
      const revision: Revision = index % 4 < 2 ? '2025-11-25' : '2026-07-28';
      const { client, leave } = await connect(caller, revision);
      try {
        for (let turn = 0; turn < calls; turn++) {
          const problem = await mixedCall(client, caller, turn + index).catch(
            (error: unknown) => `thrown: ${String(error)}`,
          );
          made++;
          if (problem) problems.push(problem);
        }
      } finally {
        await leave();
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, problems, calls: made };
}

describe(`load: ${CLIENTS} MCP clients × ${CALLS} calls over HTTP, two users, both revisions`, () => {
  it("every call succeeds with its own caller's data, and nothing grows after the run", async () => {
    // Warm-up: connection pools, caches and the JIT reach their working size.
    const warm = await round(CLIENTS, 4);
    expect(warm.problems).toEqual([]);
    // Idle keep-alive connections between these clients and the server close after ~5 s;
    // the pool to Woodpecker (at most 16, kept 30 s) stays and is counted on both sides.
    await settle();
    const before = measure();

    const run = await round(CLIENTS, CALLS);
    await settle();
    const after = measure();
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(
      `[load] ${run.calls} calls by ${CLIENTS} clients in ${run.seconds.toFixed(1)} s (${(run.calls / run.seconds).toFixed(0)} calls/s), ${run.problems.length} problems; ` +
        `sessions ${before.sessions} → ${after.sessions}, sockets ${before.sockets} → ${after.sockets}, heap ${mib(before.heap)} → ${mib(after.heap)} MiB, RSS ${mib(before.rss)} → ${mib(after.rss)} MiB`,
    );
    expect(run.problems.slice(0, 10)).toEqual([]);
    expect(run.calls).toBe(CLIENTS * CALLS);
    expect(after.sessions).toBe(0);
    expect(after.sockets).toBeLessThanOrEqual(before.sockets);
    // After a full collection: what 10,000 calls left behind. RSS is printed, not asserted
    // (the allocator keeps freed pages), the live heap must be back near its size.
    expect(after.heap - before.heap).toBeLessThan(20 * 2 ** 20);
  }, 600_000);
});
