// The two-call token from a client that starts a new server process for every call (the
// MCP Inspector CLI does): the token from the first process must open in the second, and
// where it cannot (no token to derive a key from) the answer says exactly why and what to set.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  uniqueName,
  type TestRepo,
} from '../harness/fixtures.js';
import { openSession, textOf } from './mcpSession.js';
import { harnessWoodpecker, withStdioServer } from './stdioServer.js';

/** Starts a fresh stdio server process, makes one call, and stops the process. */
async function callInNewProcess(
  name: string,
  args: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<CallToolResult> {
  // No elicitation capability: the Inspector CLI cannot show a dialog, so the token path runs.
  return withStdioServer(
    { env: { ...harnessWoodpecker(), ...env }, name: 'one-call-per-process' },
    async ({ client }) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  );
}

function tokenOf(result: CallToolResult): string {
  const token = (result.structuredContent as { confirm_token?: unknown } | undefined)
    ?.confirm_token;
  expect(typeof token, textOf(result)).toBe('string');
  return token as string;
}

async function repoWithSecret(): Promise<{ repo: TestRepo; name: string }> {
  const repo = await createRepo();
  const name = uniqueName('PROC').toUpperCase().replace(/-/g, '_');
  await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
    name,
    value: 'v',
    events: ['push'],
  });
  return { repo, name };
}

async function secretExists(repo: TestRepo, name: string): Promise<boolean> {
  return (
    (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status === 200
  );
}

describe('confirm_token across server processes', () => {
  it('a token issued by one stdio process is honoured by the next one started with the same WOODPECKER_TOKEN', async () => {
    const { repo, name } = await repoWithSecret();
    const args = { scope: 'repository', repo_id: repo.repoId, name };
    const token = tokenOf(await callInNewProcess('delete_secret', args));
    expect(await secretExists(repo, name)).toBe(true);

    const done = await callInNewProcess('delete_secret', { ...args, confirm_token: token });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(await secretExists(repo, name)).toBe(false);
  }, 60_000);

  it('a token from a process with another WOODPECKER_MCP_SEAL_KEY is refused, saying which key to share', async () => {
    const { repo, name } = await repoWithSecret();
    const args = { scope: 'repository', repo_id: repo.repoId, name };
    const token = tokenOf(
      await callInNewProcess('delete_secret', args, { WOODPECKER_MCP_SEAL_KEY: 'a'.repeat(40) }),
    );
    const refused = await callInNewProcess(
      'delete_secret',
      { ...args, confirm_token: token },
      { WOODPECKER_MCP_SEAL_KEY: 'b'.repeat(40) },
    );
    expect(textOf(refused)).toMatch(
      /^The confirm_token given does not belong to this call: it was not signed with this server's WOODPECKER_MCP_SEAL_KEY/,
    );
    expect(await secretExists(repo, name)).toBe(true);
  }, 60_000);

  it('without WOODPECKER_TOKEN (per-request tokens) each server has its own key, and the refusal says what to set', async () => {
    const { repo, name } = await repoWithSecret();
    const args = { scope: 'repository', repo_id: repo.repoId, name };
    const bearer = harnessInfo().adminToken;
    const first = await openSession({ revision: '2025-11-25', canElicit: false, bearer });
    const token = await first
      .call('delete_secret', args)
      .then(tokenOf)
      .finally(() => first.close());
    const second = await openSession({ revision: '2025-11-25', canElicit: false, bearer });
    try {
      const refused = await second.call('delete_secret', { ...args, confirm_token: token });
      const text = textOf(refused);
      expect(text).toMatch(
        /^The confirm_token given does not belong to this call: it was not issued by this server process\./,
      );
      expect(text).toContain('neither WOODPECKER_MCP_SEAL_KEY nor WOODPECKER_TOKEN is set');
      expect(text).toContain(
        'Set WOODPECKER_MCP_SEAL_KEY to the same 32+ byte value for every server process',
      );
      expect(text).not.toContain(bearer);
      expect(await secretExists(repo, name)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
