// The stdio transport, as MCP hosts start it, on both protocol revisions: the client's
// first message decides the revision, and a guarded call asks through the dialog either way.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { adminApi, createRepo, harnessInfo, uniqueName } from '../harness/fixtures.js';
import { REVISIONS } from './mcpSession.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe.each(REVISIONS)('stdio on %s', (revision) => {
  it('negotiates the revision, serves reads, and asks before a guarded call', async () => {
    const info = harnessInfo();
    const repo = await createRepo();
    const name = uniqueName('STDIO').toUpperCase().replace(/-/g, '_');
    const secret = await adminApi().post<{ id: number }>(`/api/repos/${repo.repoId}/secrets`, {
      name,
      value: 'v',
      events: ['push'],
    });

    const client = new Client(
      { name: 'stdio-test', version: '1' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(revision === '2026-07-28'
          ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
          : {}),
      },
    );
    const dialogs: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      dialogs.push(String((request.params as { message?: unknown }).message));
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(
      new StdioClientTransport({
        command: `${ROOT}node_modules/.bin/tsx`,
        args: ['runtime/process/main.ts'],
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          WOODPECKER_URL: info.url,
          WOODPECKER_TOKEN: info.adminToken,
        },
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect((await client.listTools()).tools).toHaveLength(75);
      const server = await client.callTool({ name: 'get_server_info', arguments: {} });
      expect(server.structuredContent).toMatchObject({ version: info.version });

      const deleted = await client.callTool({
        name: 'delete_secret',
        arguments: { scope: 'repository', repo_id: repo.repoId, name },
      });
      expect(deleted.isError).toBeFalsy();
      expect(dialogs).toEqual([
        `This will delete secret ${secret.id} at repository level (repository id: ${repo.repoId}, organization id: –).\n\nPipelines that use it no longer receive it, and its value cannot be recovered.`,
      ]);
      expect(
        (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
      ).toBe(404);
    } finally {
      await client.close();
    }
  });
});
