// The refusal steps of the HTTP transport (runtime/http/requestSteps.ts), met in their
// order: each request below fails its own step and every step after it, so it must be
// answered by its own step. A step moved later, or one that reads the request before an
// earlier one refused it, changes which refusal comes back.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { STEP_ORDER } from '../../../runtime/http/requestSteps.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Lets the held call answer; set while a "hold" call is under way. */
let release: (() => void) | undefined;

async function serve(): Promise<URL> {
  running = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    policy: {
      allowedHosts: [],
      allowedOrigins: ['http://localhost:6274'],
      sessions: { idleMs: 60_000, maxSessions: 10, perAccount: 5 },
    },
    factory: () => {
      const server = new McpServer({ name: 'steps-test', version: '1' });
      // A call that stays under way until the test lets it finish.
      server.registerTool(
        'hold',
        { description: 'Answers when the test releases it.' },
        async () => {
          await new Promise<void>((resolve) => (release = resolve));
          release = undefined;
          return { content: [{ type: 'text', text: 'released' }] };
        },
      );
      return server;
    },
  });
  return new URL(running.url);
}

interface RawAnswer {
  readonly status: number;
  readonly text: string;
}

interface Exchange {
  /** Every answer on the connection, once the server has closed it. */
  readonly answers: Promise<RawAnswer[]>;
  write(bytes: string): void;
}

/** Opens a socket, writes `bytes`, and collects every answer until the server closes it. */
function exchange(url: URL, bytes: string): Exchange {
  let seen = '';
  const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
  const answers = new Promise<RawAnswer[]>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        seen
          .split(/(?=HTTP\/1\.1 \d{3} )/)
          .filter((part) => part.startsWith('HTTP/1.1'))
          .map((part) => ({ status: Number(part.slice(9, 12)), text: part })),
      ),
    );
  });
  return { answers, write: (more) => socket.write(more) };
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

function head(
  url: URL,
  options: { method?: string; target?: string; lines?: string[]; body?: string },
): string {
  const body = options.body ?? '';
  return [
    `${options.method ?? 'POST'} ${options.target ?? '/mcp'} HTTP/1.1`,
    ...(options.lines ?? [`host: ${url.host}`]),
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'steps-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const holdCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'hold', arguments: {}, _meta: MODERN_META },
});
const modernLines = (url: URL) => [
  `host: ${url.host}`,
  'mcp-protocol-version: 2026-07-28',
  'mcp-method: tools/call',
  'mcp-name: hold',
];

/** Each row: a request that fails `step` and every step after it, and the answer it gets. */
const ROWS: readonly {
  step: (typeof STEP_ORDER)[number];
  request: (url: URL) => string;
  status: number;
  says: RegExp;
}[] = [
  {
    step: 'framing',
    request: (url) =>
      head(url, {
        method: 'PUT',
        target: 'http://attacker.example/elsewhere',
        lines: [
          'host: attacker.example',
          'origin: http://evil.example',
          'authorization: Token x',
          'mcp-session-id: unknown',
        ],
        body: '{not json',
      }),
    status: 405,
    says: /Method PUT is not allowed/,
  },
  {
    step: 'host',
    request: (url) =>
      head(url, {
        target: 'http://attacker.example/elsewhere',
        lines: [
          'host: attacker.example',
          'origin: http://evil.example',
          'authorization: Token x',
          'mcp-session-id: unknown',
        ],
        body: '{not json',
      }),
    status: 403,
    says: /Host not allowed/,
  },
  {
    step: 'origin',
    request: (url) =>
      head(url, {
        target: 'http://attacker.example/elsewhere',
        lines: [
          `host: ${url.host}`,
          'origin: http://evil.example',
          'authorization: Token x',
          'mcp-session-id: unknown',
        ],
        body: '{not json',
      }),
    status: 403,
    says: /Origin not allowed/,
  },
  {
    step: 'target',
    request: (url) =>
      head(url, {
        target: 'http://attacker.example/elsewhere',
        lines: [`host: ${url.host}`, 'authorization: Token x', 'mcp-session-id: unknown'],
        body: '{not json',
      }),
    status: 400,
    says: /request target must be a path/,
  },
  {
    step: 'path',
    request: (url) =>
      head(url, {
        target: '/elsewhere',
        lines: [`host: ${url.host}`, 'authorization: Token x', 'mcp-session-id: unknown'],
        body: '{not json',
      }),
    status: 404,
    says: /The MCP endpoint is \/mcp/,
  },
  {
    step: 'authorization',
    request: (url) =>
      head(url, {
        lines: [`host: ${url.host}`, 'authorization: Token x', 'mcp-session-id: unknown'],
        body: '{not json',
      }),
    status: 401,
    says: /not a bearer token/,
  },
  {
    step: 'body',
    request: (url) =>
      head(url, { lines: [`host: ${url.host}`, 'mcp-session-id: unknown'], body: '{not json' }),
    status: 400,
    says: /not valid JSON/,
  },
  {
    step: 'session',
    request: (url) =>
      head(url, {
        lines: [`host: ${url.host}`, 'mcp-session-id: unknown'],
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
    status: 404,
    says: /Unknown or expired session/,
  },
];

describe('the HTTP refusal steps, in order', () => {
  it('has a row for every step that refuses on its own, in the order of STEP_ORDER', () => {
    // "draining" has its own test below; "under way" counts the call and refuses nothing.
    expect(ROWS.map((row) => row.step)).toEqual(
      STEP_ORDER.filter((step) => step !== 'draining' && step !== 'under way'),
    );
  });

  it.each(ROWS)(
    'a request failing $step and every later step is refused by $step ($status)',
    async ({ request, status, says }) => {
      const url = await serve();
      const answers = await exchange(url, request(url)).answers;
      expect(answers).toHaveLength(1);
      expect(answers[0]!.status).toBe(status);
      expect(answers[0]!.text).toMatch(says);
    },
  );

  it('a request that passes every step is served', async () => {
    const url = await serve();
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'steps-test', version: '1' },
      },
    });
    const answers = await exchange(url, head(url, { body: initialize })).answers;
    expect(answers.map((answer) => answer.status)).toEqual([200]);
    expect(answers[0]!.text).toMatch(/mcp-session-id: /i);
  });

  it('while the server drains, a new request on an open connection gets 503 and the call under way still finishes', async () => {
    const url = await serve();
    // Two requests on one keep-alive connection: the call that holds, then one sent after
    // shutdown began (the connection is busy, so shutdown does not close it).
    const first = head(url, { lines: modernLines(url), body: holdCall }).replace(
      'connection: close',
      'connection: keep-alive',
    );
    const connection = exchange(url, first);
    await waitFor(() => release !== undefined);
    const stopping = running!.shutdown(10_000);
    connection.write(head(url, { lines: modernLines(url), body: holdCall }));
    // The server has the second request before the first is let go.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release!();
    const answers = await connection.answers;
    await stopping;
    running = undefined;
    expect(answers.map((answer) => answer.status)).toEqual([200, 503]);
    expect(answers[0]!.text).toContain('released');
    expect(answers[1]!.text).toContain('The server is shutting down.');
  });
});
