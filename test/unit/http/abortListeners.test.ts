// A long-lived session must not gather one abort listener per call on any signal: that is
// how a server leaks memory a call at a time (and what Node's MaxListenersExceededWarning
// points at). The whole server runs here, in this process, as main.ts wires it for --http,
// in front of a small Woodpecker stand-in; every abort listener added to any AbortSignal
// while the calls run is noted, and afterwards no signal may hold more than a few.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadConfig } from '../../../runtime/process/config.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { startHttpServer } from '../../../runtime/http/httpServer.js';
import { ownSignalFetch } from '../../e2e/ownSignalFetch.js';

const CALLS = 50;

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** Answers who the token belongs to, as Woodpecker's /api/user does. */
async function woodpeckerStandIn(): Promise<string> {
  const server: Server = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: 1, login: 'stand-in', admin: true }));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  closing.push(() => new Promise((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Every AbortSignal that got an abort listener while `work` ran, and the listeners it holds after. */
async function abortListenersAfter(work: () => Promise<void>): Promise<number[]> {
  const signals = new Set<AbortSignal>();
  const original = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type, ...rest) {
    if (type === 'abort' && this instanceof AbortSignal) signals.add(this);
    return original.call(this, type, ...rest);
  };
  try {
    await work();
  } finally {
    EventTarget.prototype.addEventListener = original;
  }
  return [...signals].map((signal) => getEventListeners(signal, 'abort').length);
}

describe('abort listeners over a long-lived 2025 session', () => {
  it(
    `${CALLS} calls on one session leave no signal holding more than a few`,
    { timeout: 120_000 },
    async () => {
      const config = loadConfig({
        WOODPECKER_URL: await woodpeckerStandIn(),
        WOODPECKER_TOKEN: 't',
      });
      const runtime = buildRuntime(config);
      closing.push(() => runtime.close());
      const http = await startHttpServer({
        host: '127.0.0.1',
        port: 0,
        factory: runtime.factory,
        policy: config.http,
        verifyToken: runtime.verifyToken,
      });
      closing.push(() => http.close());
      const client = new Client({ name: 'listener-count', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { fetch: ownSignalFetch }),
      );
      closing.push(() => client.close());

      const held = await abortListenersAfter(async () => {
        for (let call = 0; call < CALLS; call++) {
          const result = await client.callTool({ name: 'get_current_user', arguments: {} });
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        }
      });
      // The calls did reach code that listens for aborts (the server's request signals,
      // the Woodpecker client's), so an empty list cannot pass for a clean one.
      expect(held.length).toBeGreaterThan(0);
      expect(Math.max(...held)).toBeLessThanOrEqual(10);
    },
  );
});
