// A lean MCP client for the throughput figure: JSON-RPC over undici, following the protocol
// as the SDK Client does (2025-11-25: initialize, notifications/initialized, the session id
// and protocol version on every request, an SSE answer; 2026-07-28: server/discover, then
// each request stateless with its _meta envelope and MCP-Method/MCP-Name headers).
// The SDK Client spends about 1.1 ms of CPU more per call than an undici GET (Node's fetch,
// web streams, SSE parsing); 50 of them in the bench process took more of the two cores
// than the server did, so the figure measured the client. The per-call figure keeps the
// SDK Client: one user's call is what it times.
import { request, type Dispatcher } from 'undici';
import type { Revision } from './serverProcess.js';

const CLIENT_INFO = { name: 'woodpecker-ci-mcp-bench-lean', version: '1.0.0' };

export interface LeanCallResult {
  readonly isError: boolean;
  readonly text: string;
}

export interface LeanMcpClient {
  callTool(name: string, args: Record<string, unknown>): Promise<LeanCallResult>;
  close(): Promise<void>;
}

interface JsonRpcAnswer {
  readonly result?: { isError?: boolean; content?: { text?: string }[] };
  readonly error?: { code: number; message: string };
}

export async function connectLean(
  url: string,
  revision: Revision,
  dispatcher: Dispatcher,
): Promise<LeanMcpClient> {
  let nextId = 0;
  let sessionId: string | undefined;
  const post = async (
    message: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; answer: JsonRpcAnswer | undefined; headers: Headers }> => {
    const answer = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      dispatcher,
    });
    const text = await answer.body.text();
    const received = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      if (typeof value === 'string') received.set(name, value);
    return { status: answer.statusCode, answer: parseAnswer(text, received), headers: received };
  };
  const expectResult = (status: number, answer: JsonRpcAnswer | undefined, what: string) => {
    if (status >= 300 || !answer?.result)
      throw new Error(`${what}: HTTP ${status} ${JSON.stringify(answer?.error ?? answer)}`);
    return answer.result;
  };

  if (revision === '2025-11-25') {
    const opened = await post({
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: {}, clientInfo: CLIENT_INFO },
    });
    expectResult(opened.status, opened.answer, 'initialize');
    sessionId = opened.headers.get('mcp-session-id') ?? undefined;
    if (!sessionId) throw new Error('initialize: no Mcp-Session-Id');
    const versioned = { 'mcp-protocol-version': revision };
    const initialized = await post({ method: 'notifications/initialized' }, versioned);
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
    return {
      callTool: async (name, args) => {
        const { status, answer } = await post(
          { id: nextId++, method: 'tools/call', params: { name, arguments: args } },
          versioned,
        );
        return toolResult(expectResult(status, answer, name));
      },
      close: async () => {
        const closed = await request(url, {
          method: 'DELETE',
          headers: { 'mcp-session-id': sessionId!, ...versioned },
          dispatcher,
        });
        await closed.body.dump();
      },
    };
  }

  const meta = {
    'io.modelcontextprotocol/protocolVersion': revision,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const modern = (method: string, name?: string) => ({
    'mcp-protocol-version': revision,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  });
  const discovered = await post(
    { id: nextId++, method: 'server/discover', params: { _meta: meta } },
    modern('server/discover'),
  );
  expectResult(discovered.status, discovered.answer, 'server/discover');
  return {
    callTool: async (name, args) => {
      const { status, answer } = await post(
        {
          id: nextId++,
          method: 'tools/call',
          params: { name, arguments: args, _meta: meta },
        },
        modern('tools/call', name),
      );
      return toolResult(expectResult(status, answer, name));
    },
    close: async () => undefined,
  };
}

/** The JSON-RPC answer in a JSON body or in the last `data:` event of an SSE body. */
function parseAnswer(text: string, headers: Headers): JsonRpcAnswer | undefined {
  if (text.length === 0) return undefined;
  if (!(headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return JSON.parse(text) as JsonRpcAnswer;
  let answer: JsonRpcAnswer | undefined;
  for (const event of text.split('\n\n')) {
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data) answer = JSON.parse(data) as JsonRpcAnswer;
  }
  return answer;
}

function toolResult(result: NonNullable<JsonRpcAnswer['result']>): LeanCallResult {
  return { isError: result.isError === true, text: result.content?.[0]?.text ?? '' };
}
