// Woodpecker up to 3.12 performs a move and then answers HTTP 500 with an empty body.
// Against a real 3.11.0 server, move_repository must report the move that happened
// instead of an error a caller would retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../harness/stack.js';
import { offlinePipelineYaml, uniqueName, woodpeckerApi } from '../harness/fixtures.js';
import { withSession } from './mcpSession.js';

const OLD_RELEASE = 'v3.11.0';

describe(`move_repository on Woodpecker ${OLD_RELEASE}`, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ version: OLD_RELEASE });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function forgeRepo(name: string): Promise<{ forgeRemoteId: number; fullName: string }> {
    const response = await fetch(`${stack.forgeUrl}/_harness/repos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        owner: stack.adminLogin,
        name,
        defaultBranch: 'main',
        branches: [],
        private: false,
        files: {
          '.woodpecker.yaml': offlinePipelineYaml([{ name: 'hello', commands: ['echo hello'] }]),
        },
      }),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as { forgeRemoteId: number; fullName: string };
  }

  it('reports the move that Woodpecker made before answering 500', async () => {
    const api = woodpeckerApi(stack.adminToken, stack.url);
    expect((await api.get<{ version: string }>('/version')).version).toBe(OLD_RELEASE.slice(1));
    const original = await forgeRepo(uniqueName('before'));
    const target = await forgeRepo(uniqueName('after'));
    const activated = await api.post<{ id: number }>(
      `/api/repos?forge_remote_id=${original.forgeRemoteId}`,
    );

    // The bug itself, seen directly: the raw API answers 500 …
    const probe = await forgeRepo(uniqueName('probe'));
    const probeTarget = await forgeRepo(uniqueName('probe-after'));
    const probeRepo = await api.post<{ id: number }>(
      `/api/repos?forge_remote_id=${probe.forgeRemoteId}`,
    );
    const raw = await api.request(
      'POST',
      `/api/repos/${probeRepo.id}/move?to=${encodeURIComponent(probeTarget.fullName)}`,
    );
    expect(raw.status).toBe(500);
    // … although the move happened.
    expect((await api.get<{ full_name: string }>(`/api/repos/${probeRepo.id}`)).full_name).toBe(
      probeTarget.fullName,
    );

    await withSession(
      { revision: '2026-07-28', woodpecker: { url: stack.url, token: stack.adminToken } },
      async (session) => {
        const result = await session.call('move_repository', {
          repo_id: activated.id,
          to: target.fullName,
        });
        expect(session.dialogs).toHaveLength(1);
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({
          moved: true,
          full_name: target.fullName,
          woodpecker_status: 500,
        });
        expect(String((result.structuredContent as { note?: string }).note)).toMatch(
          /was moved.*Do not retry/,
        );
      },
    );
    expect((await api.get<{ full_name: string }>(`/api/repos/${activated.id}`)).full_name).toBe(
      target.fullName,
    );
  });
});
