import { describe, expect, it } from 'vitest';
import { tools as catalogue } from '../../generated/index.js';
import {
  createRepo,
  harnessInfo,
  waitForLogLine,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';

describe.each(REVISIONS)('on %s', (revision) => {
  it('lists every tool of the catalogue with all four annotations, and nothing a model pays for twice', async () => {
    await withSession({ revision }, async (session) => {
      const { tools } = await session.client.listTools();
      expect(tools).toHaveLength(catalogue.length);
      for (const tool of tools) {
        expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
          'destructiveHint',
          'idempotentHint',
          'openWorldHint',
          'readOnlyHint',
        ]);
        // Display names and open output schemas are left out of the list (docs/tools.md says why).
        expect(tool.title).toBeUndefined();
        expect(tool.outputSchema).toBeUndefined();
      }
    });
  });

  it('reads the server version and the current user', async () => {
    await withSession({ revision }, async (session) => {
      const info = await session.ok<{ version: string; healthy: boolean }>('get_server_info');
      expect(info.version).toBe(harnessInfo().version);
      expect(info.healthy).toBe(true);
      const user = await session.ok<{ login: string; admin: boolean }>('get_current_user');
      expect(user).toMatchObject({ login: harnessInfo().adminLogin, admin: true });
    });
  });

  it('triggers a pipeline, reads its step log as untrusted text', async () => {
    const repo = await createRepo();
    await withSession({ revision }, async (session) => {
      const pipeline = await session.ok<{ number: number }>('trigger_pipeline', {
        repo_id: repo.repoId,
        branch: 'main',
      });
      const done = await waitForPipelineStatus(repo.repoId, pipeline.number, [
        'success',
        'failure',
      ]);
      expect(done.status).toBe('success');
      const stepId = done.workflows![0]!.children![0]!.id;
      // The last log batch can land just after the status; wait for it like a person would.
      await waitForLogLine(repo.repoId, pipeline.number, stepId, 'hello');
      const logs = await session.call('get_step_logs', {
        repo_id: repo.repoId,
        number: pipeline.number,
        step_id: stepId,
      });
      expect(logs.isError).toBeFalsy();
      expect(logs.structuredContent).toMatchObject({
        untrusted: true,
        source: 'woodpecker',
        step: { state: 'success' },
      });
      expect((logs.structuredContent as { lines: string[] }).lines).toContain('hello');
      expect(textOf(logs)).toContain('hello');
    });
  });
});
