// The HTTP transport as an attacker meets it: raw requests with a forged Host, a foreign
// Origin, a malformed or missing Authorization, someone else's session id, and a flood of
// sessions. The server is the real startHttpServer in front of the real Woodpecker; every
// check is made on both protocol revisions (2025 sessions and 2026 stateless requests).
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/process/config.js';
import { startHttpServer } from '../../runtime/http/httpServer.js';
import { buildRuntime } from '../../runtime/process/buildRuntime.js';
import { harnessInfo } from '../harness/fixtures.js';
import {
  callTool2025,
  callTool2026,
  initialize2025,
  jsonRpcOf,
  loginOf,
  rawRequest,
  rawSocketStatus,
} from './rawMcpHttp.js';

interface TestServer {
  readonly url: string;
  readonly port: number;
  /** 2025 sessions open in the server right now. */
  openSessions(): number;
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

/** A real server on loopback; `serverToken` false leaves WOODPECKER_TOKEN unset (multi-user). */
async function startServer(
  options: { serverToken?: boolean; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const info = harnessInfo();
  const config = loadConfig({
    WOODPECKER_URL: info.url,
    ...(options.serverToken === false ? {} : { WOODPECKER_TOKEN: info.adminToken }),
    ...options.env,
  });
  const runtime = buildRuntime(config);
  const http = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    factory: runtime.factory,
    policy: config.http,
    verifyToken: runtime.verifyToken,
  });
  running.push({ close: async () => (await http.close(), await runtime.close()) });
  const port = Number(new URL(http.url).port);
  return { url: http.url, port, openSessions: () => http.openSessions() };
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The four strings Woodpecker takes for one token: the last base64url character of a
 * JWT's 256-bit signature carries 2 spare low bits, which decoding ignores.
 */
function formsOfToken(token: string): string[] {
  const last = BASE64URL.indexOf(token.at(-1)!);
  expect(last).toBeGreaterThanOrEqual(0);
  return [0, 1, 2, 3].map((low) => token.slice(0, -1) + BASE64URL[(last & ~3) | low]);
}

/** Sends both revisions' requests with extra headers; returns [2025 initialize, 2026 get_current_user]. */
async function bothEras(server: TestServer, headers: Record<string, string>) {
  return [
    await initialize2025(server.url, headers),
    await callTool2026(server.url, 'get_current_user', headers),
  ] as const;
}

describe('Host header (DNS rebinding)', () => {
  it('refuses names that only look like loopback, a wrong port, and no Host at all', async () => {
    const server = await startServer();
    const forged = [
      `127.attacker.example:${server.port}`,
      '127.0.0.1.nip.io',
      `127.0.0.1.nip.io:${server.port}`,
      `localhost.attacker.example:${server.port}`,
      `127.1:${server.port}`,
      `0x7f.0.0.1:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
      `127.0.0.1:${server.port}0`,
      `[::1].attacker.example:${server.port}`,
      `127.0.0.1:${server.port}@attacker.example`,
    ];
    for (const host of forged) {
      const [legacy, modern] = await bothEras(server, { host });
      expect({ host, legacy: legacy.status, modern: modern.status }).toEqual({
        host,
        legacy: 403,
        modern: 403,
      });
      expect(legacy.sessionId).toBeUndefined();
      expect(modern.text).not.toContain(harnessInfo().adminLogin);
    }
    // node:http always writes a Host, so these two are written by hand.
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    const post = (hostLine: string, version: string) =>
      `POST /mcp HTTP/${version}\r\n${hostLine}content-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(initialize)}\r\nconnection: close\r\n\r\n${initialize}`;
    expect(await rawSocketStatus(server.url, post('', '1.0'))).toBe(403);
    expect(await rawSocketStatus(server.url, post('host: \r\n', '1.1'))).toBe(403);
    // The same hand-written request with a proper Host is served (the helper works).
    expect(
      await rawSocketStatus(server.url, post(`host: 127.0.0.1:${server.port}\r\n`, '1.1')),
    ).toBe(200);
  });

  it('serves the loopback literals and localhost, with or without the listening port', async () => {
    const server = await startServer();
    for (const host of [
      `127.0.0.1:${server.port}`,
      '127.0.0.1',
      `localhost:${server.port}`,
      `LocalHost:${server.port}`,
      `127.3.2.1:${server.port}`,
      `[::1]:${server.port}`,
    ]) {
      const [legacy, modern] = await bothEras(server, { host });
      expect({ host, legacy: legacy.status }).toEqual({ host, legacy: 200 });
      expect({ host, login: loginOf(modern) }).toEqual({ host, login: harnessInfo().adminLogin });
    }
  });

  it('matches configured names exactly (any case, and only on the listening port)', async () => {
    const server = await startServer({
      env: { WOODPECKER_MCP_ALLOWED_HOSTS: 'mcp.internal, ci-bridge.example.com:8443' },
    });
    for (const host of [
      `mcp.internal:${server.port}`,
      'MCP.Internal',
      'ci-bridge.example.com:8443',
    ]) {
      const [legacy, modern] = await bothEras(server, { host });
      expect({ host, legacy: legacy.status, login: loginOf(modern) }).toEqual({
        host,
        legacy: 200,
        login: harnessInfo().adminLogin,
      });
    }
    for (const host of [
      'mcp.internal.attacker.example',
      `evil-mcp.internal:${server.port}`,
      'mcp.internal:1',
      'ci-bridge.example.com',
      `ci-bridge.example.com:${server.port}`,
    ]) {
      const [legacy, modern] = await bothEras(server, { host });
      expect({ host, legacy: legacy.status, modern: modern.status }).toEqual({
        host,
        legacy: 403,
        modern: 403,
      });
    }
  });
});

describe('the web UI link in a question', () => {
  it('is built from WOODPECKER_URL, never from the Host a request names', async () => {
    const server = await startServer({ env: { WOODPECKER_MCP_ALLOWED_HOSTS: 'mcp.internal' } });
    // No dialog capability: the question comes back in the token answer, nothing is sent
    // (delete_repository asks before any read; delete_pipeline reads the pipeline first).
    const response = await callTool2026(
      server.url,
      'delete_repository',
      { host: 'mcp.internal' },
      { repo_id: 424242 },
    );
    expect(response.status).toBe(200);
    const content = jsonRpcOf(response).result?.content as { text: string }[] | undefined;
    const text = content?.map((part) => part.text).join('\n') ?? '';
    expect(text).toContain(
      `Check it in Woodpecker: the settings of repository 424242, ${harnessInfo().url.replace(/\/+$/, '')}/repos/424242/settings`,
    );
    expect(text).not.toContain('mcp.internal');
  });
});

describe('request target', () => {
  it('refuses an absolute-form target that names another host, and keeps serving', async () => {
    const server = await startServer();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const post = (target: string) =>
      `POST ${target} HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
    expect(await rawSocketStatus(server.url, post('http://attacker.example/mcp'))).toBe(400);
    expect(await rawSocketStatus(server.url, post(`http://127.0.0.1:${server.port}/mcp`))).toBe(
      400,
    );
    // The server is still up, and a path-only target is served as usual.
    const [legacy, modern] = await bothEras(server, {});
    expect([legacy.status, modern.status]).toEqual([200, 200]);
  });
});

describe('Origin header (browsers)', () => {
  it('refuses a browser origin that is not allowed, and serves requests without one', async () => {
    const server = await startServer({
      env: { WOODPECKER_MCP_ALLOWED_ORIGINS: 'http://localhost:6274' },
    });
    for (const origin of [
      'http://evil.example',
      'null',
      'http://localhost:6274.evil.example',
      'https://localhost:6274',
      'http://localhost:6275',
      `http://127.0.0.1:${server.port}`,
      'not a url',
    ]) {
      const [legacy, modern] = await bothEras(server, { origin });
      expect({ origin, legacy: legacy.status, modern: modern.status }).toEqual({
        origin,
        legacy: 403,
        modern: 403,
      });
      expect(jsonRpcOf(modern).error?.message).toMatch(/Origin/);
      expect(modern.text).not.toContain(harnessInfo().adminLogin);
    }
    for (const headers of [
      {},
      { origin: 'http://localhost:6274' },
      { origin: 'HTTP://LOCALHOST:6274' },
    ]) {
      const [legacy, modern] = await bothEras(server, headers);
      expect({ headers, legacy: legacy.status, login: loginOf(modern) }).toEqual({
        headers,
        legacy: 200,
        login: harnessInfo().adminLogin,
      });
    }
  });
});

describe('Authorization header', () => {
  const malformed = [
    'Bearer',
    'Bearer ',
    'Bearer a b',
    'Bearer  two-spaces',
    'Token abc',
    'Basic dXNlcjpwYXNz',
    'bearer\ttab',
    '',
  ];

  it.each([
    ['with WOODPECKER_TOKEN set', true],
    ['in multi-user mode', false],
  ])(
    'a malformed header is 401 on both revisions, never the server token (%s)',
    async (_name, serverToken) => {
      const server = await startServer({ serverToken });
      for (const authorization of malformed) {
        const [legacy, modern] = await bothEras(server, { authorization });
        expect({ authorization, legacy: legacy.status, modern: modern.status }).toEqual({
          authorization,
          legacy: 401,
          modern: 401,
        });
        expect(legacy.sessionId).toBeUndefined();
        expect(jsonRpcOf(modern).error?.message).toMatch(/Authorization/);
        expect(modern.text).not.toContain(harnessInfo().adminLogin);
      }
    },
  );

  it('a well-formed bearer token is used in any case of the scheme name', async () => {
    const server = await startServer();
    for (const authorization of [
      `Bearer ${harnessInfo().userToken}`,
      `bearer ${harnessInfo().userToken}`,
    ]) {
      expect(loginOf(await callTool2026(server.url, 'get_current_user', { authorization }))).toBe(
        harnessInfo().userLogin,
      );
    }
  });
});

describe('2025 sessions are bound to the credential that opened them', () => {
  it('in multi-user mode a session id alone, or with another token, runs nothing', async () => {
    const server = await startServer({ serverToken: false });
    const userAuth = { authorization: `Bearer ${harnessInfo().userToken}` };
    const opened = await initialize2025(server.url, userAuth);
    expect(opened.status).toBe(200);
    const sessionId = opened.sessionId!;

    const bare = await callTool2025(server.url, sessionId, 'get_current_user');
    expect(bare.status).toBe(401);
    expect(jsonRpcOf(bare).error?.message).toMatch(/Authorization/);
    const other = await callTool2025(server.url, sessionId, 'get_current_user', {
      authorization: `Bearer ${harnessInfo().adminToken}`,
    });
    expect(other.status).toBe(403);
    const basic = await callTool2025(server.url, sessionId, 'get_current_user', {
      authorization: 'Basic dXNlcjpwYXNz',
    });
    expect(basic.status).toBe(401);
    for (const refused of [bare, other, basic])
      expect(refused.text).not.toContain(harnessInfo().userLogin);
    // Neither a stream nor a close can be had with someone else's credential.
    expect(
      (
        await rawRequest(server.url, {
          headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await rawRequest(server.url, {
          method: 'DELETE',
          headers: {
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
            authorization: `Bearer ${harnessInfo().adminToken}`,
          },
        })
      ).status,
    ).toBe(403);

    // The owner still has the session.
    expect(loginOf(await callTool2025(server.url, sessionId, 'get_current_user', userAuth))).toBe(
      harnessInfo().userLogin,
    );
  });

  it('with WOODPECKER_TOKEN set, a session opened without Authorization refuses a bearer token and the reverse', async () => {
    const server = await startServer();
    const serverSession = (await initialize2025(server.url)).sessionId!;
    const userAuth = { authorization: `Bearer ${harnessInfo().userToken}` };
    expect(
      (await callTool2025(server.url, serverSession, 'get_current_user', userAuth)).status,
    ).toBe(403);
    expect(loginOf(await callTool2025(server.url, serverSession, 'get_current_user'))).toBe(
      harnessInfo().adminLogin,
    );

    const userSession = (await initialize2025(server.url, userAuth)).sessionId!;
    const bare = await callTool2025(server.url, userSession, 'get_current_user');
    expect(bare.status).toBe(401);
    expect(bare.text).not.toContain(harnessInfo().adminLogin);
    expect(loginOf(await callTool2025(server.url, userSession, 'get_current_user', userAuth))).toBe(
      harnessInfo().userLogin,
    );
  });

  it('a token Woodpecker does not accept opens no session', async () => {
    const server = await startServer({ serverToken: false });
    const refused = await initialize2025(server.url, {
      authorization: 'Bearer not-a-woodpecker-token',
    });
    expect(refused.status).toBe(401);
    expect(refused.sessionId).toBeUndefined();
    expect(jsonRpcOf(refused).error?.message).toMatch(/Woodpecker/);
    expect(refused.text).not.toContain('not-a-woodpecker-token');
  });
});

describe('session limits', () => {
  it('one credential opening many sessions evicts its own oldest, and another credential still gets one', async () => {
    const server = await startServer({
      env: { WOODPECKER_MCP_MAX_SESSIONS: '6', WOODPECKER_MCP_SESSIONS_PER_TOKEN: '3' },
    });
    const flood: string[] = [];
    for (let i = 0; i < 20; i++) {
      const opened = await initialize2025(server.url);
      expect(opened.status).toBe(200);
      flood.push(opened.sessionId!);
    }
    // Only the newest three are still open.
    const statuses = [];
    for (const id of flood)
      statuses.push((await callTool2025(server.url, id, 'get_current_user')).status);
    expect(statuses).toEqual([...Array<number>(17).fill(404), 200, 200, 200]);

    const userAuth = { authorization: `Bearer ${harnessInfo().userToken}` };
    const other = await initialize2025(server.url, userAuth);
    expect(other.status).toBe(200);
    expect(
      loginOf(await callTool2025(server.url, other.sessionId!, 'get_current_user', userAuth)),
    ).toBe(harnessInfo().userLogin);
  });

  it('with the default limits, a flood of anonymous sessions keeps 20 open and leaves room for others', async () => {
    const server = await startServer();
    const flood: string[] = [];
    for (let i = 0; i < 200; i++) flood.push((await initialize2025(server.url)).sessionId!);
    const open: string[] = [];
    for (const id of flood) {
      const ping = await rawRequest(server.url, {
        headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      });
      if (ping.status === 200) open.push(id);
    }
    expect(open).toEqual(flood.slice(-20));
    const userAuth = { authorization: `Bearer ${harnessInfo().userToken}` };
    const other = await initialize2025(server.url, userAuth);
    expect(
      loginOf(await callTool2025(server.url, other.sessionId!, 'get_current_user', userAuth)),
    ).toBe(harnessInfo().userLogin);
  });

  it('a credential whose sessions are all busy is refused alone', async () => {
    const server = await startServer({
      env: { WOODPECKER_MCP_MAX_SESSIONS: '6', WOODPECKER_MCP_SESSIONS_PER_TOKEN: '2' },
    });
    const streams = [];
    try {
      for (let i = 0; i < 2; i++) {
        const id = (await initialize2025(server.url)).sessionId!;
        // An open GET stream keeps a session busy: it is in use, not idle.
        streams.push(
          await rawRequest(server.url, {
            keepOpen: true,
            headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
          }),
        );
      }
      const third = await initialize2025(server.url);
      expect(third.status).toBe(429);
      expect(jsonRpcOf(third).error?.message).toMatch(/sessions/);
      const userAuth = { authorization: `Bearer ${harnessInfo().userToken}` };
      expect((await initialize2025(server.url, userAuth)).status).toBe(200);
      // Once a stream ends its session is idle again, and the credential's next session replaces it.
      streams.shift()!.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await initialize2025(server.url)).status).toBe(200);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it("at the server-wide limit a new session gets 503 and nobody else's session is closed", async () => {
    // The setting of the security test that reported a victim's session closed.
    const server = await startServer({
      serverToken: false,
      env: {
        WOODPECKER_MCP_SESSIONS_PER_TOKEN: '3',
        WOODPECKER_MCP_MAX_SESSIONS: '5',
        WOODPECKER_MCP_SESSION_IDLE_SECONDS: '20',
      },
    });
    const victimAuth = { authorization: `Bearer ${harnessInfo().userToken}` };
    const victim = (await initialize2025(server.url, victimAuth)).sessionId!;
    expect(loginOf(await callTool2025(server.url, victim, 'get_current_user', victimAuth))).toBe(
      harnessInfo().userLogin,
    );
    // Two other accounts fill the server: the admin's three, then anonymous clients.
    const adminAuth = { authorization: `Bearer ${harnessInfo().adminToken}` };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await initialize2025(server.url, adminAuth)).status);
    for (let i = 0; i < 3; i++) statuses.push((await initialize2025(server.url)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 503, 503]);
    expect(server.openSessions()).toBe(5);
    // An account at its own cap still trades its own longest-idle session for a new one.
    expect((await initialize2025(server.url, adminAuth)).status).toBe(200);
    expect(server.openSessions()).toBe(5);
    expect(loginOf(await callTool2025(server.url, victim, 'get_current_user', victimAuth))).toBe(
      harnessInfo().userLogin,
    );
  });

  it('the per-token limit counts per account: the forms of one token share it, and stay bound apart', async () => {
    const server = await startServer({
      serverToken: false,
      env: { WOODPECKER_MCP_SESSIONS_PER_TOKEN: '3', WOODPECKER_MCP_MAX_SESSIONS: '20' },
    });
    const forms = formsOfToken(harnessInfo().userToken);
    expect(new Set(forms).size).toBe(4);
    const opened: { id: string; auth: Record<string, string> }[] = [];
    for (const form of forms) {
      for (let i = 0; i < 2; i++) {
        const auth = { authorization: `Bearer ${form}` };
        const session = await initialize2025(server.url, auth);
        // Woodpecker accepts every form (else this would be 401).
        expect(session.status).toBe(200);
        opened.push({ id: session.sessionId!, auth });
      }
    }
    const statuses: number[] = [];
    for (const { id, auth } of opened)
      statuses.push((await callTool2025(server.url, id, 'get_current_user', auth)).status);
    // Eight opened, three open: the account's newest.
    expect(statuses).toEqual([404, 404, 404, 404, 404, 200, 200, 200]);
    expect(server.openSessions()).toBe(3);
    // A session answers only the exact string that opened it, not another form of it.
    const [, , , , , mine, , theirs] = opened; // the third form's and the fourth's
    expect(
      (await callTool2025(server.url, mine!.id, 'get_current_user', theirs!.auth)).status,
    ).toBe(403);
  });

  it('closes a session left idle longer than WOODPECKER_MCP_SESSION_IDLE_SECONDS, and keeps one in use', async () => {
    const server = await startServer({ env: { WOODPECKER_MCP_SESSION_IDLE_SECONDS: '2' } });
    const idle = (await initialize2025(server.url)).sessionId!;
    const used = (await initialize2025(server.url)).sessionId!;
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await callTool2025(server.url, used, 'get_current_user')).status).toBe(200);
    }
    const expired = await callTool2025(server.url, idle, 'get_current_user');
    expect(expired.status).toBe(404);
    expect(jsonRpcOf(expired).error?.message).toMatch(/initialize again/);
  });
});
