// How the HTTP transport reads a request body and writes an answer (runtime/http/nodeBridge.ts):
// a body is refused over the SDK's size limit or when it is not JSON, a JSON answer goes out
// whole with its length, and a 2025 answer still streams as SSE.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { BODY_BYTES_IN_FLIGHT, MAX_REQUEST_BODY_BYTES } from '../../../runtime/http/nodeBridge.js';
import { connect } from 'node:net';
import { rawSocketStatus } from '../../e2e/rawMcpHttp.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(): Promise<URL> {
  running = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    factory: () => new McpServer({ name: 'bodies-test', version: '1' }),
  });
  return new URL(running.url);
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** A POST whose body is sent as given: declared with Content-Length, or chunked. */
function post(
  url: URL,
  body: string | Buffer,
  options: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(options.chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    // The server may answer and close before a refused body is all sent.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (options.chunked) {
      const half = Math.ceil(body.length / 2);
      req.write(body.slice(0, half));
      req.end(body.slice(half));
    } else req.end(body);
  });
}

const MODERN = '2026-07-28';
const discover = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const modernHeaders = { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' };

describe('HTTP request bodies and answers', () => {
  it('a 2026-07-28 JSON answer goes out whole, with its Content-Length', async () => {
    const url = await serve();
    const answer = await post(url, discover, { headers: modernHeaders });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
    expect(JSON.parse(answer.text)).toMatchObject({
      id: 1,
      result: { supportedVersions: [MODERN] },
    });
  });

  it('the same answer comes when the body arrives in pieces', async () => {
    const url = await serve();
    const answer = await post(url, discover, { headers: modernHeaders, chunked: true });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ id: 1 });
  });

  it('a 2025 initialize is answered as an event stream with its session id', async () => {
    const url = await serve();
    const answer = await post(
      url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        },
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    const data = /^data: (.*)$/m.exec(answer.text)?.[1];
    expect(JSON.parse(data ?? 'null')).toMatchObject({
      id: 7,
      result: { protocolVersion: '2025-11-25' },
    });
  });

  it.each([
    ['declared with Content-Length', false],
    ['sent chunked', true],
  ])('a body over the size limit, %s, is refused with 413', async (_how, chunked) => {
    const url = await serve();
    const body = Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 0x20);
    const answer = await post(url, body, { chunked });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Payload Too Large: Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`,
      },
    });
  });

  it.each([
    ['not JSON', '{"jsonrpc": "2.0", '],
    ['empty', ''],
  ])('a body that is %s is refused with 400 and a parse error', async (_what, body) => {
    const url = await serve();
    const answer = await post(url, body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32700 } });
  });

  it('an SSE answer does not override the connection: close the client asked for', async () => {
    const url = await serve();
    const answer = await post(
      url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'test', version: '1' },
        },
      }),
      { headers: { connection: 'close' } },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.headers.connection).toBe('close');
  });
});

/**
 * Raw bytes on one socket that stays open for more (rawSocketStatus sends a request whole);
 * resolves with the status once the server answers.
 */
function rawSocket(
  url: URL,
  head: string,
): { send(bytes: Buffer | string): void; status: Promise<string>; close(): void } {
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  let seen = '';
  const status = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      const line = /^HTTP\/1\.1 (\d{3})/.exec(seen);
      if (line) resolve(line[1]!);
    });
    socket.on('close', () => resolve(seen.slice(0, 12) || 'closed'));
  });
  socket.write(head);
  return { send: (bytes) => socket.write(bytes), status, close: () => socket.destroy() };
}

describe('HTTP framing the server will not guess at', () => {
  const head = (url: URL, lines: string[], method = 'POST') =>
    [`${method} /mcp HTTP/1.1`, `host: ${url.host}`, ...lines, '', ''].join('\r\n');

  it.each([
    ['TRACE', [], 405],
    ['PUT', ['content-length: 2'], 405],
    ['POST', ['authorization: Bearer a', 'authorization: Bearer b', 'content-length: 2'], 400],
    ['POST', ['mcp-session-id: a', 'mcp-session-id: b', 'content-length: 2'], 400],
    ['POST', ['content-encoding: gzip', 'content-length: 2'], 415],
    ['POST', ['transfer-encoding: gzip, chunked'], 501],
  ] as const)('%s with %j is refused with %s', async (method, lines, expected) => {
    const url = await serve();
    const body = method === 'TRACE' ? '' : '{}';
    expect(await rawSocketStatus(url.href, head(url, [...lines], method) + body)).toBe(expected);
  });

  it('a second Host header is refused, not resolved to the first', async () => {
    const url = await serve();
    const request = head(url, ['host: attacker.example', 'content-length: 2']) + '{}';
    expect(await rawSocketStatus(url.href, request)).toBe(400);
  });

  it('bodies held open by slow clients stop at the server-wide budget, and the budget comes back', async () => {
    const url = await serve();
    const holders = Math.floor(BODY_BYTES_IN_FLIGHT / MAX_REQUEST_BODY_BYTES);
    const held = [];
    for (let index = 0; index < holders; index++) {
      const socket = rawSocket(url, head(url, [`content-length: ${MAX_REQUEST_BODY_BYTES}`]));
      socket.send(Buffer.alloc(MAX_REQUEST_BODY_BYTES - 1, 0x20));
      held.push(socket);
    }
    // Let the server take in what was sent before the next one asks for more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = rawSocket(url, head(url, ['content-length: 4096']));
    refused.send(Buffer.alloc(4096, 0x20));
    expect(await refused.status).toBe('503');
    for (const socket of held) socket.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = await post(url, discover, { headers: modernHeaders });
    expect(answer.status).toBe(200);
  });
});
