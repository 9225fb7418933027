// A small HTTP proxy of our own between woodpecker-ci-mcp and the real Woodpecker. It
// records every request that reaches it and the status Woodpecker gave, so a test can
// prove that nothing (or nothing malformed) was sent, and it can answer chosen requests
// itself with the ways a server, a proxy or a network fails: error statuses, HTML,
// redirects, resets, bodies that never end or are huge, slow drips.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
}

export interface AnsweredRequest extends SeenRequest {
  /** The status Woodpecker answered with. */
  readonly status: number;
  readonly contentType: string;
}

/**
 * How the proxy answers a matching request instead of Woodpecker:
 * - `error`: 500 with a short text; `stall`: never answers at all;
 * - `empty-500`, `bad-gateway` (502 as nginx words it), `html-404`, `html-200`, `redirect`;
 * - `reset-mid-body`: 200 with half a JSON document, then the connection is cut;
 * - `endless-body`: 200 and a JSON array that never ends (a chunk every 100 ms);
 * - `huge-json`: a 50 MB JSON array (under the default body ceiling);
 * - `slow-drip`: 200 and one byte of a small JSON answer every 300 ms;
 * - `reset-after-read`: reads the whole request, then cuts the connection without an answer
 *   (from the client's side: sent, outcome unknown).
 */
export type FaultAnswer =
  | 'error'
  | 'stall'
  | 'empty-500'
  | 'bad-gateway'
  | 'html-404'
  | 'html-200'
  | 'redirect'
  | 'reset-mid-body'
  | 'endless-body'
  | 'huge-json'
  | 'slow-drip'
  | 'reset-after-read';

export const ALL_FAULTS: readonly FaultAnswer[] = [
  'empty-500',
  'bad-gateway',
  'html-404',
  'html-200',
  'redirect',
  'reset-mid-body',
  'endless-body',
  'huge-json',
  'slow-drip',
  'reset-after-read',
];

export interface Fault {
  /** Which requests fail, e.g. GET /api/repos/{id} only. */
  readonly matches: (request: SeenRequest) => boolean;
  readonly answer: FaultAnswer;
}

export interface FaultProxy {
  readonly url: string;
  /** Every request forwarded to Woodpecker, in order (failed ones are not forwarded). */
  readonly forwarded: SeenRequest[];
  /** Every forwarded request with Woodpecker's status, in the order the answers came. */
  readonly answered: AnsweredRequest[];
  /** Every request that met the fault instead. */
  readonly faulted: SeenRequest[];
  fault: Fault | undefined;
  close(): Promise<void>;
}

/** GET /api/repos/{id}: the lookup behind WOODPECKER_REPOS, and nothing else. */
export const repositoryLookup = (request: SeenRequest): boolean =>
  request.method === 'GET' && /^\/api\/repos\/\d+$/.test(request.path.split('?')[0] ?? '');

const HTML_PAGE =
  '<!doctype html><html><head><title>Woodpecker</title></head><body>not the API</body></html>';
const HUGE_JSON_BYTES = 50 * 1024 * 1024;
let hugeJson: Buffer | undefined;
function hugeJsonBody(): Buffer {
  // Built once: a list of small objects, valid JSON, 50 MB.
  if (!hugeJson) {
    const entry = '{"id":1,"name":"padding-padding-padding"},';
    const count = Math.floor((HUGE_JSON_BYTES - 2) / entry.length);
    hugeJson = Buffer.from(`[${entry.repeat(count)}{"id":2}]`);
  }
  return hugeJson;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  hugeJsonBody(); // built now, not while a client's timeout runs
  const timers = new Set<NodeJS.Timeout>();
  const proxy: FaultProxy = {
    url: '',
    forwarded: [],
    answered: [],
    faulted: [],
    fault: undefined,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const forward = (
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    seen: SeenRequest,
  ): void => {
    const onward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        proxy.answered.push({
          ...seen,
          status: answer.statusCode ?? 0,
          contentType: String(answer.headers['content-type'] ?? ''),
        });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    onward.on('error', () => outgoing.destroy());
    incoming.pipe(onward);
  };

  // Writes a body piece by piece until the connection goes away.
  const trickle = (
    outgoing: ServerResponse,
    every: number,
    piece: (tick: number) => string | undefined,
  ): void => {
    let tick = 0;
    const timer = setInterval(() => {
      const next = piece(tick++);
      if (next === undefined || outgoing.destroyed) {
        clearInterval(timer);
        timers.delete(timer);
        if (!outgoing.destroyed) outgoing.end();
        return;
      }
      outgoing.write(next);
    }, every);
    timers.add(timer);
    outgoing.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  };

  const answerWith = (answer: FaultAnswer, outgoing: ServerResponse): void => {
    const json = { 'content-type': 'application/json' };
    switch (answer) {
      case 'error':
        outgoing.writeHead(500, { 'content-type': 'text/plain' }).end('injected failure');
        return;
      case 'stall':
        return;
      case 'empty-500':
        outgoing.writeHead(500, { 'content-length': '0' }).end();
        return;
      case 'bad-gateway':
        outgoing
          .writeHead(502, { 'content-type': 'text/html' })
          .end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      case 'html-404':
        outgoing.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
        return;
      case 'html-200':
        outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
        return;
      case 'redirect':
        outgoing
          .writeHead(301, { location: '/api/elsewhere', 'content-type': 'text/html' })
          .end('<a href="/api/elsewhere">Moved Permanently</a>.');
        return;
      case 'reset-mid-body':
        outgoing.writeHead(200, { ...json, 'content-length': '1000' });
        outgoing.write('{"id":1,"name":"cut off');
        setTimeout(() => outgoing.socket?.destroy(), 20);
        return;
      case 'endless-body':
        outgoing.writeHead(200, json);
        outgoing.write('[');
        trickle(outgoing, 100, () => '{"id":1},');
        return;
      case 'huge-json':
        // No Content-Length: the client has to count as the bytes arrive.
        outgoing.writeHead(200, json).end(hugeJsonBody());
        return;
      case 'slow-drip': {
        const body = '{"id":1,"name":"slowly"}';
        outgoing.writeHead(200, json);
        trickle(outgoing, 300, (tick) => body[tick]);
        return;
      }
      case 'reset-after-read':
        outgoing.socket?.destroy();
        return;
    }
  };

  const server = createServer((incoming, outgoing) => {
    const seen = { method: incoming.method ?? '', path: incoming.url ?? '' };
    const fault = proxy.fault;
    if (fault?.matches(seen)) {
      proxy.faulted.push(seen);
      // The whole request is read first: these faults happen after the request was sent.
      incoming.resume();
      incoming.on('end', () => answerWith(fault.answer, outgoing));
      return;
    }
    proxy.forwarded.push(seen);
    forward(incoming, outgoing, seen);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, { url: `http://127.0.0.1:${port}` });
}
