// End-to-end: the account, users and organizations tools through a real MCP client
// against the harness's Woodpecker.
//
// Woodpecker gives every account made with POST /api/users the forge id "0", and
// (forge_id, forge_remote_id) is unique, so only one such account can exist per forge at a
// time. The tests that create accounts therefore do it on a sandbox forge of their own (a
// forge row nobody logs in through), so they neither collide with each other nor with
// other test files, and forge 1, which the harness logs in through, is never involved.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  serverOlderThan,
  uniqueName,
  userApi,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import type { WoodpeckerPipeline } from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';
import type { ListEnvelope } from '../../runtime/output/answer.js';

interface User {
  id: number;
  login: string;
  email: string;
  forge_id: number;
  forge_remote_id: string;
  admin?: boolean;
  org_id: number;
}
interface Org {
  id?: number;
  name: string;
  forge_id?: number;
  is_user: boolean;
}

let adminOrgId = 0;
let userOrgId = 0;

beforeAll(async () => {
  const info = harnessInfo();
  adminOrgId = (await adminApi().get<User>('/api/user')).org_id;
  userOrgId = (await userApi().get<User>('/api/user')).org_id;
  expect(adminOrgId).toBeGreaterThan(0);
  expect(userOrgId).toBeGreaterThan(0);
  expect(info.adminLogin).not.toBe(info.userLogin);
});

// Sandbox forges made by a test, removed after it (with any account still on them).
const sandboxes: Array<{ forgeId: number; logins: string[] }> = [];

async function sandboxForge(): Promise<{ forgeId: number; logins: string[] }> {
  // Before 3.17 every pre-created account lands on forge 1 whatever is asked (create_user
  // refuses another forge_id there), so forge 1 is the sandbox; its accounts are still removed.
  if (serverOlderThan('3.17.0')) {
    const sandbox = { forgeId: 1, logins: [] as string[] };
    sandboxes.push(sandbox);
    return sandbox;
  }
  const forge = await adminApi().post<{ id: number }>('/api/forges', {
    type: 'gitea',
    url: `http://127.0.0.1:9/${uniqueName('sandbox')}`,
    client: 'sandbox',
  });
  const sandbox = { forgeId: forge.id, logins: [] as string[] };
  sandboxes.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  const api = adminApi();
  for (const sandbox of sandboxes.splice(0)) {
    for (const login of sandbox.logins)
      await api.request('DELETE', `/api/users/${login}?forge_id=${sandbox.forgeId}`);
    if (sandbox.forgeId !== 1) await api.request('DELETE', `/api/forges/${sandbox.forgeId}`);
  }
});

describe.each(REVISIONS)('account on %s', (revision) => {
  it('get_current_user says who the token belongs to, for the admin and for an ordinary user', async () => {
    const info = harnessInfo();
    const asAdmin = await withSession({ revision }, (session) =>
      session.ok<User>('get_current_user'),
    );
    expect(asAdmin).toMatchObject({
      login: info.adminLogin,
      admin: true,
      id: (await adminApi().get<User>('/api/user')).id,
    });
    const asUser = await withSession({ revision, as: 'user' }, (session) =>
      session.ok<User>('get_current_user'),
    );
    expect(asUser).toMatchObject({
      login: info.userLogin,
      id: (await userApi().get<User>('/api/user')).id,
    });
    expect(asUser.admin ?? false).toBe(false);
  });

  it('get_pipeline_feed lists a pipeline that just ran, with its repository', async () => {
    const repo = await createRepo();
    const pipeline = await adminApi().post<WoodpeckerPipeline>(
      `/api/repos/${repo.repoId}/pipelines`,
      { branch: 'main' },
    );
    await waitForPipelineStatus(repo.repoId, pipeline.number, ['success']);
    await withSession({ revision }, async (session) => {
      const feed = await session.ok<
        ListEnvelope<{
          repo_id: number;
          full_name: string;
          number: number;
          status: string;
          event: string;
        }>
      >('get_pipeline_feed');
      const entry = feed.items.find((item) => item.repo_id === repo.repoId);
      expect(entry).toMatchObject({ number: pipeline.number, status: 'success', event: 'manual' });
      // 3.11's feed rows carry no repository name (its model has none); the description says so.
      if (serverOlderThan('3.17.0')) expect(entry).not.toHaveProperty('full_name');
      else expect(entry?.full_name).toBe(repo.fullName);
    });
    // Another account does not see the admin's repository in its feed.
    await withSession({ revision, as: 'user' }, async (session) => {
      const feed = await session.ok<ListEnvelope<{ repo_id: number }>>('get_pipeline_feed');
      expect(feed.items.map((item) => item.repo_id)).not.toContain(repo.repoId);
    });
  });
});

describe.each(REVISIONS)('users on %s (reads)', (revision) => {
  it('list_users pages through every account; get_user finds one by login or by forge_remote_id', async () => {
    const info = harnessInfo();
    const apiUsers = await adminApi().get<User[]>('/api/users?perPage=50');
    const wpUser = apiUsers.find((user) => user.login === info.userLogin && user.forge_id === 1);
    expect(wpUser).toBeDefined();
    await withSession({ revision }, async (session) => {
      const all = await session.ok<ListEnvelope<User>>('list_users');
      expect(all.items.map((user) => user.id).sort()).toEqual(
        apiUsers.map((user) => user.id).sort(),
      );
      expect(all.items.map((user) => user.login)).toEqual(
        expect.arrayContaining([info.adminLogin, info.userLogin]),
      );

      const seen: number[] = [];
      for (let page = 1; page <= 100; page += 1) {
        const one = await session.ok<ListEnvelope<User>>('list_users', { page, per_page: 1 });
        expect(one.may_have_more === true).toBe(one.items.length === 1);
        seen.push(...one.items.map((user) => user.id));
        if (!one.may_have_more) break;
      }
      expect(seen.sort()).toEqual(apiUsers.map((user) => user.id).sort());

      const byLogin = await session.ok<User>('get_user', { login: info.userLogin, forge_id: 1 });
      expect(byLogin).toMatchObject({
        id: wpUser!.id,
        login: info.userLogin,
        email: wpUser!.email,
        forge_id: 1,
      });
      // forge_remote_id selects the account even when the login given is not its own. The
      // 3.11 route takes neither it nor forge_id (a login is unique there): refused by name.
      const remoteArgs = {
        login: 'not-this-one',
        forge_id: 1,
        forge_remote_id: wpUser!.forge_remote_id ?? '12345',
      };
      if (serverOlderThan('3.17.0')) {
        const refused = await session.call('get_user', remoteArgs);
        expect(textOf(refused)).toContain(
          `get_user: forge_remote_id needs Woodpecker ≥ 3.17; this server is ${info.version}`,
        );
        const other = await session.call('get_user', { login: info.userLogin, forge_id: 2 });
        expect(textOf(other)).toContain(
          `get_user: forge_id needs Woodpecker ≥ 3.17; this server is ${info.version}`,
        );
        expect(textOf(other)).toContain('Call again with forge_id: 1 (what it does anyway).');
      } else {
        const byRemoteId = await session.ok<User>('get_user', remoteArgs);
        expect(byRemoteId.id).toBe(wpUser!.id);
      }

      const missing = await session.call('get_user', { login: uniqueName('nobody'), forge_id: 1 });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('HTTP 404');
    });
  });

  it('an admin-only tool with an ordinary token is a 403 tool error that points to get_current_user', async () => {
    await withSession({ revision, as: 'user' }, async (session) => {
      for (const tool of ['list_users', 'list_organizations'] as const) {
        const result = await session.call(tool, {});
        expect(result.isError).toBe(true);
        const text = textOf(result);
        expect(text).toContain('403');
        expect(text).toContain('get_current_user');
        expect(text).toContain(`${tool} needs an instance admin`);
      }
    });
  });
});

describe.each(REVISIONS)('users on %s (writes)', (revision) => {
  it('create_user (no dialog), update_user email (no dialog), grant admin (dialog), remove admin (no dialog), delete_user (dialog)', async () => {
    const sandbox = await sandboxForge();
    const login = uniqueName('e2e-user');
    sandbox.logins.push(login);
    const api = adminApi();
    const read = () => api.get<User>(`/api/users/${login}?forge_id=${sandbox.forgeId}`);

    await withSession({ revision }, async (session) => {
      const created = await session.ok<User>('create_user', {
        login,
        email: 'first@example.invalid',
        forge_id: sandbox.forgeId,
      });
      expect(created).toMatchObject({
        login,
        email: 'first@example.invalid',
        forge_id: sandbox.forgeId,
      });
      expect(session.dialogs).toEqual([]);
      const stored = await read();
      expect(stored).toMatchObject({
        id: created.id,
        login,
        email: 'first@example.invalid',
        forge_id: sandbox.forgeId,
      });
      expect(stored.admin ?? false).toBe(false);
      // Woodpecker makes the account's personal namespace with it.
      expect(await api.get<Org>(`/api/orgs/${stored.org_id}`)).toMatchObject({
        id: stored.org_id,
        name: login,
        is_user: true,
        forge_id: sandbox.forgeId,
      });

      // Woodpecker gives every pre-created account forge_remote_id "0": a second one on the
      // same forge collides, whatever its login.
      const secondLogin = uniqueName('e2e-user');
      const second = await session.call('create_user', {
        login: secondLogin,
        forge_id: sandbox.forgeId,
      });
      if (serverOlderThan('3.17.0')) {
        // 3.11 keeps no forge_remote_id per account (its column is not unique): a second is made.
        expect(second.isError, textOf(second)).toBeFalsy();
        sandbox.logins.push(secondLogin);
      } else {
        expect(second.isError).toBe(true);
        expect(textOf(second)).toContain('HTTP 500');
      }

      // Email only: applies at once.
      const changed = await session.ok<User>('update_user', {
        login,
        forge_id: sandbox.forgeId,
        email: 'second@example.invalid',
        admin: false,
      });
      expect(changed).toMatchObject({ id: created.id, login, email: 'second@example.invalid' });
      expect(session.dialogs).toEqual([]);
      const afterEmail = await read();
      expect(afterEmail).toMatchObject({ id: created.id, email: 'second@example.invalid' });
      expect(afterEmail.admin ?? false).toBe(false);

      // Granting admin asks a person first.
      await session.ok('update_user', {
        login,
        forge_id: sandbox.forgeId,
        email: 'second@example.invalid',
        admin: true,
      });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(
        `account ${created.id} of forge ${sandbox.forgeId} an instance admin`,
      );
      expect(await read()).toMatchObject({ email: 'second@example.invalid', admin: true });

      // Taking it away again applies at once.
      await session.ok('update_user', {
        login,
        forge_id: sandbox.forgeId,
        email: 'second@example.invalid',
        admin: false,
      });
      expect(session.dialogs).toHaveLength(1);
      expect((await read()).admin ?? false).toBe(false);

      // delete: asked; the account and its namespace are gone.
      const deleted = await session.ok<{ done: boolean }>('delete_user', {
        login,
        forge_id: sandbox.forgeId,
      });
      expect(deleted.done).toBe(true);
      expect(session.dialogs).toHaveLength(2);
      expect(session.dialogs[1]).toContain(
        `delete account ${created.id} of forge ${sandbox.forgeId}`,
      );
      expect(
        (await api.request('GET', `/api/users/${login}?forge_id=${sandbox.forgeId}`)).status,
      ).toBe(404);
      expect(
        (await api.request<Org>('GET', `/api/orgs/${stored.org_id}`)).body?.name ?? '',
      ).not.toBe(login);
      sandbox.logins.splice(sandbox.logins.indexOf(login), 1);
    });
  });

  it('create_user with admin: true asks first; Woodpecker 3.17 ignores admin on create', async () => {
    const sandbox = await sandboxForge();
    const login = uniqueName('e2e-admin');
    sandbox.logins.push(login);
    await withSession({ revision }, async (session) => {
      const created = await session.ok<User>('create_user', {
        login,
        forge_id: sandbox.forgeId,
        admin: true,
      });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain('new account that is an instance admin');
      expect(created.login).toBe(login);
      // What 3.17 really does: the account exists, but it is not an admin.
      const stored = await adminApi().get<User>(`/api/users/${login}?forge_id=${sandbox.forgeId}`);
      expect(stored.id).toBe(created.id);
      expect(stored.admin ?? false).toBe(false);
      expect(created.admin ?? false).toBe(false);

      await session.ok('delete_user', { login, forge_id: sandbox.forgeId });
      expect(
        (await adminApi().request('GET', `/api/users/${login}?forge_id=${sandbox.forgeId}`)).status,
      ).toBe(404);
      sandbox.logins.length = 0;
    });
  });
});

describe.each(REVISIONS)('organizations on %s (reads)', (revision) => {
  it('list_organizations, lookup_organization, get_organization, get_organization_permissions', async () => {
    const info = harnessInfo();
    const apiOrgs = (await adminApi().get<Org[] | null>('/api/orgs')) ?? [];
    await withSession({ revision }, async (session) => {
      // Woodpecker lists only real organizations (is_user false); the stand-in forge has none,
      // and personal namespaces never appear here.
      const listed = await session.ok<ListEnvelope<Org>>('list_organizations', {
        page: 1,
        per_page: 50,
      });
      expect(listed.items.map((org) => [org.id, org.name])).toEqual(
        apiOrgs.map((org) => [org.id, org.name]),
      );
      // is_user false is left out of the view, as every false is.
      expect(listed.items.every((org) => org.is_user === undefined)).toBe(true);
      expect(listed.items.map((org) => org.id)).not.toContain(adminOrgId);
      expect(listed.may_have_more).toBeUndefined(); // said only when there may be more

      const looked = await session.ok<Org>('lookup_organization', { name: info.adminLogin });
      expect(looked).toMatchObject({
        id: adminOrgId,
        name: info.adminLogin,
        is_user: true,
        forge_id: 1,
      });
      const lookedUser = await session.ok<Org>('lookup_organization', { name: info.userLogin });
      expect(lookedUser).toMatchObject({ id: userOrgId, name: info.userLogin, is_user: true });
      const unknown = await session.call('lookup_organization', {
        name: uniqueName('no-such-org'),
      });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('HTTP 404');

      expect(await session.ok<Org>('get_organization', { org_id: userOrgId })).toMatchObject({
        id: userOrgId,
        name: info.userLogin,
        is_user: true,
        forge_id: 1,
      });

      expect(await session.ok('get_organization_permissions', { org_id: adminOrgId })).toEqual({
        member: true,
        admin: true,
      });
    });
    // An ordinary user: admin of its own namespace, nothing in the admin's.
    await withSession({ revision, as: 'user' }, async (session) => {
      expect(await session.ok('get_organization_permissions', { org_id: userOrgId })).toEqual({
        member: true,
        admin: true,
      });
      expect(await session.ok('get_organization_permissions', { org_id: adminOrgId })).toEqual({
        member: false,
        admin: false,
      });
      expect(await session.ok<Org>('get_organization', { org_id: userOrgId })).toMatchObject({
        id: userOrgId,
        name: info.userLogin,
      });
    });
  });
});

describe.each(REVISIONS)('organizations on %s (delete)', (revision) => {
  it('delete_organization asks first and removes the organization', async () => {
    // A throwaway namespace: an account pre-created on a sandbox forge brings its own org.
    const sandbox = await sandboxForge();
    const login = uniqueName('e2e-org');
    sandbox.logins.push(login);
    const owner = await adminApi().post<User>('/api/users', { login, forge_id: sandbox.forgeId });
    const before = await adminApi().get<Org>(`/api/orgs/${owner.org_id}`);
    expect(before).toMatchObject({ id: owner.org_id, name: login, is_user: true });

    await withSession({ revision }, async (session) => {
      expect(await session.ok<Org>('get_organization', { org_id: owner.org_id })).toMatchObject({
        id: owner.org_id,
        name: login,
      });
      const deleted = await session.ok<{ done: boolean }>('delete_organization', {
        org_id: owner.org_id,
      });
      expect(deleted.done).toBe(true);
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`delete organization ${owner.org_id} from Woodpecker`);
    });
    // Woodpecker 3.17 answers an unknown org id with an empty organization rather than 404.
    const after = await adminApi().request<Org | null>('GET', `/api/orgs/${owner.org_id}`);
    expect(after.status === 404 || (after.body?.name === '' && after.body?.id === undefined)).toBe(
      true,
    );
  });
});
