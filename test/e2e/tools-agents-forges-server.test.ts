// End-to-end: the agents, forges and server tools through a real MCP client against the
// harness's Woodpecker. Forge 1 and the harness agent are only read; the log level and
// the queue are always put back (finally blocks), since other test files need them.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  serverOlderThan,
  uniqueName,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import type { WoodpeckerPipeline } from '../harness/fixtures.js';
import { waitUntil } from '../harness/wait-until.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';
import type { ListEnvelope } from '../../runtime/output/answer.js';

interface Agent {
  id: number;
  name: string;
  token?: string;
  backend: string;
  no_schedule: boolean;
  org_id: number;
  capacity: number;
}
interface Forge {
  id: number;
  type: string;
  url: string;
  client?: string;
  oauth_host?: string;
  skip_verify?: boolean;
  /** create_forge only: whether an identical forge was there already. */
  already_existed?: boolean;
}
interface QueueInfo {
  pending: unknown[] | null;
  running: unknown[] | null;
  stats: { worker_count: number; pending_count: number; running_count: number };
  paused: boolean;
}

const REDACTED = '[redacted]';
let harnessAgent: Agent;
let adminOrgId = 0;

beforeAll(async () => {
  const agents = await adminApi().get<Agent[]>('/api/agents');
  const found = agents.find((agent) => agent.name === harnessInfo().agentName);
  if (!found) throw new Error(`the harness agent ${harnessInfo().agentName} is not registered`);
  harnessAgent = found;
  // The API really hands the token to admins; the tools must not.
  expect(harnessAgent.token?.length ?? 0).toBeGreaterThan(10);
  adminOrgId = (await adminApi().get<{ org_id: number }>('/api/user')).org_id;
});

describe.each(REVISIONS)('agents on %s (reads)', (revision) => {
  // detail: "full": the token is redacted in Woodpecker's whole object too (the view never shows it).
  it('list_agents and get_agent show the harness agent with its token redacted', async () => {
    await withSession({ revision }, async (session) => {
      const listed = await session.call('list_agents', { page: 1, per_page: 50, detail: 'full' });
      expect(listed.isError).toBeFalsy();
      const items = (listed.structuredContent as unknown as ListEnvelope<Agent>).items;
      const mine = items.find((agent) => agent.id === harnessAgent.id);
      expect(mine).toMatchObject({
        name: harnessInfo().agentName,
        backend: 'local',
        capacity: 2,
        token: REDACTED,
      });
      for (const agent of items)
        expect(agent.token === undefined || agent.token === '' || agent.token === REDACTED).toBe(
          true,
        );
      expect(JSON.stringify(listed)).not.toContain(harnessAgent.token!);

      const got = await session.call('get_agent', { agent_id: harnessAgent.id, detail: 'full' });
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent).toMatchObject({
        id: harnessAgent.id,
        name: harnessInfo().agentName,
        backend: 'local',
      });
      expect((got.structuredContent as unknown as Agent).token ?? REDACTED).toBe(REDACTED);
      expect(JSON.stringify(got)).not.toContain(harnessAgent.token!);

      const missing = await session.call('get_agent', { agent_id: 999_999 });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('HTTP 404');
    });
  });

  it('list_agent_tasks shows the task the agent is running', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          { name: 'slow', commands: ['sleep 4', 'echo slept'] },
        ]),
      },
    });
    const pipeline = await adminApi().post<WoodpeckerPipeline>(
      `/api/repos/${repo.repoId}/pipelines`,
      { branch: 'main' },
    );
    await withSession({ revision }, async (session) => {
      const tasks = await waitUntil(
        `a running task of pipeline ${pipeline.number} on the harness agent`,
        async () => {
          const list = await session.ok<
            ListEnvelope<{ id: string; pipeline_id?: number; repo_id?: number }>
          >('list_agent_tasks', { agent_id: harnessAgent.id });
          return list.items.some((task) => task.repo_id === repo.repoId) ? list : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 200 },
      );
      expect(tasks.items.length).toBeGreaterThan(0);
    });
    await waitForPipelineStatus(repo.repoId, pipeline.number, ['success']);
  });
});

describe.each(REVISIONS)('agents on %s (writes)', (revision) => {
  it('server-wide agent: create_agent reveals its token once, update_agent, delete_agent', async () => {
    const api = adminApi();
    const name = uniqueName('e2e-agent');
    await withSession({ revision }, async (session) => {
      const created = await session.ok<Agent>('create_agent', { name, no_schedule: true });
      expect(created).toMatchObject({ name, no_schedule: true });
      // The one answer that shows the token: it is the real one.
      expect(created.token).toMatch(/^[A-Za-z0-9=]{20,}$/);
      const stored = await api.get<Agent>(`/api/agents/${created.id}`);
      expect(stored).toMatchObject({
        id: created.id,
        name,
        no_schedule: true,
        token: created.token,
      });

      // Everywhere else it is redacted.
      const listed = await session.call('list_agents', { detail: 'full' });
      expect(JSON.stringify(listed)).not.toContain(created.token!);
      expect(
        (listed.structuredContent as unknown as ListEnvelope<Agent>).items.find(
          (agent) => agent.id === created.id,
        ),
      ).toMatchObject({ token: REDACTED });
      const got = await session.call('get_agent', { agent_id: created.id, detail: 'full' });
      expect(JSON.stringify(got)).not.toContain(created.token!);

      const updated = await session.ok<Agent>('update_agent', {
        agent_id: created.id,
        name: `${name}-renamed`,
        no_schedule: false,
      });
      expect(updated).toMatchObject({ id: created.id, name: `${name}-renamed` });
      expect(updated).not.toHaveProperty('no_schedule'); // the view leaves false out
      expect(JSON.stringify(updated)).not.toContain(created.token!);
      expect(await api.get<Agent>(`/api/agents/${created.id}`)).toMatchObject({
        name: `${name}-renamed`,
        no_schedule: false,
        token: created.token,
      });
      expect(session.dialogs).toEqual([]);

      const tasks = await session.ok<ListEnvelope<unknown>>('list_agent_tasks', {
        agent_id: created.id,
      });
      expect(tasks.items).toEqual([]);

      await session.ok('delete_agent', { agent_id: created.id });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`delete agent ${created.id}`);
      expect((await api.request('GET', `/api/agents/${created.id}`)).status).toBe(404);
    });
  });

  it('organization agent: create, list, update and delete with org_id', async () => {
    const api = adminApi();
    const name = uniqueName('e2e-org-agent');
    await withSession({ revision }, async (session) => {
      const created = await session.ok<Agent>('create_agent', { org_id: adminOrgId, name });
      expect(created).toMatchObject({ name, org_id: adminOrgId });
      // Through the agent view, as get_agent answers: false is left out.
      expect(created.no_schedule ?? false).toBe(false);
      expect(created.token).toMatch(/^[A-Za-z0-9=]{20,}$/);
      const orgAgents = await api.get<Agent[]>(`/api/orgs/${adminOrgId}/agents`);
      expect(orgAgents.find((agent) => agent.id === created.id)).toMatchObject({
        name,
        org_id: adminOrgId,
        token: created.token,
      });

      const listed = await session.call('list_agents', { org_id: adminOrgId, detail: 'full' });
      const items = (listed.structuredContent as unknown as ListEnvelope<Agent>).items;
      expect(items.find((agent) => agent.id === created.id)).toMatchObject({
        name,
        token: REDACTED,
      });
      expect(items.map((agent) => agent.id)).not.toContain(harnessAgent.id);
      expect(JSON.stringify(listed)).not.toContain(created.token!);

      await session.ok('update_agent', {
        org_id: adminOrgId,
        agent_id: created.id,
        name,
        no_schedule: true,
      });
      expect(
        (await api.get<Agent[]>(`/api/orgs/${adminOrgId}/agents`)).find(
          (agent) => agent.id === created.id,
        ),
      ).toMatchObject({ name, no_schedule: true });

      await session.ok('delete_agent', { org_id: adminOrgId, agent_id: created.id });
      expect(session.dialogs).toHaveLength(1);
      // The page a person checks is the organization's agents, not the server's.
      expect(session.dialogs[0]).toContain(
        `Check it in Woodpecker: the agents of organization ${adminOrgId}, ${harnessInfo().url.replace(/\/+$/, '')}/orgs/${adminOrgId}/settings/agents`,
      );
      expect(
        ((await api.get<Agent[] | null>(`/api/orgs/${adminOrgId}/agents`)) ?? []).map(
          (agent) => agent.id,
        ),
      ).not.toContain(created.id);
      expect((await api.request('GET', `/api/agents/${created.id}`)).status).toBe(404);
    });
  });
});

describe.each(REVISIONS)('forges on %s (reads)', (revision) => {
  it('list_forges and get_forge show forge 1 as the API does', async () => {
    const apiForge1 = await adminApi().get<Forge>('/api/forges/1');
    expect(apiForge1.url).toBe(harnessInfo().forgeUrl);
    const apiForges = await adminApi().get<Forge[]>('/api/forges');
    await withSession({ revision }, async (session) => {
      const listed = await session.ok<ListEnvelope<Forge>>('list_forges', {});
      expect(listed.items.map((forge) => forge.id).sort()).toEqual(
        apiForges.map((forge) => forge.id).sort(),
      );
      expect(listed.items.find((forge) => forge.id === 1)).toEqual(
        apiForges.find((forge) => forge.id === 1),
      );
      expect(await session.ok<Forge>('get_forge', { forge_id: 1 })).toEqual(apiForge1);
    });
  });
});

describe.each(REVISIONS)('forges on %s (writes)', (revision) => {
  it('create_forge, update_forge keeps the fields it was not given, delete_forge; the OAuth secret never comes back', async () => {
    const api = adminApi();
    const secret = `oauth-secret-${randomBytes(12).toString('hex')}`;
    const url = `http://127.0.0.1:9/${uniqueName('forge')}`;
    // Before 3.17 (per 3.11's spec and source) the forge body has no field for the OAuth
    // secret: the server would drop it, so the tools refuse it there, before any dialog.
    const withSecret = serverOlderThan('3.17.0') ? {} : { oauth_client_secret: secret };
    await withSession({ revision }, async (session) => {
      const answers: unknown[] = [];
      const fields = {
        type: 'forgejo',
        url,
        client: 'e2e-client',
        oauth_host: 'http://oauth.example.invalid',
        skip_verify: true,
      };
      if (serverOlderThan('3.17.0')) {
        const forgesBefore = (await api.get<Forge[]>('/api/forges')).length;
        const refused = await session.call('create_forge', {
          ...fields,
          oauth_client_secret: secret,
        });
        answers.push(refused);
        expect(textOf(refused)).toContain(
          `create_forge: oauth_client_secret needs Woodpecker ≥ 3.17; this server is ${harnessInfo().version}`,
        );
        expect(session.dialogs).toEqual([]);
        expect((await api.get<Forge[]>('/api/forges')).length).toBe(forgesBefore);
      }
      const created = await session.ok<Forge>('create_forge', { ...fields, ...withSecret });
      answers.push(created);
      expect(created).toMatchObject({
        type: 'forgejo',
        url,
        client: 'e2e-client',
        oauth_host: 'http://oauth.example.invalid',
        skip_verify: true,
      });
      expect(await api.get<Forge>(`/api/forges/${created.id}`)).toMatchObject({
        type: 'forgejo',
        url,
        client: 'e2e-client',
        oauth_host: 'http://oauth.example.invalid',
        skip_verify: true,
      });
      answers.push(await session.call('get_forge', { forge_id: created.id }));
      answers.push(await session.call('list_forges', {}));
      // A new forge lets its accounts log in here: it asked, naming only the forge type.
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toMatch(/^This will add a new forge of type forgejo/);
      expect(session.dialogs[0]).not.toContain(url);
      expect(created.already_existed).toBe(false);

      // The same forge again (a retry, a replayed approval): the existing one, not a second.
      const forgesBefore = (await api.get<Forge[]>('/api/forges')).length;
      const again = await session.ok<Forge>('create_forge', {
        type: 'forgejo',
        url,
        client: 'e2e-client',
        ...withSecret,
      });
      expect(again).toMatchObject({ id: created.id, already_existed: true });
      expect((await api.get<Forge[]>('/api/forges')).length).toBe(forgesBefore);
      expect(session.dialogs).toHaveLength(2);

      // Only the url: Woodpecker's PATCH would blank the rest; the handler merges.
      const newUrl = `${url}-moved`;
      const updated = await session.ok<Forge>('update_forge', {
        forge_id: created.id,
        url: newUrl,
      });
      answers.push(updated);
      expect(session.dialogs).toHaveLength(3);
      expect(session.dialogs[2]).toContain(`settings of forge ${created.id}`);
      const stored = await api.get<Forge>(`/api/forges/${created.id}`);
      expect(stored).toEqual({
        id: created.id,
        type: 'forgejo',
        url: newUrl,
        client: 'e2e-client',
        oauth_host: 'http://oauth.example.invalid',
        skip_verify: true,
      });
      expect(updated).toMatchObject({
        id: created.id,
        url: newUrl,
        type: 'forgejo',
        client: 'e2e-client',
        skip_verify: true,
      });

      // Turning skip_verify off (false) is a change too, and the other fields still stay.
      await session.ok('update_forge', {
        forge_id: created.id,
        skip_verify: false,
        client: 'e2e-client-2',
      });
      expect(session.dialogs).toHaveLength(4);
      const stored2 = await api.get<Forge>(`/api/forges/${created.id}`);
      expect(stored2).toMatchObject({
        type: 'forgejo',
        url: newUrl,
        client: 'e2e-client-2',
        oauth_host: 'http://oauth.example.invalid',
      });
      expect(stored2.skip_verify ?? false).toBe(false);

      await session.ok('delete_forge', { forge_id: created.id });
      expect(session.dialogs).toHaveLength(5);
      expect(session.dialogs[4]).toContain(`delete forge ${created.id}`);
      expect((await api.request('GET', `/api/forges/${created.id}`)).status).toBe(404);
      expect((await api.get<Forge[]>('/api/forges')).map((forge) => forge.id)).not.toContain(
        created.id,
      );

      expect(JSON.stringify({ answers, dialogs: session.dialogs })).not.toContain(secret);
    });
    // Forge 1, which the harness logs in through, is untouched.
    expect((await api.get<Forge>('/api/forges/1')).url).toBe(harnessInfo().forgeUrl);
  });
});

describe.each(REVISIONS)('server on %s (reads)', (revision) => {
  it('get_server_info, get_queue_info and get_log_level agree with the API', async () => {
    const queue = await adminApi().get<QueueInfo>('/api/queue/info');
    const level = await adminApi().get<Record<string, string>>('/api/log-level');
    await withSession({ revision }, async (session) => {
      const info = await session.ok<{ version: string; healthy: boolean }>('get_server_info');
      expect(info).toMatchObject({ version: harnessInfo().version, healthy: true });
      const queued = await session.ok<QueueInfo>('get_queue_info');
      // paused: false is left out, as every false of a view is.
      expect(queued.paused ?? false).toBe(queue.paused);
      expect(queued.stats.worker_count).toBe(queue.stats.worker_count);
      expect(queued.stats.worker_count).toBeGreaterThan(0);
      expect(await session.ok('get_log_level')).toEqual(level);
    });
  });
});

describe.each(REVISIONS)('server on %s (writes)', (revision) => {
  it('set_log_level: debug and warn apply at once, fatal asks first; info is restored', async () => {
    const api = adminApi();
    const original =
      (await api.get<Record<string, string>>('/api/log-level'))['log-level'] ?? 'info';
    try {
      await withSession({ revision }, async (session) => {
        expect(await session.ok('set_log_level', { level: 'debug' })).toMatchObject({
          'log-level': 'debug',
        });
        expect(session.dialogs).toEqual([]);
        expect(await api.get('/api/log-level')).toEqual({ 'log-level': 'debug' });
        expect(await session.ok('get_log_level')).toEqual({ 'log-level': 'debug' });

        await session.ok('set_log_level', { level: 'warn' });
        expect(session.dialogs).toEqual([]);
        expect(await api.get('/api/log-level')).toEqual({ 'log-level': 'warn' });

        await session.ok('set_log_level', { level: 'fatal' });
        expect(session.dialogs).toHaveLength(1);
        expect(session.dialogs[0]).toContain("server's log level to fatal");
        expect(await api.get('/api/log-level')).toEqual({ 'log-level': 'fatal' });

        await session.ok('set_log_level', { level: 'info' });
        expect(session.dialogs).toHaveLength(1);
        expect(await api.get('/api/log-level')).toEqual({ 'log-level': 'info' });
      });
    } finally {
      await api.post('/api/log-level', { 'log-level': original });
    }
    expect(await api.get('/api/log-level')).toEqual({ 'log-level': original });
  });

  it('pause_queue asks first and holds new work back; resume_queue lets it run', async () => {
    const api = adminApi();
    const repo = await createRepo();
    try {
      await withSession({ revision }, async (session) => {
        const paused = await session.ok<{ done: boolean }>('pause_queue');
        expect(paused.done).toBe(true);
        expect(session.dialogs).toHaveLength(1);
        expect(session.dialogs[0]).toContain('pause the task queue');
        expect((await api.get<QueueInfo>('/api/queue/info')).paused).toBe(true);
        expect((await session.ok<QueueInfo>('get_queue_info')).paused).toBe(true);

        // A pipeline started now waits in the queue instead of reaching the agent.
        const pipeline = await api.post<WoodpeckerPipeline>(`/api/repos/${repo.repoId}/pipelines`, {
          branch: 'main',
        });
        const waiting = await waitUntil(
          'the new task to show as pending while the queue is paused',
          async () => {
            const queue = await session.ok<QueueInfo>('get_queue_info');
            return queue.stats.pending_count > 0 ? queue : undefined;
          },
          { timeoutMs: 10_000, intervalMs: 200 },
        );
        expect(waiting.paused).toBe(true);
        expect(
          (
            await api.get<WoodpeckerPipeline>(
              `/api/repos/${repo.repoId}/pipelines/${pipeline.number}`,
            )
          ).status,
        ).toBe('pending');

        const resumed = await session.ok<{ done: boolean }>('resume_queue');
        expect(resumed.done).toBe(true);
        expect(session.dialogs).toHaveLength(1);
        expect((await api.get<QueueInfo>('/api/queue/info')).paused).toBe(false);
        await waitForPipelineStatus(repo.repoId, pipeline.number, ['success']);
      });
    } finally {
      await api.post('/api/queue/resume');
    }
    expect((await api.get<QueueInfo>('/api/queue/info')).paused).toBe(false);
  });
});
