// Three replica containers of the image behind HAProxy (deploy/haproxy.cfg as shipped),
// sharing one seal key, against the real Woodpecker: 2026-07-28 requests go round robin,
// 2025-era sessions stick to the replica that opened them. Each request brings its own
// Woodpecker token (no WOODPECKER_TOKEN), as a deployment for many people runs.
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createRepo, harnessInfo, uniqueName } from '../harness/fixtures.js';
import { freeLoopbackPort } from '../harness/free-port.js';
import {
  callTool2025,
  callTool2026,
  initialize2025,
  jsonRpcOf,
  loginOf,
} from '../e2e/rawMcpHttp.js';
import { startHaproxy, type LoadBalancer } from './haproxy.js';
import { runContainer, waitForStatus, type Container } from './podman.js';

const SEAL_KEY = randomBytes(36).toString('base64');

interface Replica {
  readonly container: Container;
  readonly address: string;
}

/** Which replica (HAProxy's server name) answered each request that carried a session id or a tools/call. */
interface Served {
  readonly toolCalls: string[];
  readonly sessionRequests: string[];
}

describe('three replicas behind HAProxy', () => {
  const replicas: Replica[] = [];
  let lb: LoadBalancer;

  beforeAll(async () => {
    const lbPort = await freeLoopbackPort();
    const ports = [await freeLoopbackPort(), await freeLoopbackPort(), await freeLoopbackPort()];
    const started = await Promise.all(
      ports.map((port) =>
        runContainer({
          // The host's loopback, where the test Woodpecker listens.
          podmanArgs: ['--network', 'host'],
          env: {
            WOODPECKER_URL: harnessInfo().url,
            WOODPECKER_MCP_SEAL_KEY: SEAL_KEY,
            WOODPECKER_MCP_ALLOWED_HOSTS: `127.0.0.1:${lbPort}`,
          },
          args: ['--http', '--host', '127.0.0.1', '--port', String(port)],
        }),
      ),
    );
    started.forEach((container, index) =>
      replicas.push({ container, address: `127.0.0.1:${ports[index]!}` }),
    );
    for (const replica of replicas) await waitForStatus(`http://${replica.address}/readyz`, 200);
    lb = await startHaproxy(
      lbPort,
      replicas.map((replica) => replica.address),
    );
  });
  afterAll(async () => {
    await lb?.stop();
    await Promise.all(replicas.map((replica) => replica.container.remove()));
  });

  async function connect(
    revision: '2025-11-25' | '2026-07-28',
    token: string,
    dialogs: string[],
    served: Served,
  ): Promise<Client> {
    const client = new Client(
      { name: 'deploy-lb-test', version: '1' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(revision === '2026-07-28'
          ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
          : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      dialogs.push(String((request.params as { message?: unknown }).message));
      return { action: 'accept', content: { approve: true } };
    });
    const recordingFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      const replica = response.headers.get('x-mcp-replica') ?? 'unknown';
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"'))
        served.toolCalls.push(replica);
      if (new Headers(init?.headers).has('mcp-session-id')) served.sessionRequests.push(replica);
      return response;
    };
    const transport = new StreamableHTTPClientTransport(new URL(lb.url), {
      fetch: recordingFetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    return client;
  }

  async function repoWithSecret() {
    const repo = await createRepo({ owner: 'user' });
    const name = uniqueName('LB_SECRET').toUpperCase().replace(/-/g, '_');
    await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
      name,
      value: 'replicated',
      events: ['push'],
    });
    return {
      repo,
      name,
      exists: async () =>
        (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status ===
        200,
    };
  }

  it('2026: a question one replica asked is answered through another, and the deletion happens once', async () => {
    const { repo, name, exists } = await repoWithSecret();
    const dialogs: string[] = [];
    const served: Served = { toolCalls: [], sessionRequests: [] };
    const client = await connect('2026-07-28', repo.ownerToken, dialogs, served);
    try {
      const result = await client.callTool({
        name: 'delete_secret',
        arguments: { scope: 'repository', repo_id: repo.repoId, name },
      });
      expect(result.isError).toBeFalsy();
      expect(dialogs).toHaveLength(1);
      // The first leg (which asked) and the retry (which carried the sealed answer) went to different replicas.
      expect(served.toolCalls).toHaveLength(2);
      expect(served.toolCalls[0]).not.toBe(served.toolCalls[1]);
      expect(await exists()).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('2025: a session sticks to its replica, and its dialog works through the balancer', async () => {
    const { repo, name, exists } = await repoWithSecret();
    const dialogs: string[] = [];
    const served: Served = { toolCalls: [], sessionRequests: [] };
    const client = await connect('2025-11-25', repo.ownerToken, dialogs, served);
    try {
      for (let i = 0; i < 4; i++)
        expect(
          (await client.callTool({ name: 'get_current_user', arguments: {} })).structuredContent,
        ).toMatchObject({ login: harnessInfo().userLogin });
      const result = await client.callTool({
        name: 'delete_secret',
        arguments: { scope: 'repository', repo_id: repo.repoId, name },
      });
      expect(result.isError).toBeFalsy();
      expect(dialogs).toHaveLength(1);
      expect(await exists()).toBe(false);
      expect(served.sessionRequests.length).toBeGreaterThanOrEqual(6);
      expect(new Set(served.sessionRequests).size).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('two people with different bearer tokens stay apart, on both revisions', async () => {
    const { adminToken, userToken, adminLogin, userLogin } = harnessInfo();
    for (let i = 0; i < 3; i++) {
      expect(
        loginOf(
          await callTool2026(lb.url, 'get_current_user', { authorization: `Bearer ${userToken}` }),
        ),
      ).toBe(userLogin);
      expect(
        loginOf(
          await callTool2026(lb.url, 'get_current_user', { authorization: `Bearer ${adminToken}` }),
        ),
      ).toBe(adminLogin);
    }
    const session = await initialize2025(lb.url, { authorization: `Bearer ${userToken}` });
    expect(session.sessionId).toBeDefined();
    expect(
      loginOf(
        await callTool2025(lb.url, session.sessionId!, 'get_current_user', {
          authorization: `Bearer ${userToken}`,
        }),
      ),
    ).toBe(userLogin);
    // Knowing another person's session id is not enough: the sticky replica checks the token.
    const borrowed = await callTool2025(lb.url, session.sessionId!, 'get_current_user', {
      authorization: `Bearer ${adminToken}`,
    });
    expect(borrowed.status).toBe(403);
    expect(borrowed.text).not.toContain(userToken);
  });

  it('MCP_BUILD_LIMIT: HAProxy counts builds per credential and tool for all replicas together', async () => {
    const limited = await startHaproxy(
      await freeLoopbackPort(),
      replicas.map((replica) => replica.address),
      { MCP_BUILD_LIMIT: '2' },
    );
    try {
      const repo = await createRepo({ owner: 'user' });
      // The replicas accept the Host of the shared balancer only; this one stands in for it.
      const host = new URL(lb.url).host;
      const as = (token: string) => ({ authorization: `Bearer ${token}`, host });
      const args = { repo_id: repo.repoId, branch: 'main' };
      const started = [];
      for (const _ of [1, 2, 3])
        started.push(
          await callTool2026(limited.url, 'trigger_pipeline', as(repo.ownerToken), args),
        );
      expect(started.map((response) => response.status)).toEqual([200, 200, 429]);
      for (const response of started.slice(0, 2))
        expect(jsonRpcOf(response).result?.isError, response.text).toBeFalsy();
      expect(started[2]!.headers['retry-after']).toBe('3600');
      expect(started[2]!.text).toContain('at most 2 builds an hour per credential and tool');
      // The refused call reached no replica: two builds, on whichever replicas served them.
      const pipelines = await adminApi().get<unknown[]>(`/api/repos/${repo.repoId}/pipelines`);
      expect(pipelines).toHaveLength(2);
      // Another credential, another build-starting tool and any other call count apart.
      const other = await callTool2026(
        limited.url,
        'trigger_pipeline',
        as(harnessInfo().adminToken),
        args,
      );
      expect(other.status).toBe(200);
      const read = await callTool2026(limited.url, 'get_current_user', as(repo.ownerToken));
      expect(loginOf(read)).toBe(harnessInfo().userLogin);
    } finally {
      await limited.stop();
    }
  });

  it('a replica killed mid-run: 2026 clients do not notice, 2025 sessions on it are told to initialize again', async () => {
    const bearer = { authorization: `Bearer ${harnessInfo().userToken}` };
    const sessions = [];
    for (let i = 0; i < 3; i++) {
      const opened = await initialize2025(lb.url, bearer);
      expect(opened.status).toBe(200);
      sessions.push({ id: opened.sessionId!, replica: String(opened.headers['x-mcp-replica']) });
    }
    // Round robin spread the three initializes over the three replicas.
    expect(new Set(sessions.map((session) => session.replica)).size).toBe(3);
    const victim = sessions[0]!.replica;
    await replicas[Number(victim.replace('replica', '')) - 1]!.container.kill();

    // At once, before HAProxy's health check has noticed: connections refused by the dead
    // replica are sent to a live one.
    for (let i = 0; i < 6; i++) {
      const answer = await callTool2026(lb.url, 'get_current_user', bearer);
      expect(loginOf(answer)).toBe(harnessInfo().userLogin);
      expect(answer.headers['x-mcp-replica']).not.toBe(victim);
    }
    for (const session of sessions) {
      const answer = await callTool2025(lb.url, session.id, 'get_current_user', bearer);
      if (session.replica === victim) {
        expect(answer.status).toBe(404);
        expect(jsonRpcOf(answer).error?.message).toMatch(/initialize again/);
      } else {
        expect(loginOf(answer)).toBe(harnessInfo().userLogin);
      }
    }
    const again = await initialize2025(lb.url, bearer);
    expect(again.status).toBe(200);
    expect(loginOf(await callTool2025(lb.url, again.sessionId!, 'get_current_user', bearer))).toBe(
      harnessInfo().userLogin,
    );
  });

  it('a replica stopped with SIGTERM while a call is under way (a rolling update): 2026 clients do not notice', async () => {
    // A 2025 dialog nobody answers keeps a call under way on one replica, so that replica
    // drains for its whole grace time (5 s) and answers new requests 503 meanwhile.
    const { repo, name } = await repoWithSecret();
    let dialogShown!: () => void;
    const shown = new Promise<void>((resolve) => (dialogShown = resolve));
    const client = new Client(
      { name: 'deploy-lb-drain', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', () => {
      dialogShown();
      return new Promise(() => undefined);
    });
    const served: string[] = [];
    const recordingFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      served.push(response.headers.get('x-mcp-replica') ?? 'unknown');
      return response;
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(lb.url), {
        fetch: recordingFetch,
        requestInit: { headers: { authorization: `Bearer ${repo.ownerToken}` } },
      }),
    );
    const pending = client
      .callTool({
        name: 'delete_secret',
        arguments: { scope: 'repository', repo_id: repo.repoId, name },
      })
      .catch(() => undefined);
    await shown;
    const draining = served[0]!;
    const stopped = replicas[Number(draining.replace('replica', '')) - 1]!.container.stop(20);

    const bearer = { authorization: `Bearer ${harnessInfo().userToken}` };
    const deadline = Date.now() + 4_000;
    let calls = 0;
    while (Date.now() < deadline) {
      const answer = await callTool2026(lb.url, 'get_current_user', bearer);
      expect(answer.status, answer.text).toBe(200);
      expect(loginOf(answer)).toBe(harnessInfo().userLogin);
      calls++;
    }
    expect(calls).toBeGreaterThan(3);
    expect(await stopped).toBe(0);
    await client.close();
    await pending;
  });

  it('no replica printed a bearer token or the seal key, whatever happened to it', async () => {
    const { adminToken, userToken } = harnessInfo();
    for (const replica of replicas) {
      const logs = await replica.container.logs();
      expect(logs).toContain('serving MCP over HTTP');
      for (const secret of [SEAL_KEY, adminToken, userToken]) expect(logs).not.toContain(secret);
    }
  });
});
