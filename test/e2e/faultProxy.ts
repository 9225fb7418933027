// A small HTTP proxy of our own between woodpecker-ci-mcp and the real Woodpecker. It
// records every request that reaches Woodpecker, so a test can prove that nothing was
// sent, and it can make chosen requests fail (an error status) or stall (no answer) to
// show what the server does when Woodpecker cannot answer one lookup.
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
}

export interface Fault {
  /** Which requests fail, e.g. GET /api/repos/{id} only. */
  readonly matches: (request: SeenRequest) => boolean;
  /** `error`: answer 500 without asking Woodpecker; `stall`: never answer. */
  readonly answer: 'error' | 'stall';
}

export interface FaultProxy {
  readonly url: string;
  /** Every request forwarded to Woodpecker, in order (failed ones are not forwarded). */
  readonly forwarded: SeenRequest[];
  /** Every request that met the fault instead. */
  readonly faulted: SeenRequest[];
  fault: Fault | undefined;
  close(): Promise<void>;
}

/** GET /api/repos/{id}: the lookup behind WOODPECKER_REPOS, and nothing else. */
export const repositoryLookup = (request: SeenRequest): boolean => request.method === 'GET' && /^\/api\/repos\/\d+$/.test(request.path.split('?')[0] ?? '');

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const stalled: ServerResponse[] = [];
  const proxy: FaultProxy = {
    url: '',
    forwarded: [],
    faulted: [],
    fault: undefined,
    close: async () => {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const onward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: upstream.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    onward.on('error', () => outgoing.destroy());
    incoming.pipe(onward);
  };

  const server = createServer((incoming, outgoing) => {
    const seen = { method: incoming.method ?? '', path: incoming.url ?? '' };
    if (proxy.fault?.matches(seen)) {
      proxy.faulted.push(seen);
      incoming.resume();
      if (proxy.fault.answer === 'stall') stalled.push(outgoing);
      else outgoing.writeHead(500, { 'content-type': 'text/plain' }).end('injected failure');
      return;
    }
    proxy.forwarded.push(seen);
    forward(incoming, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, { url: `http://127.0.0.1:${port}` });
}
