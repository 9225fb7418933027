// How the HTTP transport reads a request body and writes an answer (runtime/serve/nodeBridge.ts):
// a body is refused over the SDK's size limit or when it is not JSON, a JSON answer goes out
// whole with its length, and a 2025 answer still streams as SSE.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REQUEST_BODY_SIZE, McpServer } from '@modelcontextprotocol/server';
import { startHttpServer, type RunningHttpServer } from '../../runtime/serve/http.js';

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
    const body = Buffer.alloc(DEFAULT_MAX_REQUEST_BODY_SIZE + 1, 0x20);
    const answer = await post(url, body, { chunked });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`,
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
});
