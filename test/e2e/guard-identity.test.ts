// An approval is about one object, not about a name. Secrets, registry logins and user
// accounts are addressed by name (a secret's name, a registry address, a login), and a
// name can be deleted and created again while an approval is still valid. The gate binds
// the approval to the object's own id as Woodpecker reports it when the question is
// asked, so a re-created object is a new question. The same id goes into the dialog, so
// a person can tell two questions apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';
import { adminApi, createRepo } from '../harness/fixtures.js';
import type { TestRepo } from '../harness/fixtures.js';
import { throwawayUser } from './guardFixtures.js';
import { APPROVE_RESPONSE, expectQuestion, isInputRequired, rawCall } from './guardRounds.js';
import type { McpSession } from './mcpSession.js';
import { openSession, textOf } from './mcpSession.js';

const api = adminApi;
const SECRET = 'bound_secret';

async function makeSecret(repo: TestRepo, value: string): Promise<number> {
  return (
    await api().post<{ id: number }>(`/api/repos/${repo.repoId}/secrets`, {
      name: SECRET,
      value,
      events: ['push'],
    })
  ).id;
}

async function secretId(repo: TestRepo): Promise<number | undefined> {
  const answer = await api().request<{ id?: number }>(
    'GET',
    `/api/repos/${repo.repoId}/secrets/${SECRET}`,
  );
  return answer.status === 200 ? answer.body.id : undefined;
}

async function recreateSecret(repo: TestRepo, value: string): Promise<number> {
  await api().request('DELETE', `/api/repos/${repo.repoId}/secrets/${SECRET}`);
  const id = await makeSecret(repo, value);
  return id;
}

/** "secret 7", "registry login 3", "account 12": the object named by its own id. */
function names(what: string, id: number): RegExp {
  return new RegExp(`\\b${what} ${id}\\b`);
}

function tokenOf(result: CallToolResult): string {
  const token = (result.structuredContent as { confirm_token?: unknown } | undefined)
    ?.confirm_token;
  expect(typeof token, `no confirm_token in ${textOf(result)}`).toBe('string');
  return token as string;
}

describe('an approval does not outlive the object it was asked about', () => {
  it('2026-07-28: redeeming the same approval after the secret was re-created asks afresh and deletes nothing', async () => {
    const session = await openSession({ revision: '2026-07-28', autoFulfill: false });
    try {
      const repo = await createRepo();
      const first = await makeSecret(repo, 'v1');
      const args = { scope: 'repository', repo_id: repo.repoId, name: SECRET };
      const question = expectQuestion(await rawCall(session, 'delete_secret', args));
      expect(question.message).toMatch(names('secret', first));
      const done = await rawCall(session, 'delete_secret', args, {
        requestState: question.requestState,
        inputResponses: APPROVE_RESPONSE,
      });
      expect(isInputRequired(done), JSON.stringify(done).slice(0, 300)).toBe(false);
      expect(await secretId(repo)).toBeUndefined();

      const second = await makeSecret(repo, 'v2');
      expect(second).not.toBe(first);
      const replayed = await rawCall(session, 'delete_secret', args, {
        requestState: question.requestState,
        inputResponses: APPROVE_RESPONSE,
      });
      const fresh = expectQuestion(replayed);
      expect(fresh.message).toMatch(names('secret', second));
      expect(await secretId(repo), 'the re-created secret was deleted on an old approval').toBe(
        second,
      );
    } finally {
      await session.close();
    }
  });

  it('2025-11-25: a secret re-created while the person reads the dialog is asked about again', async () => {
    const session = await openSession({ revision: '2025-11-25' });
    try {
      const repo = await createRepo();
      const first = await makeSecret(repo, 'v1');
      let second: number | undefined;
      const shown: string[] = [];
      // The person approves the first question; meanwhile someone re-creates the secret.
      // The second question (about the new secret) is declined.
      session.client.setRequestHandler(
        'elicitation/create',
        async (request): Promise<ElicitResult> => {
          shown.push(String((request.params as { message?: unknown }).message ?? ''));
          if (shown.length === 1) {
            second = await recreateSecret(repo, 'v2');
            return { action: 'accept', content: { approve: true } };
          }
          return { action: 'decline' };
        },
      );
      const result = await session.call('delete_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name: SECRET,
      });
      expect(shown, 'the re-created secret was not asked about').toHaveLength(2);
      expect(shown[0]).toMatch(names('secret', first));
      expect(shown[1]).toMatch(names('secret', second!));
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Nothing was changed/);
      expect(await secretId(repo), 'the re-created secret was deleted').toBe(second);
    } finally {
      await session.close();
    }
  });

  it('token path: a confirm_token redeemed again after the secret was re-created is refused', async () => {
    const session = await openSession({ revision: '2025-11-25', canElicit: false });
    try {
      const repo = await createRepo();
      await makeSecret(repo, 'v1');
      const args = { scope: 'repository', repo_id: repo.repoId, name: SECRET };
      const token = tokenOf(await session.call('delete_secret', args));
      const done = await session.call('delete_secret', { ...args, confirm_token: token });
      expect(done.isError, textOf(done)).toBeFalsy();
      expect(await secretId(repo)).toBeUndefined();

      const second = await makeSecret(repo, 'v2');
      const replayed = await session.call('delete_secret', { ...args, confirm_token: token });
      expect(textOf(replayed)).toMatch(/^The confirm_token given does not belong to this call/);
      expect(tokenOf(replayed)).not.toBe(token);
      expect(await secretId(repo), 'the re-created secret was deleted on an old token').toBe(
        second,
      );
    } finally {
      await session.close();
    }
  });

  it('token path: a registry login re-created under the same address is a new question', async () => {
    const session = await openSession({ revision: '2026-07-28', canElicit: false });
    try {
      const repo = await createRepo();
      const address = 'bound.example.invalid';
      const path = `/api/repos/${repo.repoId}/registries/${address}`;
      await api().post(`/api/repos/${repo.repoId}/registries`, {
        address,
        username: 'a',
        password: 'p1',
      });
      const args = { scope: 'repository', repo_id: repo.repoId, address };
      const token = tokenOf(await session.call('delete_registry', args));
      const before = (await api().get<{ id: number }>(path)).id;
      await api().delete(path);
      await api().post(`/api/repos/${repo.repoId}/registries`, {
        address,
        username: 'b',
        password: 'p2',
      });
      const again = (await api().get<{ id: number }>(path)).id;
      expect(again).not.toBe(before);
      const replayed = await session.call('delete_registry', { ...args, confirm_token: token });
      expect(textOf(replayed)).toMatch(/^The confirm_token given does not belong to this call/);
      expect((await api().get<{ id: number }>(path)).id).toBe(again);
    } finally {
      await session.close();
    }
  });
});

describe('a dialog names the object by its own id', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await openSession({ revision: '2026-07-28', autoFulfill: false });
  });
  afterAll(() => session?.close());

  it('delete_secret on two secrets of one repository: two different dialogs, each with its secret id', async () => {
    const repo = await createRepo();
    const ids: number[] = [];
    for (const name of ['first_secret', 'second_secret']) {
      ids.push(
        (
          await api().post<{ id: number }>(`/api/repos/${repo.repoId}/secrets`, {
            name,
            value: 'v',
            events: ['push'],
          })
        ).id,
      );
    }
    const one = expectQuestion(
      await rawCall(session, 'delete_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name: 'first_secret',
      }),
    );
    const two = expectQuestion(
      await rawCall(session, 'delete_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name: 'second_secret',
      }),
    );
    expect(one.message).toMatch(names('secret', ids[0]!));
    expect(two.message).toMatch(names('secret', ids[1]!));
    expect(one.message).not.toBe(two.message);
    // Still no free text: the names stay out of the dialog.
    expect(one.message).not.toContain('first_secret');
    expect(two.message).not.toContain('second_secret');
  });

  it('delete_registry and update_registry name the registry login by id; update_user and delete_user name the account by id', async () => {
    const repo = await createRepo();
    await api().post(`/api/repos/${repo.repoId}/registries`, {
      address: 'named.example.invalid',
      username: 'u',
      password: 'p',
    });
    // Woodpecker's create answer carries id 0; the stored login has its real id.
    const registry = await api().get<{ id: number }>(
      `/api/repos/${repo.repoId}/registries/named.example.invalid`,
    );
    const registryArgs = {
      scope: 'repository',
      repo_id: repo.repoId,
      address: 'named.example.invalid',
    };
    expect(expectQuestion(await rawCall(session, 'delete_registry', registryArgs)).message).toMatch(
      names('registry login', registry.id),
    );
    const replace = expectQuestion(
      await rawCall(session, 'update_registry', { ...registryArgs, password: 'p2' }),
    );
    expect(replace.message).toMatch(names('registry login', registry.id));
    expect(replace.message).not.toContain('p2');

    const user = await throwawayUser();
    const { id, email } = await api().get<{ id: number; email: string }>(
      `/api/users/${user.login}?forge_id=1`,
    );
    const promote = expectQuestion(
      await rawCall(session, 'update_user', { login: user.login, forge_id: 1, email, admin: true }),
    );
    expect(promote.message).toMatch(names('account', id));
    expect(promote.message).not.toContain(user.login);
    expect(
      expectQuestion(await rawCall(session, 'delete_user', { login: user.login, forge_id: 1 }))
        .message,
    ).toMatch(names('account', id));
  });
});
