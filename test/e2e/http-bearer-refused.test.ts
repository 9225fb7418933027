// A Bearer token that Woodpecker rejects, as a client sees it on each revision (issue 33,
// item 8): 2025 refused it at initialize with 401, while 2026-07-28 answered
// server/discover and listed all 76 tools (admin-only ones too) and then failed every
// call. Both refuse it now, alike, before anything is served; a good token still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessInfo } from '../harness/fixtures.js';
import { startHttpServerProcess, type HttpServerProcess } from './httpServerProcess.js';
import { callTool2026, initialize2025, jsonRpcOf, rawRequest } from './rawMcpHttp.js';

let server: HttpServerProcess;
beforeAll(async () => {
  // No WOODPECKER_TOKEN: every request brings its own, as in multi-user mode.
  server = await startHttpServerProcess();
});
afterAll(() => server?.stop());

const REJECTED = { authorization: 'Bearer not-a-woodpecker-token-0123456789' };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bearer-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function modern(method: string, headers: Record<string, string>) {
  return rawRequest(server.url, {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...headers },
    body: { jsonrpc: '2.0', id: 2, method, params: { _meta: META } },
  });
}

describe('a Bearer token Woodpecker rejects', () => {
  it('is refused with 401 on 2025-11-25 and on 2026-07-28 alike', async () => {
    const old = await initialize2025(server.url, REJECTED);
    const answers = [
      old,
      await modern('server/discover', REJECTED),
      await modern('tools/list', REJECTED),
      await callTool2026(server.url, 'get_current_user', REJECTED),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(jsonRpcOf(answer).error?.message).toBe(jsonRpcOf(old).error?.message);
    }
  });

  it('while a token Woodpecker accepts is served on 2026-07-28', async () => {
    const good = { authorization: `Bearer ${harnessInfo().userToken}` };
    const listed = await modern('tools/list', good);
    expect(listed.status).toBe(200);
    expect((jsonRpcOf(listed).result?.tools as unknown[]).length).toBeGreaterThan(0);
    const called = await callTool2026(server.url, 'get_current_user', good);
    expect(called.status).toBe(200);
  });
});
