// Woodpecker 3.11 differs from the pinned release in two ways that used to fail quietly:
// - PATCH /repos/{id} compares the three trusted flags (network first) before checking
//   which were sent, so a body without network, or whose network equals the stored one,
//   makes the server dereference nil and answer 500 — withdrawing trusted_security
//   failed and the flag stayed on;
// - secrets have no note before 3.13: the field was dropped and the call "succeeded".
// Against a real 3.11.0 server (its own stack), update_repository must send what that
// version needs and the secret tools must say that note needs a newer server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../harness/stack.js';
import { offlinePipelineYaml, uniqueName, woodpeckerApi } from '../harness/fixtures.js';
import type { WoodpeckerApi } from '../harness/fixtures.js';
import type { McpSession } from './mcpSession.js';
import { openSession, textOf } from './mcpSession.js';

const OLD_RELEASE = 'v3.11.0';

type Trusted = { network: boolean; volumes: boolean; security: boolean };

describe(`Woodpecker ${OLD_RELEASE}`, () => {
  let stack: Stack;
  let api: WoodpeckerApi;
  let session: McpSession;
  beforeAll(async () => {
    stack = await startStack({ version: OLD_RELEASE });
    api = woodpeckerApi(stack.adminToken, stack.url);
    session = await openSession({
      revision: '2025-11-25',
      woodpecker: { url: stack.url, token: stack.adminToken },
    });
  });
  afterAll(async () => {
    await session?.close();
    await stack?.stop();
  });

  async function activatedRepo(): Promise<number> {
    const response = await fetch(`${stack.forgeUrl}/_harness/repos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        owner: stack.adminLogin,
        name: uniqueName('compat'),
        defaultBranch: 'main',
        branches: [],
        private: false,
        files: {
          '.woodpecker.yaml': offlinePipelineYaml([{ name: 'hello', commands: ['echo hello'] }]),
        },
      }),
    });
    expect(response.status).toBeLessThan(300);
    const created = (await response.json()) as { forgeRemoteId: number };
    return (await api.post<{ id: number }>(`/api/repos?forge_remote_id=${created.forgeRemoteId}`))
      .id;
  }

  const trustedOf = async (repoId: number) =>
    (await api.get<{ trusted: Trusted }>(`/api/repos/${repoId}`)).trusted;

  it('is the release under test, and answers 500 to a trusted flag sent without network', async () => {
    expect((await api.get<{ version: string }>('/version')).version).toBe(OLD_RELEASE.slice(1));
    const repoId = await activatedRepo();
    expect(
      (await api.request('PATCH', `/api/repos/${repoId}`, { trusted: { security: true } })).status,
    ).toBe(500);
    expect(await trustedOf(repoId)).toEqual({ network: false, volumes: false, security: false });
  });

  it('update_repository grants trusted_security (after the dialog) and withdraws it again, keeping the other two', async () => {
    const repoId = await activatedRepo();
    await api.patch(`/api/repos/${repoId}`, {
      trusted: { network: true, volumes: false, security: false },
    });

    session.answer = 'approve';
    const shown = session.dialogs.length;
    const granted = await session.call('update_repository', {
      repo_id: repoId,
      trusted_security: true,
    });
    expect(granted.isError, textOf(granted)).toBeFalsy();
    expect(session.dialogs.length, 'granting trust asks').toBe(shown + 1);
    expect(await trustedOf(repoId)).toEqual({ network: true, volumes: false, security: true });

    const withdrawn = await session.call('update_repository', {
      repo_id: repoId,
      trusted_security: false,
    });
    expect(withdrawn.isError, textOf(withdrawn)).toBeFalsy();
    expect(session.dialogs.length, 'withdrawing trust applies at once').toBe(shown + 1);
    expect(await trustedOf(repoId)).toEqual({ network: true, volumes: false, security: false });

    // network sent with the value it already has: 3.11 compares it, finds it equal and
    // then reads the unsent volumes flag.
    const same = await session.call('update_repository', {
      repo_id: repoId,
      trusted_network: true,
      trusted_volumes: false,
    });
    expect(same.isError, textOf(same)).toBeFalsy();
    expect(await trustedOf(repoId)).toEqual({ network: true, volumes: false, security: false });

    // A change that touches no trusted flag sends none, as before.
    const timeout = await session.call('update_repository', { repo_id: repoId, timeout: 42 });
    expect(timeout.isError, textOf(timeout)).toBeFalsy();
    expect(await trustedOf(repoId)).toEqual({ network: true, volumes: false, security: false });
  });

  it('update_secret and create_secret refuse note with a message naming the version it needs, and change nothing', async () => {
    const repoId = await activatedRepo();
    await api.post(`/api/repos/${repoId}/secrets`, {
      name: 'compat_secret',
      value: 'v1',
      events: ['push'],
    });

    const updated = await session.call('update_secret', {
      scope: 'repository',
      repo_id: repoId,
      name: 'compat_secret',
      events: ['push', 'tag'],
      note: 'rotate monthly',
    });
    expect(updated.isError).toBe(true);
    expect(textOf(updated)).toContain(
      'update_secret: note needs Woodpecker ≥ 3.13; this server is 3.11.0',
    );
    expect(
      (await api.get<{ events: string[] }>(`/api/repos/${repoId}/secrets/compat_secret`)).events,
    ).toEqual(['push']);

    const created = await session.call('create_secret', {
      scope: 'repository',
      repo_id: repoId,
      name: 'compat_new',
      value: 'v1',
      events: ['push'],
      note: 'who owns this',
    });
    expect(created.isError).toBe(true);
    expect(textOf(created)).toContain(
      'create_secret: note needs Woodpecker ≥ 3.13; this server is 3.11.0',
    );
    expect((await api.request('GET', `/api/repos/${repoId}/secrets/compat_new`)).status).toBe(404);

    // Without note both work on 3.11.
    const narrowed = await session.call('update_secret', {
      scope: 'repository',
      repo_id: repoId,
      name: 'compat_secret',
      events: ['push', 'tag'],
    });
    expect(narrowed.isError, textOf(narrowed)).toBeFalsy();
    expect(
      (await api.get<{ events: string[] }>(`/api/repos/${repoId}/secrets/compat_secret`)).events,
    ).toEqual(['push', 'tag']);
  });
});
