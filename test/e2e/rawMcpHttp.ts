// Raw HTTP against the MCP endpoint, the way an attacker or a careless client would send it:
// any Host, Origin or Authorization header, no SDK in between to tidy things up.
// node:http is used because fetch refuses to set Host.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

export interface RawRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** Leave the request open (a GET stream) and resolve once its status line has arrived. */
  readonly keepOpen?: boolean;
}

export interface OpenStream {
  readonly status: number;
  close(): void;
}

export function rawRequest(
  url: string,
  options: RawRequest & { keepOpen: true },
): Promise<OpenStream>;
export function rawRequest(url: string, options?: RawRequest): Promise<RawResponse>;
export function rawRequest(
  url: string,
  options: RawRequest = {},
): Promise<RawResponse | OpenStream> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        agent: false,
      },
      (res) => {
        if (options.keepOpen) {
          res.on('error', () => undefined);
          res.resume();
          resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC message of an answer sent as JSON or as one SSE event. */
export function jsonRpcOf(response: RawResponse): {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
} {
  const text = response.text.trim();
  if (text.startsWith('{')) return JSON.parse(text) as never;
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim())
    .filter((line) => line.startsWith('{'));
  if (data.length === 0)
    throw new Error(`no JSON-RPC message in answer ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(data[data.length - 1]!) as never;
}

const CLIENT_INFO = { name: 'raw-http-test', version: '1' };

/** A 2025-11-25 initialize; returns the answer and the session id the server gave. */
export async function initialize2025(
  url: string,
  headers: Record<string, string> = {},
): Promise<RawResponse & { sessionId: string | undefined }> {
  const response = await rawRequest(url, {
    headers,
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
    },
  });
  const sessionId = response.headers['mcp-session-id'];
  if (response.status === 200 && typeof sessionId === 'string') {
    await rawRequest(url, {
      headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
  }
  return { ...response, sessionId: typeof sessionId === 'string' ? sessionId : undefined };
}

export function callTool2025(
  url: string,
  sessionId: string,
  name: string,
  headers: Record<string, string> = {},
  args: Record<string, unknown> = {},
): Promise<RawResponse> {
  return rawRequest(url, {
    headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
}

/** A stateless 2026-07-28 tools/call: everything the server needs travels in _meta. */
export function callTool2026(
  url: string,
  name: string,
  headers: Record<string, string> = {},
  args: Record<string, unknown> = {},
): Promise<RawResponse> {
  return rawRequest(url, {
    headers: {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...headers,
    },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
  });
}

/** The login get_current_user answered with, or undefined when the call did not run. */
export function loginOf(response: RawResponse): string | undefined {
  if (response.status !== 200) return undefined;
  const message = jsonRpcOf(response);
  const structured = message.result?.structuredContent as { login?: string } | undefined;
  return structured?.login;
}

/**
 * A request written by hand on a socket, for what node:http will not send (no Host, an
 * empty Host). Returns the status code.
 */
export function rawSocketStatus(url: string, head: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname, () => socket.end(head));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      if (match) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`no status line in ${JSON.stringify(answer.slice(0, 100))}`)),
    );
  });
}
