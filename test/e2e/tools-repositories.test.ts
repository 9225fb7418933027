// End-to-end: every tool of the "repositories" group, called through a real MCP client
// against the real Woodpecker of the harness, with each effect checked in Woodpecker
// (and, where Woodpecker talks to the forge, at the forge stand-in).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  forgeRepo,
  harnessInfo,
  pullRequestWebhook,
  pushWebhook,
  serverOlderThan,
  uniqueName,
  userApi,
  type TestRepo,
} from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession, type McpSession } from './mcpSession.js';
import type { ListEnvelope } from '../../runtime/output/answer.js';

interface Repo {
  id: number;
  full_name: string;
  name: string;
  owner: string;
  forge_remote_id: string;
  active: boolean;
  user_id?: number;
  visibility: string;
  timeout: number;
  config_file: string;
  require_approval: string;
  allow_pr: boolean;
  trusted: { network: boolean; volumes: boolean; security: boolean };
}

type ListResult<T = Record<string, unknown>> = ListEnvelope<T>;

const getRepo = (id: number): Promise<Repo> => adminApi().get<Repo>(`/api/repos/${id}`);

/** Every page of list_repositories at instance scope, until a short page (bounded). */
async function allInstanceRepos(session: McpSession, includeInactive: boolean): Promise<Repo[]> {
  const all: Repo[] = [];
  // 20 a page: a page of 50 repositories with their last pipelines can pass the result
  // limit, which would drop entries the next page does not bring back.
  for (let page = 1; page <= 100; page++) {
    const result = await session.ok<ListResult<Repo> & { shortened?: unknown }>(
      'list_repositories',
      { scope: 'instance', include_inactive: includeInactive, page, per_page: 20 },
    );
    expect(result.shortened, `page ${page} was shortened; ask for fewer per page`).toBeUndefined();
    all.push(...result.items);
    if (!result.may_have_more) return all;
  }
  throw new Error('more than 100 pages of repositories');
}

/** Deletes a hook at the forge stand-in directly, as a forge admin clicking "delete" would. */
async function deleteForgeHook(repo: TestRepo, hookId: number): Promise<void> {
  const response = await fetch(
    `${harnessInfo().forgeUrl}/api/v1/repos/${repo.owner}/${repo.name}/hooks/${hookId}`,
    { method: 'DELETE' },
  );
  expect(response.status).toBe(204);
}

describe.each(REVISIONS)('repository reads on %s', (revision) => {
  let active: TestRepo;
  let inactive: TestRepo;
  let userOwned: TestRepo;

  beforeAll(async () => {
    [active, inactive, userOwned] = await Promise.all([
      createRepo({ branches: ['dev', 'feature-x'] }),
      createRepo({ activate: false }),
      createRepo({ owner: 'user' }),
    ]);
  });

  it('list_repositories (user scope): active repos, the name filter, and include_inactive asks the forge', async () => {
    // Woodpecker does not page /user/repos, and by now this run has made hundreds of
    // repositories: lift the result limit so the whole list is there to check.
    await withSession(
      { revision, env: { WOODPECKER_MCP_MAX_RESULT_BYTES: '50000000' } },
      async (session) => {
        const mine = await session.ok<ListResult<Repo>>('list_repositories', {});
        const ids = mine.items.map((repo) => repo.id);
        expect(ids).toContain(active.repoId);
        // Not activated: Woodpecker does not know it without asking the forge.
        expect(mine.items.map((repo) => repo.full_name)).not.toContain(inactive.fullName);
        // Another account's repository is not "mine".
        expect(ids).not.toContain(userOwned.repoId);

        const named = await session.ok<ListResult<Repo>>('list_repositories', {
          name: active.name,
        });
        expect(named.items.map((repo) => repo.full_name)).toEqual([active.fullName]);

        const withInactive = await session.ok<ListResult<Repo>>('list_repositories', {
          include_inactive: true,
        });
        const found = withInactive.items.find((repo) => repo.full_name === inactive.fullName);
        expect(found).toBeDefined();
        expect(found!.active).toBeUndefined(); // false is left out of the view
        expect(String(found!.forge_remote_id)).toBe(String(inactive.forgeRemoteId));
        expect(withInactive.items.find((repo) => repo.full_name === active.fullName)?.active).toBe(
          true,
        );
      },
    );
    // The user's own listing has its repository (the list is per account).
    await withSession(
      { revision, as: 'user', env: { WOODPECKER_MCP_MAX_RESULT_BYTES: '50000000' } },
      async (session) => {
        const theirs = await session.ok<ListResult<Repo>>('list_repositories', {});
        expect(theirs.items.map((repo) => repo.id)).toContain(userOwned.repoId);
        expect(theirs.items.map((repo) => repo.id)).not.toContain(active.repoId);
      },
    );
  });

  it("list_repositories (instance scope): every account's active repositories, paged", async () => {
    await withSession({ revision }, async (session) => {
      const everything = await allInstanceRepos(session, false);
      const ids = everything.map((repo) => repo.id);
      expect(ids).toContain(active.repoId);
      expect(ids).toContain(userOwned.repoId);
      expect(everything.every((repo) => repo.active)).toBe(true);

      const firstPage = await session.ok<ListResult<Repo>>('list_repositories', {
        scope: 'instance',
        per_page: 1,
      });
      expect(firstPage.items).toHaveLength(1);
      expect(firstPage.may_have_more).toBe(true);
      expect(firstPage.per_page).toBe(1);
      const secondPage = await session.ok<ListResult<Repo>>('list_repositories', {
        scope: 'instance',
        page: 2,
        per_page: 1,
      });
      expect(secondPage.items).toHaveLength(1);
      expect(secondPage.items[0]!.id).not.toBe(firstPage.items[0]!.id);
    });
    // An ordinary user may not list the instance.
    await withSession({ revision, as: 'user' }, async (session) => {
      const refused = await session.call('list_repositories', { scope: 'instance' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('403');
    });
  });

  it('get_repository returns the repository Woodpecker has', async () => {
    await withSession({ revision }, async (session) => {
      const repo = await session.ok<Repo>('get_repository', { repo_id: active.repoId });
      const truth = await getRepo(active.repoId);
      expect(repo).toMatchObject({
        id: active.repoId,
        full_name: active.fullName,
        active: true,
        forge_remote_id: truth.forge_remote_id,
      });
      expect(repo.full_name).toBe(truth.full_name);
    });
  });

  it('lookup_repository finds "owner/name" (the slash survives the path)', async () => {
    await withSession({ revision }, async (session) => {
      const repo = await session.ok<Repo>('lookup_repository', { full_name: active.fullName });
      expect(repo.id).toBe(active.repoId);
      expect(repo.full_name).toBe(active.fullName);

      const missing = await session.call('lookup_repository', {
        full_name: `${active.owner}/${uniqueName('nope')}`,
      });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('404');
    });
  });

  it('get_repository_permissions: the owner may do everything, another user only read', async () => {
    await withSession({ revision }, async (session) => {
      const perms = await session.ok<{ pull: boolean; push: boolean; admin: boolean }>(
        'get_repository_permissions',
        { repo_id: active.repoId },
      );
      expect(perms).toMatchObject({ pull: true, push: true, admin: true });
    });
    await withSession({ revision, as: 'user' }, async (session) => {
      const perms = await session.ok<{ pull: boolean; push: boolean; admin: boolean }>(
        'get_repository_permissions',
        { repo_id: active.repoId },
      );
      // The forge stand-in gives non-owners read access only; Woodpecker must say the same.
      expect(perms).toMatchObject({ pull: true, push: false, admin: false });
      const own = await session.ok<{ pull: boolean; push: boolean; admin: boolean }>(
        'get_repository_permissions',
        { repo_id: userOwned.repoId },
      );
      expect(own).toMatchObject({ pull: true, push: true, admin: true });
    });
  });

  it('list_repository_branches: what the forge has, paged', async () => {
    const forge = await forgeRepo(active);
    await withSession({ revision }, async (session) => {
      const branches = await session.ok<ListResult<unknown>>('list_repository_branches', {
        repo_id: active.repoId,
      });
      const names = branches.items.map((item) =>
        typeof item === 'string' ? item : (item as { name: string }).name,
      );
      expect(names.slice().sort()).toEqual(Object.keys(forge.branches).sort());
      expect(names).toEqual(expect.arrayContaining(['main', 'dev', 'feature-x']));
      // All of it on the first page: the envelope says nothing more.
      expect(Object.keys(branches).sort()).toEqual(['items', 'source', 'untrusted']);

      const onePerPage = await session.ok<ListResult<unknown>>('list_repository_branches', {
        repo_id: active.repoId,
        per_page: 1,
      });
      expect(onePerPage.items).toHaveLength(1);
      expect(onePerPage.may_have_more).toBe(true);
      const third = await session.ok<ListResult<unknown>>('list_repository_branches', {
        repo_id: active.repoId,
        page: 3,
        per_page: 1,
      });
      expect(third.items).toHaveLength(1);
      expect(third).toMatchObject({ page: 3, per_page: 1, may_have_more: true });
      const fourth = await session.ok<ListResult<unknown>>('list_repository_branches', {
        repo_id: active.repoId,
        page: 4,
        per_page: 1,
      });
      expect(fourth.items).toHaveLength(0);
      // Past the end: the page is said, so an empty list is not read as the first page.
      expect(fourth.page).toBe(4);
      expect(fourth.may_have_more).toBeUndefined();
    });
  });

  it('list_pull_requests: the open pull requests the forge reports', async () => {
    const repo = await createRepo();
    const title = `Fix ${uniqueName('pr')}`;
    const delivered = await pullRequestWebhook(repo, { number: 7, title });
    expect(delivered.status).toBeLessThan(300);
    await withSession({ revision }, async (session) => {
      // Woodpecker's own shape: the pull request number is `index`, a string.
      const pulls = await session.ok<ListResult<{ index: string; title: string }>>(
        'list_pull_requests',
        { repo_id: repo.repoId },
      );
      expect(pulls.items).toEqual([{ index: '7', title }]);
      expect(pulls.may_have_more).toBeUndefined();
      expect(pulls.per_page).toBeUndefined();
    });
  });
});

describe('repository writes', () => {
  it.each(REVISIONS)(
    'activate_repository activates a forge repository: webhook installed, repo active (%s)',
    async (revision) => {
      const repo = await createRepo({ activate: false });
      expect((await forgeRepo(repo)).hooks).toHaveLength(0);
      await withSession({ revision }, async (session) => {
        const activated = await session.ok<Repo>('activate_repository', {
          forge_remote_id: String(repo.forgeRemoteId),
        });
        expect(activated.full_name).toBe(repo.fullName);
        expect(activated.id).toBeGreaterThan(0);
        const truth = await getRepo(activated.id);
        expect(truth).toMatchObject({ active: true, full_name: repo.fullName });
        const hooks = (await forgeRepo(repo)).hooks;
        expect(hooks).toHaveLength(1);
        expect(hooks[0]!.urlWithoutToken).toContain('/api/hook');
        // A push now starts a pipeline.
        const push = await pushWebhook(repo);
        expect(push.status).toBe(200);

        // Again: 409, explained.
        const again = await session.call('activate_repository', {
          forge_remote_id: String(repo.forgeRemoteId),
        });
        expect(again.isError).toBe(true);
        expect(textOf(again)).toContain('409');
        expect(textOf(again)).toContain('already active');
        expect(session.dialogs).toHaveLength(0);
      });
    },
  );

  it('update_repository: narrowing applies at once, widening asks first, both take effect (2026-07-28)', async () => {
    const repo = await createRepo({ private: true });
    expect((await getRepo(repo.repoId)).visibility).toBe('private');
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const narrowed = await session.ok<Repo>('update_repository', {
        repo_id: repo.repoId,
        timeout: 17,
        config_file: '.ci/pipeline.yaml',
        require_approval: 'all_events',
        allow_pr: false,
      });
      expect(narrowed).toMatchObject({
        timeout: 17,
        config_file: '.ci/pipeline.yaml',
        require_approval: 'all_events',
      });
      // Through the repository view, as get_repository answers: false is left out.
      expect(narrowed.allow_pr ?? false).toBe(false);
      expect(session.dialogs).toHaveLength(0);
      expect(await getRepo(repo.repoId)).toMatchObject({
        timeout: 17,
        config_file: '.ci/pipeline.yaml',
        require_approval: 'all_events',
        allow_pr: false,
      });

      const widened = await session.ok<Repo>('update_repository', {
        repo_id: repo.repoId,
        require_approval: 'none',
        visibility: 'public',
        trusted_network: true,
      });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`repository ${repo.repoId}`);
      expect(widened).toMatchObject({ require_approval: 'none', visibility: 'public' });
      const truth = await getRepo(repo.repoId);
      expect(truth).toMatchObject({ require_approval: 'none', visibility: 'public', timeout: 17 });
      expect(truth.trusted.network).toBe(true);
      expect(truth.trusted.volumes).toBe(false);
    });
  });

  it('repair_repository (scope repository) reinstalls a webhook deleted at the forge (2025-11-25)', async () => {
    const repo = await createRepo();
    const [hook] = (await forgeRepo(repo)).hooks;
    expect(hook).toBeDefined();
    await deleteForgeHook(repo, hook!.id);
    // Broken: a push cannot reach Woodpecker any more.
    await expect(pushWebhook(repo)).rejects.toThrow(/no active webhook/);

    await withSession({ revision: '2025-11-25' }, async (session) => {
      const repaired = await session.ok<{ done: boolean }>('repair_repository', {
        scope: 'repository',
        repo_id: repo.repoId,
      });
      expect(repaired.done).toBe(true);
      expect(session.dialogs).toHaveLength(0);
    });
    const hooks = (await forgeRepo(repo)).hooks;
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.id).not.toBe(hook!.id);
    expect(hooks[0]!.hasAccessToken).toBe(true);
    const before = await adminApi().get<unknown[]>(`/api/repos/${repo.repoId}/pipelines`);
    const push = await pushWebhook(repo, { message: 'after repair' });
    expect(push.status).toBe(200);
    const after = await adminApi().get<unknown[]>(`/api/repos/${repo.repoId}/pipelines`);
    expect(after.length).toBe(before.length + 1);
  });

  it("repair_repository (scope instance) asks first, reinstalls every active repository's webhook, and names the ones it could not repair (2026-07-28)", async () => {
    const healthy = await createRepo();
    const [hook] = (await forgeRepo(healthy)).hooks;
    // A repository Woodpecker cannot repair: wp-user's private repository, owned in
    // Woodpecker by wp-admin (chown), whose forge token cannot see it.
    const broken = await createRepo({ owner: 'user', private: true });
    await adminApi().post(`/api/repos/${broken.repoId}/chown`);

    await withSession({ revision: '2026-07-28' }, async (session) => {
      const failed = await session.call('repair_repository', { scope: 'instance' });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain('every active repository');
      if (serverOlderThan('3.17.0')) {
        // 3.11 skips a repository it cannot repair and answers 204 (the description says so).
        expect(failed.isError, textOf(failed)).toBeFalsy();
      } else {
        expect(failed.isError).toBe(true);
        // The ids Woodpecker lists are what the model needs to go on.
        expect(textOf(failed)).toContain('500');
        expect(textOf(failed)).toMatch(new RegExp(`failed_repos[^\\n]*\\b${broken.repoId}\\b`));
        expect(textOf(failed)).not.toMatch(
          new RegExp(`failed_repos[^\\n]*\\b${healthy.repoId}\\b`),
        );
      }
      // The healthy repository was repaired all the same.
      const hooks = (await forgeRepo(healthy)).hooks;
      expect(hooks).toHaveLength(1);
      expect(hooks[0]!.id).not.toBe(hook!.id);

      // Give the broken repository back to its forge owner; now the whole instance repairs.
      await userApi().post(`/api/repos/${broken.repoId}/chown`);
      const repaired = await session.call('repair_repository', { scope: 'instance' });
      expect(session.dialogs).toHaveLength(2);
      if (repaired.isError) {
        // Other test files share this server; only a repository they left unreachable may fail.
        expect(textOf(repaired)).not.toMatch(
          new RegExp(`failed_repos[^\\n]*\\b(${broken.repoId}|${healthy.repoId})\\b`),
        );
      } else {
        expect(repaired.structuredContent).toMatchObject({ done: true });
      }
    });
  });

  it('move_repository points the repository at its new forge name (2025-11-25)', async () => {
    const repo = await createRepo();
    const oldHooks = (await forgeRepo(repo)).hooks;
    expect(oldHooks).toHaveLength(1);
    // The forge stand-in cannot rename; the renamed repository is a repository with the new name.
    const renamed = await createRepo({ activate: false, name: uniqueName('moved') });
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const moved = await session.ok<{
        moved: boolean;
        full_name: string;
        woodpecker_status: number;
      }>('move_repository', { repo_id: repo.repoId, to: renamed.fullName });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`repository ${repo.repoId}`);
      expect(moved).toMatchObject({ moved: true, full_name: renamed.fullName });
      // 3.11 answers 500 after it has moved the repository (move-repository-v3.11.test.ts);
      // the tool reports the move and the status.
      if (serverOlderThan('3.17.0')) {
        expect(moved.woodpecker_status).toBe(500);
        expect((moved as { note?: string }).note).toContain(
          'run repair_repository for this repository',
        );
      } else expect(moved.woodpecker_status).toBeLessThan(300);
    });
    const truth = await getRepo(repo.repoId);
    expect(truth.full_name).toBe(renamed.fullName);
    expect(truth.name).toBe(renamed.name);
    expect(truth.active).toBe(true);
    if (serverOlderThan('3.17.0')) {
      // 3.11 fails before it reinstalls the webhook; the answer said to repair, and that works.
      await withSession({ revision: '2025-11-25' }, (session) =>
        session.ok('repair_repository', { scope: 'repository', repo_id: repo.repoId }),
      );
    }
    // Woodpecker reinstalled its webhook at the new location.
    expect((await forgeRepo(renamed)).hooks).toHaveLength(1);
    const lookedUp = await adminApi().get<Repo>(`/api/repos/lookup/${renamed.fullName}`);
    expect(lookedUp.id).toBe(repo.repoId);
  });

  it('chown_repository makes the calling account the owner (2026-07-28)', async () => {
    // Woodpecker's API does not show a repository's owner (user_id), but it acts with the
    // owner's forge token: for a private repository of wp-user, the forge answers
    // Woodpecker's branch listing only while wp-user is the owner.
    const repo = await createRepo({ owner: 'user', private: true });
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const before = await session.ok<ListResult<string>>('list_repository_branches', {
        repo_id: repo.repoId,
      });
      expect(before.items).toEqual([repo.defaultBranch]);

      const result = await session.ok<Repo>('chown_repository', { repo_id: repo.repoId });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`owner of repository ${repo.repoId}`);
      expect(result.full_name).toBe(repo.fullName);

      // Now Woodpecker asks the forge as wp-admin, who cannot see wp-user's private repository.
      const after = await session.call('list_repository_branches', { repo_id: repo.repoId });
      expect(after.isError).toBe(true);
      expect(textOf(after)).toContain('repository not found');
    });
    // Ownership moved, the forge owner did not.
    expect(await getRepo(repo.repoId)).toMatchObject({ owner: repo.owner, active: true });

    // wp-user (admin of the repository at the forge) takes it back, on the other revision.
    await withSession({ revision: '2025-11-25', as: 'user' }, async (session) => {
      await session.ok('chown_repository', { repo_id: repo.repoId });
      expect(session.dialogs).toHaveLength(1);
    });
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const again = await session.ok<ListResult<string>>('list_repository_branches', {
        repo_id: repo.repoId,
      });
      expect(again.items).toEqual([repo.defaultBranch]);
    });
  });

  it('delete_repository deactivates: webhook removed, inactive, still listed with include_inactive (2025-11-25)', async () => {
    const repo = await createRepo();
    expect((await forgeRepo(repo)).hooks).toHaveLength(1);
    await withSession({ revision: '2025-11-25' }, async (session) => {
      await session.ok('delete_repository', { repo_id: repo.repoId });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`deactivate repository ${repo.repoId}`);

      expect((await getRepo(repo.repoId)).active).toBe(false);
      expect((await forgeRepo(repo)).hooks).toHaveLength(0);

      const activeOnly = await allInstanceRepos(session, false);
      expect(activeOnly.map((item) => item.id)).not.toContain(repo.repoId);
      const withInactive = await allInstanceRepos(session, true);
      const deactivated = withInactive.find((item) => item.id === repo.repoId);
      expect(deactivated).toBeDefined();
      expect(deactivated?.active).toBeUndefined(); // false is left out of the view
    });
  });
});

describe.each(REVISIONS)('error shaping on %s', (revision) => {
  it('an unknown repo_id is a tool error that says 404 and what to try', async () => {
    await withSession({ revision }, async (session) => {
      const result = await session.call('get_repository', { repo_id: 987654321 });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain('404');
      expect(text).toContain('/api/repos/987654321');
      expect(text).toMatch(/list_repositories|lookup_repository/);
    });
  });

  describe('bad input never reaches Woodpecker', () => {
    let proxy: { url: string; requests: string[]; close(): Promise<void> };
    beforeAll(async () => {
      proxy = await countingProxy(harnessInfo().url);
    });
    afterAll(async () => {
      await proxy.close();
    });

    it('repo_id "abc" is an MCP error naming the field', async () => {
      await withSession({ revision, env: { WOODPECKER_URL: proxy.url } }, async (session) => {
        // The proxy itself works: a good call goes through it.
        await session.ok('get_current_user');
        expect(proxy.requests.length).toBeGreaterThan(0);
        proxy.requests.length = 0;

        let message: string;
        try {
          const result = await session.call('trigger_pipeline', { repo_id: 'abc', branch: 'main' });
          expect(result.isError).toBe(true);
          message = textOf(result);
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toContain('repo_id');
        expect(proxy.requests).toEqual([]);
      });
    });
  });
});

/** A pass-through HTTP proxy in front of Woodpecker that records what reaches it. */
async function countingProxy(
  target: string,
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${request.url}`);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(request.headers)) {
        if (
          typeof value === 'string' &&
          key !== 'host' &&
          key !== 'connection' &&
          key !== 'content-length'
        )
          headers[key] = value;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
      })
        .then(async (upstream) => {
          const payload = Buffer.from(await upstream.arrayBuffer());
          const out: Record<string, string> = {};
          upstream.headers.forEach((value, key) => {
            if (
              key !== 'content-encoding' &&
              key !== 'content-length' &&
              key !== 'transfer-encoding' &&
              key !== 'connection'
            )
              out[key] = value;
          });
          response.writeHead(upstream.status, out).end(payload);
        })
        .catch((error: Error) => response.writeHead(502).end(error.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
