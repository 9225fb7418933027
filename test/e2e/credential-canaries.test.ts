// Canaries as every kind of credential, through the real client, server and Woodpecker:
// the Woodpecker token (a refused one too), a bearer token, secret values, registry
// passwords, a forge's OAuth client secret and an agent token. canaries.ts (wired into
// every e2e session) checks results, errors, dialogs, confirm token texts, the audit log
// and stderr, and fails on one occurrence; here every path a credential takes is walked,
// on both revisions and on the two-call token path, and the checks are counted.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRepo, harnessInfo, serverOlderThan, uniqueName } from '../harness/fixtures.js';
import { addCanary, assertNoLeaks, canaryCounts, checkForCanaries } from './canaries.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';

const canary = (label: string): string => `canary-${label}-${randomBytes(12).toString('hex')}`;

afterAll(() => {
  console.log(
    `[canaries] ${canaryCounts.checked} texts checked in this file, ${canaryCounts.leaks} occurrences`,
  );
});

describe('the canary check itself', () => {
  it('finds a credential in a text and fails the test', () => {
    const value = canary('probe');
    addCanary(value);
    expect(checkForCanaries('a probe', `before ${value} after`)).toHaveLength(1);
    expect(() => assertNoLeaks()).toThrow(/a probe carries a credential/);
    // The error names the channel, never the whole value.
    expect(() => assertNoLeaks()).not.toThrow();
    // Only real occurrences count in the figure printed at the end.
    canaryCounts.checked = 0;
    canaryCounts.leaks = 0;
  });
});

describe.each(REVISIONS)('credentials on %s', (revision) => {
  it('secret values and registry passwords: written, updated, read, listed, refused with a wrong shape, deleted', async () => {
    const repo = await createRepo();
    const name = `CANARY_${randomBytes(4).toString('hex').toUpperCase()}`;
    const address = `${uniqueName('registry')}.example.com`;
    const auditLog = join(mkdtempSync(join(tmpdir(), 'wcm-canary-')), 'audit.log');
    const [value, newValue, password, newPassword] = [
      canary('secret'),
      canary('secret2'),
      canary('password'),
      canary('password2'),
    ];
    await withSession(
      { revision, env: { WOODPECKER_MCP_AUDIT_LOG: auditLog } },
      async (session) => {
        const scope = { scope: 'repository', repo_id: repo.repoId };
        await session.ok('create_secret', { ...scope, name, value, events: ['push'] });
        await session.ok('update_secret', { ...scope, name, value: newValue });
        await session.ok('get_secret', { ...scope, name });
        await session.ok('list_secrets', scope);
        // Wrong shapes around a credential: the error describes the value by its kind only.
        for (const wrong of [
          { value: { nested: value } },
          { value: [value] },
          { value, events: 'push' },
          { value, bogus: value },
        ]) {
          const refused = await session.call('create_secret', {
            ...scope,
            name: `${name}_X`,
            events: ['push'],
            ...wrong,
          });
          expect(refused.isError).toBe(true);
        }
        await session.ok('create_registry', { ...scope, address, username: 'robot', password });
        await session.ok('update_registry', { ...scope, address, password: newPassword });
        await session.ok('get_registry', { ...scope, address });
        await session.ok('list_registries', scope);
        await session.ok('delete_registry', { ...scope, address });
        await session.ok('delete_secret', { ...scope, name });
        expect(session.dialogs.length).toBeGreaterThan(0);
      },
    );
    // The log recorded the writes, and no value (withSession's close already checked it too).
    const log = readFileSync(auditLog, 'utf8');
    expect(log).toContain('create_secret');
    for (const credential of [value, newValue, password, newPassword])
      expect(log).not.toContain(credential);
  });

  it('a forge OAuth client secret and an agent token: dialogs, the two-call token texts, reads', async () => {
    const secret = canary('oauth');
    const url = `http://127.0.0.1:9/${uniqueName('forge')}`;
    await withSession({ revision }, async (session) => {
      if (serverOlderThan('3.17.0')) {
        // Before 3.17 the forge body has no oauth_client_secret: the call is refused by
        // name, nothing is sent, and the refusal does not repeat the secret either.
        const refused = await session.call('create_forge', {
          type: 'forgejo',
          url,
          client: 'canary-client',
          oauth_client_secret: secret,
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain('oauth_client_secret needs Woodpecker');
      } else {
        const forge = await session.ok<{ id: number }>('create_forge', {
          type: 'forgejo',
          url,
          client: 'canary-client',
          oauth_client_secret: secret,
        });
        await session.ok('update_forge', {
          forge_id: forge.id,
          oauth_client_secret: canary('oauth2'),
        });
        await session.ok('get_forge', { forge_id: forge.id });
        await session.ok('list_forges');
        await session.ok('delete_forge', { forge_id: forge.id });
      }

      // create_agent shows the new token once; from then on it is a canary for every read.
      const agentName = uniqueName('canary-agent');
      const agent = await session.ok<{ id: number; token: string }>('create_agent', {
        name: agentName,
        no_schedule: true,
      });
      expect(agent.token.length).toBeGreaterThan(8);
      await session.ok('get_agent', { agent_id: agent.id });
      await session.ok('list_agents');
      await session.ok('update_agent', { agent_id: agent.id, name: agentName, no_schedule: false });
      await session.ok('delete_agent', { agent_id: agent.id });
    });
    // Without dialogs the first call answers with a confirm token text: it carries no secret.
    await withSession({ revision, canElicit: false }, async (session) => {
      const first = await session.call('create_forge', {
        type: 'forgejo',
        url: `${url}-2`,
        client: 'canary-client',
        oauth_client_secret: canary('oauth3'),
      });
      // Before 3.17 the call is refused by name before any question (the canary check still runs).
      expect(textOf(first)).toMatch(
        serverOlderThan('3.17.0') ? /oauth_client_secret needs Woodpecker/ : /confirm_token/,
      );
    });
  });

  it('the Woodpecker token and bearer tokens: refused, accepted, and in errors', async () => {
    // A token Woodpecker refuses: every answer is an error, none repeats it.
    await withSession({ revision, as: { token: canary('wp-token') } }, async (session) => {
      for (const name of ['get_current_user', 'list_repositories', 'get_server_info'])
        await session.call(name);
      expect((await session.call('get_current_user')).isError).toBe(true);
    });
    // Multi-user HTTP: the caller's own token as a bearer, with the server holding none.
    await withSession({ revision, bearer: harnessInfo().userToken }, async (session) => {
      expect((await session.ok<{ login: string }>('get_current_user')).login).toBe(
        harnessInfo().userLogin,
      );
      expect((await session.call('list_users')).isError).toBe(true);
      await session.call('get_repository', { repo_id: 2_000_000_000 });
    });
  });
});
