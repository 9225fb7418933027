// WOODPECKER_DYNAMIC_TOOLS over 2025 HTTP, as a client without a listening stream sees it
// (the stream is optional; mcp-go and the Go SDK with DisableStandaloneSSE open none):
// enable_toolset grows the list, and the client learns it from the answer's own stream.
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtime/process/config.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { callTool2025, initialize2025 } from '../../e2e/rawMcpHttp.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('notifications/tools/list_changed on 2025 HTTP', () => {
  it('reaches a client without a listening stream, on the stream of the call that caused it', async () => {
    const runtime = buildRuntime(loadConfig({ WOODPECKER_DYNAMIC_TOOLS: 'true' }));
    running = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
    const { sessionId } = await initialize2025(running.url);
    const answer = await callTool2025(
      running.url,
      sessionId!,
      'enable_toolset',
      {},
      {
        toolset: 'secrets',
      },
    );
    expect(answer.status).toBe(200);
    const events = answer.text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice('data:'.length)) as { method?: string; id?: number });
    expect(events.map((event) => event.method ?? `answer ${String(event.id)}`)).toEqual([
      'notifications/tools/list_changed',
      'answer 1',
    ]);
  });
});
