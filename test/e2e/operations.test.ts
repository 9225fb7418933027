// Running the server for more than one person: per-request tokens, replicas sharing a
// seal key behind a load balancer, the audit log, the repository allowlist and tool
// selection.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as catalogue } from '../../generated/index.js';
import { loadConfig } from '../../runtime/process/config.js';
import { startHttpServer } from '../../runtime/http/httpServer.js';
import { buildRuntime } from '../../runtime/process/buildRuntime.js';
import {
  adminApi,
  createRepo,
  harnessInfo,
  uniqueName,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { ownSignalFetch } from './ownSignalFetch.js';
import { startHttpServerProcess } from './httpServerProcess.js';
import { openSession, textOf, withSession } from './mcpSession.js';

const SHARED_KEY = 'replicas share this seal key of at least 32 bytes';

/** A round-robin HTTP proxy on loopback that counts which upstream served each tools/call. */
async function roundRobinProxy(upstreams: string[]) {
  let next = 0;
  const toolCallsPerUpstream = upstreams.map(() => 0);
  const server: Server = createServer((req, res) => {
    const index = next++ % upstreams.length;
    const target = new URL(upstreams[index]!);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.includes('"tools/call"')) toolCallsPerUpstream[index]!++;
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    toolCallsPerUpstream,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each([
  ['sharing a seal key', true],
  ['each with its own key', false],
] as const)('two server processes behind a round-robin proxy, %s', (_name, sharedKey) => {
  const replicas: { url: string; stop(): Promise<void> }[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobinProxy>>;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      // No WOODPECKER_TOKEN: each request brings its own.
      replicas.push(
        await startHttpServerProcess(sharedKey ? { WOODPECKER_MCP_SEAL_KEY: SHARED_KEY } : {}),
      );
    }
    proxy = await roundRobinProxy(replicas.map((replica) => replica.url));
  });
  afterAll(async () => {
    await proxy?.close();
    for (const replica of replicas) await replica.stop();
  });

  async function clientFor(token: string, dialogs: string[]) {
    const client = new Client(
      { name: 'lb-test', version: '1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      dialogs.push(String((request.params as { message?: unknown }).message));
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(proxy.url), {
        fetch: ownSignalFetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  it('each request acts with its own token', async () => {
    const asUser = await clientFor(harnessInfo().userToken, []);
    const asAdmin = await clientFor(harnessInfo().adminToken, []);
    try {
      const user = await asUser.callTool({ name: 'get_current_user', arguments: {} });
      const admin = await asAdmin.callTool({ name: 'get_current_user', arguments: {} });
      expect(user.structuredContent).toMatchObject({ login: harnessInfo().userLogin });
      // Woodpecker leaves `admin` out of the JSON when it is false.
      expect((user.structuredContent as { admin?: boolean }).admin ?? false).toBe(false);
      expect(admin.structuredContent).toMatchObject({
        login: harnessInfo().adminLogin,
        admin: true,
      });
    } finally {
      await asUser.close();
      await asAdmin.close();
    }
  });

  it(
    sharedKey
      ? 'a question asked by one replica is answered through the other'
      : 'an answer sealed by one replica does not open on the other',
    async () => {
      const repo = await createRepo({ owner: 'user' });
      const name = uniqueName('LB_SECRET').toUpperCase().replace(/-/g, '_');
      await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
        name,
        value: 'first',
        events: ['push'],
      });
      const dialogs: string[] = [];
      const client = await clientFor(repo.ownerToken, dialogs);
      try {
        const before = [...proxy.toolCallsPerUpstream];
        const call = client.callTool({
          name: 'delete_secret',
          arguments: { scope: 'repository', repo_id: repo.repoId, name },
        });
        if (sharedKey) {
          const result = await call;
          expect(result.isError).toBeFalsy();
          expect(dialogs).toHaveLength(1);
          // The first leg and the retry went to different replicas.
          expect(proxy.toolCallsPerUpstream.map((count, index) => count - before[index]!)).toEqual([
            1, 1,
          ]);
          expect(
            (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
          ).toBe(404);
        } else {
          // Every retry lands on the replica that did not seal the question: it asks again,
          // until the client gives up. Nothing is deleted.
          await expect(call).rejects.toThrow();
          expect(dialogs.length).toBeGreaterThan(1);
          expect(
            (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
          ).toBe(200);
        }
      } finally {
        await client.close();
      }
    },
  );
});

describe('audit log', () => {
  it('records each write with targets, outcome, status and approval, and never a secret value', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    const repo = await createRepo();
    const name = uniqueName('AUDIT').toUpperCase().replace(/-/g, '_');
    const secretValue = `never-log-this-${uniqueName('v')}`;
    await withSession(
      { revision: '2025-11-25', env: { WOODPECKER_MCP_AUDIT_LOG: path } },
      async (session) => {
        await session.ok('create_secret', {
          scope: 'repository',
          repo_id: repo.repoId,
          name,
          value: secretValue,
          events: ['push'],
        });
        await session.ok('get_repository', { repo_id: repo.repoId });
        session.answer = 'decline';
        expect(
          (await session.call('delete_secret', { scope: 'repository', repo_id: repo.repoId, name }))
            .isError,
        ).toBe(true);
        session.answer = 'approve';
        await session.ok('delete_secret', { scope: 'repository', repo_id: repo.repoId, name });
      },
    );
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(secretValue);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.tool, line.outcome, line.approval])).toEqual([
      // Guarded only when it would shadow a wider level; a fresh name is the harmless direction.
      ['create_secret', 'done', 'harmless direction'],
      ['delete_secret', 'declined', null],
      ['delete_secret', 'done', 'dialog'],
    ]);
    expect(lines[0]).toMatchObject({
      targets: { repo_id: repo.repoId, name, scope: 'repository' },
      woodpecker_status: 200,
    });
    expect(lines[2]).toMatchObject({ woodpecker_status: 204 });
    for (const line of lines) expect(Date.parse(String(line.time))).not.toBeNaN();
  });
});

describe('repository allowlist (WOODPECKER_REPOS)', () => {
  it('answers repositories outside it as not found, and leaves them out of lists', async () => {
    const allowed = await createRepo();
    const hidden = await createRepo();
    await withSession(
      { revision: '2026-07-28', env: { WOODPECKER_REPOS: allowed.fullName } },
      async (session) => {
        await session.ok('get_repository', { repo_id: allowed.repoId });
        const refused = await session.call('get_repository', { repo_id: hidden.repoId });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/no such repository/);
        expect(
          (await session.call('lookup_repository', { full_name: hidden.fullName })).isError,
        ).toBe(true);
        const trigger = await session.call('trigger_pipeline', {
          repo_id: hidden.repoId,
          branch: 'main',
        });
        expect(trigger.isError).toBe(true);
        const pipelines = await adminApi().get<unknown[]>(`/api/repos/${hidden.repoId}/pipelines`);
        expect(pipelines ?? []).toHaveLength(0);

        const listed = await session.ok<{ items: { full_name: string }[] }>('list_repositories', {
          scope: 'user',
        });
        const names = listed.items.map((item) => item.full_name);
        expect(names).toContain(allowed.fullName);
        expect(names).not.toContain(hidden.fullName);
      },
    );
    // Without the allowlist the same call works: the refusal came from the list.
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const started = await session.ok<{ number: number }>('trigger_pipeline', {
        repo_id: hidden.repoId,
        branch: 'main',
      });
      await waitForPipelineStatus(hidden.repoId, started.number, ['success']);
    });
  });
});

describe('tool selection', () => {
  it('WOODPECKER_READ_ONLY=true registers only read tools', async () => {
    const session = await openSession({
      revision: '2025-11-25',
      env: { WOODPECKER_READ_ONLY: 'true' },
    });
    try {
      const { tools } = await session.client.listTools();
      expect(tools).toHaveLength(catalogue.filter((tool) => tool.annotations.readOnlyHint).length);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('allow and deny lists, with the essential preset', async () => {
    const session = await openSession({
      revision: '2026-07-28',
      env: {
        WOODPECKER_ALLOW_TOOLS: 'essential,list_secrets',
        WOODPECKER_DENY_TOOLS: 'trigger_pipeline',
      },
    });
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(
        [
          'cancel_pipeline',
          'get_pipeline',
          'get_pipeline_failure',
          'get_repository',
          'get_step_logs',
          'lint_pipeline_config',
          'list_pipelines',
          'list_repositories',
          'list_secrets',
          'resolve_link',
          'restart_pipeline',
          'search_logs',
          'wait_for_pipeline',
        ].sort(),
      );
    } finally {
      await session.close();
    }
  });

  it('an entry that matches no tool stops startup, naming it', () => {
    expect(() => buildRuntime(loadConfig({ WOODPECKER_DENY_TOOLS: 'delete_everything' }))).toThrow(
      /WOODPECKER_DENY_TOOLS entry "delete_everything" matches no tool/,
    );
  });
});

describe('without a token', () => {
  it('starts, lists its tools, answers public reads and explains how to set the token', async () => {
    const runtime = buildRuntime(loadConfig({ WOODPECKER_URL: harnessInfo().url }));
    const http = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
    const client = new Client({ name: 'no-token', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      expect((await client.listTools()).tools).toHaveLength(catalogue.length);
      const info = await client.callTool({ name: 'get_server_info', arguments: {} });
      expect(info.structuredContent).toMatchObject({
        version: harnessInfo().version,
        healthy: true,
      });
      const refused = await client.callTool({ name: 'list_pipelines', arguments: { repo_id: 1 } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused as never)).toMatch(/WOODPECKER_TOKEN/);
    } finally {
      await client.close();
      await http.close();
      await runtime.close();
    }
  });
});
