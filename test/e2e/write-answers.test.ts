// Write tools that answer with a Woodpecker object read like the read tools (issue 35): the
// server's instructions promise answers without empty fields and with UTC times, and a
// restart_pipeline answer used to be Woodpecker's raw pipeline, nulls and Unix seconds
// included. Against the real Woodpecker, as admin.
import { describe, expect, it } from 'vitest';
import {
  createRepo,
  offlinePipelineYaml,
  uniqueName,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { REVISIONS, withSession } from './mcpSession.js';

/** Paths of what a view leaves out: nulls, empty strings, and integers that are Unix seconds. */
function rawParts(value: unknown, path = '$'): string[] {
  if (value === null) return [`${path} is null`];
  if (value === '') return [`${path} is ""`];
  if (typeof value === 'number' && Number.isInteger(value) && value > 1e9 && value < 1e11)
    return [`${path} is Unix seconds (${value})`];
  if (Array.isArray(value))
    return value.flatMap((item, index) => rawParts(item, `${path}[${index}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, child]) => rawParts(child, `${path}.${key}`));
  return [];
}

describe('write answers', () => {
  it('restart_pipeline, update_repository, update_user and create_agent answer through views: no nulls, UTC times', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([{ name: 'build', commands: ['echo built'] }]),
      },
    });
    await withSession({ revision: REVISIONS[1]! }, async (session) => {
      const { number } = await session.ok<{ number: number }>('trigger_pipeline', {
        repo_id: repo.repoId,
        branch: 'main',
      });
      await waitForPipelineStatus(repo.repoId, number, ['success', 'failure']);

      const restarted = await session.ok('restart_pipeline', { repo_id: repo.repoId, number });
      expect(rawParts(restarted)).toEqual([]);
      expect(restarted.number).toBeGreaterThan(number);
      expect(restarted.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      const updated = await session.ok('update_repository', { repo_id: repo.repoId, timeout: 30 });
      expect(rawParts(updated)).toEqual([]);
      expect(updated.timeout).toBe(30);

      const login = uniqueName('writer').replace(/[^a-zA-Z0-9._-]/g, '');
      await session.ok('create_user', { login, email: `${login}@example.test` });
      const user = await session.ok('update_user', {
        login,
        forge_id: 1,
        admin: false,
        email: `${login}@example.org`,
      });
      expect(rawParts(user)).toEqual([]);
      expect(user).toMatchObject({ login, email: `${login}@example.org` });
      await session.ok('delete_user', { login, forge_id: 1 });

      const agent = await session.ok<{ id: number; token?: string }>('create_agent', {
        name: uniqueName('agent'),
      });
      expect(rawParts(agent)).toEqual([]);
      // The one answer that shows the agent's token keeps it.
      expect(agent.token).not.toBe('[redacted]');
      expect(agent.token!.length).toBeGreaterThanOrEqual(20);
      await session.ok('delete_agent', { agent_id: agent.id });
    });
  }, 240_000);
});
