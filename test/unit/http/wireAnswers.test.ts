// What a client library reads on the wire (issue 33, items 4 and 7): which revision an old
// initialize is answered with, and each error code and message as the revision's spec has
// them. The whole server runs in this process as main.ts wires it, without a Woodpecker:
// nothing here reaches one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtime/process/config.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { jsonRpcOf, rawRequest, type RawResponse } from '../../e2e/rawMcpHttp.js';

let running: RunningHttpServer;
beforeAll(async () => {
  const runtime = buildRuntime(loadConfig({}));
  running = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
});
afterAll(() => running.close());

const CLIENT = { name: 'wire-test', version: '1' };

async function initialize(protocolVersion: string): Promise<RawResponse> {
  return rawRequest(running.url, {
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: CLIENT },
    },
  });
}

async function session(): Promise<Record<string, string>> {
  const opened = await initialize('2025-11-25');
  const headers = {
    'mcp-session-id': String(opened.headers['mcp-session-id']),
    'mcp-protocol-version': '2025-11-25',
  };
  await rawRequest(running.url, {
    headers,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  return headers;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': CLIENT,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function modern(method: string, params: Record<string, unknown>, name?: string) {
  return rawRequest(running.url, {
    headers: {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: { jsonrpc: '2.0', id: 5, method, params: { ...params, _meta: MODERN_META } },
  });
}

/** -32000…-32019: implementation-defined on 2025, not to be answered on 2026-07-28. */
const inReservedRange = (code: number | undefined) =>
  code !== undefined && code <= -32000 && code >= -32019;

describe('revisions', () => {
  it.each([['2024-11-05'], ['2025-03-26']])(
    'an initialize with %s, which lacks structuredContent, resource_link and elicitation, is answered with 2025-11-25',
    async (asked) => {
      const answer = jsonRpcOf(await initialize(asked));
      expect(answer.result?.protocolVersion).toBe('2025-11-25');
    },
  );

  it('2025-06-18, the oldest with every feature the answers use, is served as asked', async () => {
    expect(jsonRpcOf(await initialize('2025-06-18')).result?.protocolVersion).toBe('2025-06-18');
  });
});

describe('errors as the spec says', () => {
  it('a missing resource is -32002 on 2025-11-25', async () => {
    const headers = await session();
    const answer = jsonRpcOf(
      await rawRequest(running.url, {
        headers,
        body: {
          jsonrpc: '2.0',
          id: 3,
          method: 'resources/read',
          params: { uri: 'woodpecker://nothing/here' },
        },
      }),
    );
    expect(answer.error?.code).toBe(-32002);
  });

  it('an HTTP-level refusal echoes the id of the request it read', async () => {
    const refused = await rawRequest(running.url, {
      headers: { 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 41, method: 'tools/list' },
    });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.text)).toMatchObject({ id: 41 });
  });

  it('2026-07-28 answers carry no code in -32000…-32019, refusals included', async () => {
    const malformed = await rawRequest(running.url, {
      headers: {
        authorization: 'Basic dXNlcjpwYXNz',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: MODERN_META } },
    });
    expect(malformed.status).toBe(401);
    expect(jsonRpcOf(malformed).error?.code).not.toSatisfy(inReservedRange);
    const get = await rawRequest(running.url, {
      method: 'GET',
      headers: { 'mcp-protocol-version': '2026-07-28', accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(jsonRpcOf(get).error?.code).not.toSatisfy(inReservedRange);
  });

  it('an invalid cursor is -32602 on both revisions', async () => {
    const headers = await session();
    const old = jsonRpcOf(
      await rawRequest(running.url, {
        headers,
        body: { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'not-ours' } },
      }),
    );
    expect(old.error?.code).toBe(-32602);
    expect(old.error?.message).toContain('cursor');
    const fresh = jsonRpcOf(await modern('tools/list', { cursor: 'not-ours' }));
    expect(fresh.error?.code).toBe(-32602);
  });

  it('"arguments": null gets one sentence naming arguments, on both revisions', async () => {
    const headers = await session();
    const call = { name: 'get_current_user', arguments: null };
    const answers = [
      jsonRpcOf(
        await rawRequest(running.url, {
          headers,
          body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: call },
        }),
      ),
      jsonRpcOf(await modern('tools/call', call, 'get_current_user')),
    ];
    for (const answer of answers) {
      expect(answer.error?.code).toBe(-32602);
      const message = answer.error?.message ?? '';
      expect(message).toMatch(/^arguments /);
      expect(message).not.toContain('\n');
      expect(message.length).toBeLessThan(200);
    }
  });
});
