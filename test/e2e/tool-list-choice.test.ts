// Choosing tools as a client sees it, through the real MCP client against the real
// Woodpecker: admin-only tools left out of a non-admin token's list (and answering why
// when called anyway), and dynamic discovery, where the first list is the essential
// tools plus find_tools and enable_toolset, growing with notifications/tools/list_changed
// on stdio and 2025 sessions and staying put on stateless 2026-07-28.
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { tools as allTools } from '../../generated/index.js';
import { tokensOf } from '../../bench/toolListCost.js';
import { loadConfig } from '../../runtime/process/config.js';
import { buildRuntime } from '../../runtime/process/buildRuntime.js';
import { harnessInfo } from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession, type Revision } from './mcpSession.js';
import { startStdioServer } from './stdioServer.js';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';

const ADMIN_ONLY = allTools.filter((tool) => tool.adminOnly).map((tool) => tool.name);
const ESSENTIAL = allTools.filter((tool) => tool.essential).map((tool) => tool.name);
const SECRETS = allTools.filter((tool) => tool.group === 'secrets').map((tool) => tool.name);
const names = async (client: Client) =>
  (await client.listTools()).tools.map((tool) => tool.name).sort();

async function stdioClient(env: Record<string, string>, revision?: Revision): Promise<Client> {
  const server = await startStdioServer({
    env: { WOODPECKER_URL: harnessInfo().url, ...env },
    name: 'tool-list-choice',
    ...(revision ? { revision } : {}),
  });
  return server.client;
}

describe('toolsets in WOODPECKER_ALLOW_TOOLS and WOODPECKER_DENY_TOOLS', () => {
  it('a toolset selects its group, beside essential and names; deny still wins', async () => {
    await withSession(
      {
        revision: '2026-07-28',
        env: {
          WOODPECKER_ALLOW_TOOLS: 'essential,secrets',
          WOODPECKER_DENY_TOOLS: 'delete_secret',
        },
      },
      async (session) => {
        expect(await names(session.client)).toEqual(
          [...ESSENTIAL, ...SECRETS.filter((name) => name !== 'delete_secret')].sort(),
        );
        expect(await session.ok('list_secrets', { scope: 'global' })).toHaveProperty('items');
      },
    );
  });

  it('a misspelt toolset stops startup and lists the toolsets', () => {
    expect(() => buildRuntime(loadConfig({ WOODPECKER_DENY_TOOLS: 'secret' }))).toThrow(
      /entry "secret" matches no tool; did you mean secrets\? .*a toolset: repositories, pipelines, .*secrets/,
    );
  });
});

describe('admin-only tools and a non-admin token', () => {
  it('has admin-only tools to hide (the manifest marks 18)', () => {
    expect(ADMIN_ONLY).toContain('list_users');
    expect(ADMIN_ONLY).toHaveLength(18);
  });

  it.each(REVISIONS)(
    'on %s over HTTP: left out for the user, listed for the admin; called anyway, it answers why',
    async (revision) => {
      await withSession({ revision, as: 'user' }, async (session) => {
        const listed = await names(session.client);
        expect(listed).toHaveLength(CATALOGUE_SIZE - ADMIN_ONLY.length);
        for (const name of ADMIN_ONLY) expect(listed).not.toContain(name);
        const refused = await session.call('list_users');
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain(
          `list_users needs an instance admin, and the account of this token (${harnessInfo().userLogin}) is not one`,
        );
        expect(textOf(refused)).toContain('WOODPECKER_HIDE_ADMIN_TOOLS=false');
        expect(textOf(refused)).not.toContain(harnessInfo().userToken);
      });
      await withSession({ revision }, async (session) =>
        expect(await names(session.client)).toHaveLength(CATALOGUE_SIZE),
      );
    },
  );

  it('per request token over HTTP: each bearer token gets the list its account can use', async () => {
    await withSession(
      { revision: '2026-07-28', bearer: harnessInfo().userToken },
      async (session) =>
        expect(await names(session.client)).toHaveLength(CATALOGUE_SIZE - ADMIN_ONLY.length),
    );
    await withSession(
      { revision: '2025-11-25', bearer: harnessInfo().adminToken },
      async (session) => expect(await names(session.client)).toHaveLength(CATALOGUE_SIZE),
    );
  });

  it('WOODPECKER_HIDE_ADMIN_TOOLS=false lists every tool, and Woodpecker answers the call', async () => {
    await withSession(
      { revision: '2025-11-25', as: 'user', env: { WOODPECKER_HIDE_ADMIN_TOOLS: 'false' } },
      async (session) => {
        expect(await names(session.client)).toHaveLength(CATALOGUE_SIZE);
        expect(textOf(await session.call('list_users'))).toContain('HTTP 403');
      },
    );
  });

  it('on stdio the server learns who it is from Woodpecker', async () => {
    const client = await stdioClient({ WOODPECKER_TOKEN: harnessInfo().userToken });
    try {
      const listed = await names(client);
      expect(listed).toHaveLength(CATALOGUE_SIZE - ADMIN_ONLY.length);
      expect(listed).not.toContain('get_queue_info');
    } finally {
      await client.close();
    }
  });
});

describe('dynamic discovery (WOODPECKER_DYNAMIC_TOOLS=true)', () => {
  const FIRST = [...ESSENTIAL, 'enable_toolset', 'find_tools'].sort();

  it('stdio (2025-11-25): essential tools plus two; find_tools searches, enable_toolset grows the list and says so', async () => {
    const client = await stdioClient({
      WOODPECKER_TOKEN: harnessInfo().adminToken,
      WOODPECKER_DYNAMIC_TOOLS: 'true',
    });
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed += 1;
    });
    try {
      const first = (await client.listTools()).tools;
      expect(first.map((tool) => tool.name).sort()).toEqual(FIRST);
      expect(tokensOf(first)).toBeLessThanOrEqual(2_500);
      expect(client.getInstructions()).toContain('find_tools searches all of them');

      const found = await client.callTool({
        name: 'find_tools',
        arguments: { query: 'delete secret' },
      });
      const hits = (found.structuredContent as { tools: { name: string; toolset: string }[] })
        .tools;
      expect(hits[0]).toMatchObject({ name: 'delete_secret', toolset: 'secrets' });

      const enabled = await client.callTool({
        name: 'enable_toolset',
        arguments: { toolset: 'secrets' },
      });
      expect(enabled.structuredContent).toMatchObject({
        toolset: 'secrets',
        listed: true,
        tools: SECRETS,
      });
      await expect.poll(() => changed).toBe(1);
      expect(await names(client)).toEqual([...FIRST, ...SECRETS].sort());

      const bad = await client.callTool({
        name: 'enable_toolset',
        arguments: { toolset: 'secret' },
      });
      expect(bad.isError).toBe(true);
      expect(textOf(bad as never)).toContain('toolset must be one of');
    } finally {
      await client.close();
    }
  });

  it('finds only what this server offers this token: denied tools and, for a non-admin, admin-only tools stay out', async () => {
    await withSession(
      {
        revision: '2026-07-28',
        as: 'user',
        env: { WOODPECKER_DYNAMIC_TOOLS: 'true', WOODPECKER_DENY_TOOLS: 'delete_secret' },
      },
      async (session) => {
        const found = await session.ok<{ tools: { name: string }[] }>('find_tools', {
          query: 'delete',
        });
        const foundNames = found.tools.map((tool) => tool.name);
        expect(foundNames).toContain('delete_pipeline');
        expect(foundNames).not.toContain('delete_secret');
        for (const name of ADMIN_ONLY) expect(foundNames).not.toContain(name);
        const users = await session.ok<{ tools: string[] }>('enable_toolset', { toolset: 'users' });
        expect(users.tools).toEqual([]);
      },
    );
  });

  it('2025-11-25 HTTP session: enabling a toolset notifies the client and lists it', async () => {
    await withSession(
      { revision: '2025-11-25', env: { WOODPECKER_DYNAMIC_TOOLS: 'true' } },
      async (session) => {
        let changed = 0;
        session.client.setNotificationHandler('notifications/tools/list_changed', () => {
          changed += 1;
        });
        expect(await names(session.client)).toEqual(FIRST);
        await session.ok('enable_toolset', { toolset: 'crons' });
        await expect.poll(() => changed).toBe(1);
        expect(await names(session.client)).toContain('create_cron');
      },
    );
  });

  it('stdio on 2026-07-28 is stateless too: enable_toolset says so and the list stays', async () => {
    const client = await stdioClient(
      { WOODPECKER_TOKEN: harnessInfo().adminToken, WOODPECKER_DYNAMIC_TOOLS: 'true' },
      '2026-07-28',
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const enabled = await client.callTool({
        name: 'enable_toolset',
        arguments: { toolset: 'secrets' },
      });
      expect(enabled.structuredContent).toMatchObject({ listed: false, tools: SECRETS });
      expect(await names(client)).toEqual(FIRST);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 (stateless): the list cannot grow, enable_toolset says so, and every tool is callable by name', async () => {
    await withSession(
      { revision: '2026-07-28', env: { WOODPECKER_DYNAMIC_TOOLS: 'true' } },
      async (session) => {
        expect(await names(session.client)).toEqual(FIRST);
        const answer = await session.ok<{ listed: boolean; tools: string[]; note: string }>(
          'enable_toolset',
          { toolset: 'server' },
        );
        expect(answer.listed).toBe(false);
        expect(answer.tools).toContain('get_queue_info');
        expect(answer.note).toContain('stateless');
        expect(await names(session.client)).toEqual(FIRST);
        // Callable by name though not listed: the queue's view answers (its workers counted).
        expect(await session.ok('get_queue_info')).toHaveProperty('stats.worker_count');
      },
    );
  });
});
