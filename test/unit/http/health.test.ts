// The health endpoints, on the real HTTP server: they answer probes that name any Host,
// say nothing but their verdict, and leave every other path to the usual checks.
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { sharedCheck, type WoodpeckerHealth } from '../../../runtime/http/health.js';
import { rawRequest } from '../../e2e/rawMcpHttp.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(checkWoodpecker?: () => Promise<WoodpeckerHealth>): Promise<string> {
  running = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    factory: () => new McpServer({ name: 'health-test', version: '1' }),
    ...(checkWoodpecker ? { checkWoodpecker } : {}),
  });
  return running.url.replace(/\/mcp$/, '');
}

describe('health endpoints', () => {
  it('/healthz answers a probe naming a pod IP, while /mcp refuses that Host', async () => {
    const base = await serve(async () => 'unreachable');
    const probe = await rawRequest(`${base}/healthz`, { headers: { host: '10.1.2.3:3030' } });
    expect(probe.status).toBe(200);
    expect(JSON.parse(probe.text)).toEqual({ status: 'ok' });
    expect((await rawRequest(`${base}/mcp`, { headers: { host: '10.1.2.3:3030' } })).status).toBe(
      403,
    );
  });

  it.each([
    ['reachable', 200],
    ['unreachable', 503],
  ] as const)('/readyz reports Woodpecker %s with %i and nothing more', async (state, status) => {
    const base = await serve(async () => state);
    const ready = await rawRequest(`${base}/readyz`);
    expect(ready.status).toBe(status);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ok', woodpecker: state });
  });

  it('/readyz asked many times at once asks Woodpecker once', async () => {
    let checks = 0;
    const base = await serve(async () => {
      checks++;
      return 'reachable';
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => rawRequest(`${base}/readyz`)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(checks).toBe(1);
  });

  it('an answer about Woodpecker is reused for two seconds, then asked again', async () => {
    let clock = 0;
    let checks = 0;
    const check = sharedCheck(
      async () => (++checks % 2 === 1 ? 'reachable' : 'unreachable'),
      2_000,
      () => clock,
    );
    expect(await check()).toBe('reachable');
    clock = 1_999;
    expect(await check()).toBe('reachable');
    clock = 2_000;
    expect(await check()).toBe('unreachable');
    expect(checks).toBe(2);
  });

  it('/readyz without a Woodpecker configured is not ready', async () => {
    const base = await serve();
    const ready = await rawRequest(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ok', woodpecker: 'not configured' });
  });

  it('only GET is a health check; other methods and near-miss paths get the usual answers', async () => {
    const base = await serve(async () => 'reachable');
    expect((await rawRequest(`${base}/healthz`, { method: 'POST', body: {} })).status).toBe(404);
    expect((await rawRequest(`${base}/healthz/`)).status).toBe(404);
    expect((await rawRequest(`${base}/healthz?verbose=1`)).status).toBe(200);
  });
});
