// A 2025 client over Streamable HTTP that cancels a call while its dialog is open (the
// user pressed stop, the host gave up): the server must withdraw the dialog, as it does
// over stdio, by cancelling its elicitation/create, and Woodpecker must not be called.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createRepo, harnessInfo, uniqueName } from '../harness/fixtures.js';
import { loadConfig } from '../../runtime/process/config.js';
import { buildRuntime } from '../../runtime/process/buildRuntime.js';
import { startHttpServer, type RunningHttpServer } from '../../runtime/http/httpServer.js';
import { rawRequest } from './rawMcpHttp.js';

interface Message {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

/** A POST whose SSE answer is read as it comes: each JSON-RPC message, in order. */
function streamingPost(url: string, headers: Record<string, string>, body: unknown) {
  return stream(url, 'POST', headers, body);
}

/** The session's listening stream (GET), read likewise. */
function streamingGet(url: string, headers: Record<string, string>) {
  return stream(url, 'GET', headers, undefined);
}

function stream(url: string, method: string, headers: Record<string, string>, body: unknown) {
  const messages: Message[] = [];
  const waiters: (() => void)[] = [];
  let ended = false;
  let request: ClientRequest | undefined;
  let headersArrived: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (headersArrived = resolve));
  const target = new URL(url);
  const done = new Promise<void>((resolve, reject) => {
    request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        agent: false,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        headersArrived();
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            for (const line of event.split('\n'))
              if (line.startsWith('data:')) messages.push(JSON.parse(line.slice(5)) as Message);
            for (const wake of waiters.splice(0)) wake();
          }
        });
        res.on('end', () => {
          ended = true;
          for (const wake of waiters.splice(0)) wake();
          resolve();
        });
      },
    );
    request.on('error', reject);
    request.on('close', () => {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
      resolve();
    });
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
  return {
    messages,
    done,
    opened,
    /** The first message that `matches`, or undefined once the answer ended without one. */
    async next(matches: (message: Message) => boolean): Promise<Message | undefined> {
      for (;;) {
        const found = messages.find(matches);
        if (found || ended) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => request?.destroy(),
  };
}

let server: RunningHttpServer;
beforeAll(async () => {
  const info = harnessInfo();
  const runtime = buildRuntime(
    loadConfig({ WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken }),
  );
  server = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
});
afterAll(() => server?.close());

/** A 2025 session whose client shows dialogs, and a secret a guarded call would delete. */
async function sessionAndSecret() {
  const repo = await createRepo();
  const name = uniqueName('CANCEL').toUpperCase().replace(/-/g, '_');
  await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
    name,
    value: 'v',
    events: ['push'],
  });
  const opened = await rawRequest(server.url, {
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'cancelling-client', version: '1' },
      },
    },
  });
  const headers = {
    'mcp-session-id': String(opened.headers['mcp-session-id']),
    'mcp-protocol-version': '2025-11-25',
  };
  await rawRequest(server.url, {
    headers,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  const callDelete = () =>
    streamingPost(server.url, headers, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'delete_secret',
        arguments: { scope: 'repository', repo_id: repo.repoId, name },
      },
    });
  const cancel = () =>
    rawRequest(server.url, {
      headers,
      body: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 7, reason: 'the user pressed stop' },
      },
    });
  const secretLeft = async () =>
    (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status === 200;
  return { headers, callDelete, cancel, secretLeft };
}

const withdrawalOf =
  (dialog: Message | undefined) =>
  (message: Message): boolean =>
    message.method === 'notifications/cancelled' && message.params?.requestId === dialog?.id;

describe('a call cancelled while its dialog is open, over 2025 HTTP', () => {
  it("withdraws the dialog on the call's own stream while that stream is open", async () => {
    const { callDelete, cancel, secretLeft } = await sessionAndSecret();
    const call = callDelete();
    try {
      const dialog = await call.next((message) => message.method === 'elicitation/create');
      expect(dialog?.id, 'the dialog was asked').toBeDefined();
      expect((await cancel()).status).toBe(202);
      const withdrawn = await call.next(withdrawalOf(dialog));
      expect(withdrawn, `messages: ${JSON.stringify(call.messages)}`).toBeDefined();
      expect(await secretLeft()).toBe(true);
    } finally {
      call.close();
    }
  });

  it("withdraws it on the listening stream when the client closed the call's stream first", async () => {
    // What the Go SDK does: cancelling the call's context ends its POST, then it sends
    // notifications/cancelled. The dialog is still open on the client; only the listening
    // stream is left to say so.
    const { headers, callDelete, cancel, secretLeft } = await sessionAndSecret();
    const listening = streamingGet(server.url, headers);
    const call = callDelete();
    try {
      await listening.opened;
      const dialog = await call.next((message) => message.method === 'elicitation/create');
      expect(dialog?.id, 'the dialog was asked').toBeDefined();
      call.close();
      await call.done;
      // A round trip after the close: the server has read the closed socket by then.
      await rawRequest(server.url, { headers, body: { jsonrpc: '2.0', id: 8, method: 'ping' } });
      expect((await cancel()).status).toBe(202);
      const withdrawn = await listening.next(withdrawalOf(dialog));
      expect(withdrawn, `messages: ${JSON.stringify(listening.messages)}`).toBeDefined();
      expect(await secretLeft()).toBe(true);
    } finally {
      call.close();
      listening.close();
    }
  });

  it('keeps the withdrawal for the next listening stream when none was open, and ignores a late answer', async () => {
    // The Go SDK with DisableStandaloneSSE, or mcp-go without continuous listening: no
    // listening stream when the call's stream closes. The withdrawal waits for the
    // session's next one; an answer the person gives meanwhile starts nothing.
    const { headers, callDelete, cancel, secretLeft } = await sessionAndSecret();
    const call = callDelete();
    let listening: ReturnType<typeof streamingGet> | undefined;
    try {
      const dialog = await call.next((message) => message.method === 'elicitation/create');
      expect(dialog?.id, 'the dialog was asked').toBeDefined();
      call.close();
      await call.done;
      await rawRequest(server.url, { headers, body: { jsonrpc: '2.0', id: 8, method: 'ping' } });
      expect((await cancel()).status).toBe(202);
      listening = streamingGet(server.url, headers);
      const withdrawn = await listening.next(withdrawalOf(dialog));
      expect(withdrawn, `messages: ${JSON.stringify(listening.messages)}`).toBeDefined();
      const late = await rawRequest(server.url, {
        headers,
        body: {
          jsonrpc: '2.0',
          id: dialog!.id,
          result: { action: 'accept', content: { approve: true } },
        },
      });
      expect(late.status).toBe(202);
      const alive = await rawRequest(server.url, {
        headers,
        body: { jsonrpc: '2.0', id: 9, method: 'ping' },
      });
      expect(alive.status, 'the session lives on').toBe(200);
      expect(await secretLeft()).toBe(true);
    } finally {
      call.close();
      listening?.close();
    }
  });
});
