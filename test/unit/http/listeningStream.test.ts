// The 2025 listening stream (an HTTP GET on /mcp), as a client library sees it: its status
// line and headers arrive when it opens, not with its first event (the Go SDK waits for
// them inside Connect, 15 s with the SDK's keep-alive), and a client whose stream dropped
// opens a new one at once instead of being told 409 until the server notices.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { initialize2025 } from '../../e2e/rawMcpHttp.js';

let running: RunningHttpServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await running?.close();
  running = undefined;
});

async function session(): Promise<{ url: URL; sessionId: string }> {
  running = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    factory: () => new McpServer({ name: 'listening-test', version: '1' }),
  });
  const opened = await initialize2025(running.url);
  if (!opened.sessionId) throw new Error(`no session: ${opened.status} ${opened.text}`);
  return { url: new URL(running.url), sessionId: opened.sessionId };
}

/**
 * Opens a GET stream on a socket of its own and resolves with the bytes of the first read
 * that completes the response head: the head alone when the server sent it on its own,
 * the head and an event when it waited for one.
 */
function openStream(
  url: URL,
  sessionId: string,
): Promise<{ socket: Socket; status: number; afterHead: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(
        `GET /mcp HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n` +
          `Mcp-Session-Id: ${sessionId}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n`,
      ),
    );
    sockets.push(socket);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ socket, status, afterHead: received.slice(end + 4) });
    });
    socket.on('error', reject);
  });
}

describe('the 2025 listening stream', () => {
  it('sends its status line and headers when it opens, before any event', async () => {
    const { url, sessionId } = await session();
    const stream = await openStream(url, sessionId);
    expect(stream.status).toBe(200);
    // Before the fix the head went out only with the first event (the keep-alive, 15 s later).
    expect(stream.afterHead).toBe('');
  });

  it('accepts a new stream at once after the old one dropped', async () => {
    const { url, sessionId } = await session();
    const first = await openStream(url, sessionId);
    expect(first.status).toBe(200);
    first.socket.destroy();
    const second = await openStream(url, sessionId);
    expect(second.status).toBe(200);
  });

  it('gives a new stream of the same session the place of one still open', async () => {
    // A client that lost its stream without the server seeing the socket close (a NAT that
    // forgot it, a proxy that kept it) opens another: the newer one is the client's.
    const { url, sessionId } = await session();
    const first = await openStream(url, sessionId);
    // The old answer ends: its last chunk (a zero-length one) arrives on its socket.
    const firstEnded = new Promise<void>((resolve) => {
      let tail = first.afterHead;
      first.socket.on('data', (chunk: Buffer) => {
        tail += chunk.toString('latin1');
        if (tail.endsWith('0\r\n\r\n')) resolve();
      });
    });
    const second = await openStream(url, sessionId);
    expect(second.status).toBe(200);
    await firstEnded;
  });
});
