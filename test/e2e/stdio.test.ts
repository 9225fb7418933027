// The stdio transport, as MCP hosts start it, on both protocol revisions: the client's
// first message decides the revision, and a guarded call asks through the dialog either way.
import { describe, expect, it } from 'vitest';
import { tools as catalogue } from '../../generated/index.js';
import { adminApi, createRepo, harnessInfo, uniqueName } from '../harness/fixtures.js';
import { REVISIONS } from './mcpSession.js';
import { harnessWoodpecker, startStdioServer } from './stdioServer.js';

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

    const { client, dialogs, close } = await startStdioServer({
      env: harnessWoodpecker(),
      name: 'stdio-test',
      revision,
      canElicit: true,
    });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect((await client.listTools()).tools).toHaveLength(catalogue.length);
      const server = await client.callTool({ name: 'get_server_info', arguments: {} });
      expect(server.structuredContent).toMatchObject({ version: info.version });

      const deleted = await client.callTool({
        name: 'delete_secret',
        arguments: { scope: 'repository', repo_id: repo.repoId, name },
      });
      expect(deleted.isError).toBeFalsy();
      expect(dialogs).toEqual([
        `This will delete secret ${secret.id} at repository level. It goes to pipelines of these events: push; image filters: 0 (0: every step).\n\nPipelines that use it no longer receive it, and its value cannot be recovered.\n\nCheck it in Woodpecker: the secrets of repository ${repo.repoId}, ${info.url.replace(/\/+$/, '')}/repos/${repo.repoId}/settings/secrets`,
      ]);
      expect(
        (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
      ).toBe(404);
    } finally {
      await close();
    }
  });
});
