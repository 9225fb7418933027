// restart_pipeline only_if_infrastructure and dry_run on the real Woodpecker: a step that
// ended with exit code 137 (what a container backend reports for SIGKILL, an OOM kill
// included) is restarted (from 3.14; before, Woodpecker stores it as killed, as it does a
// person's cancel, and it is not); a step that exited 1 is not, nor one the local backend
// reports as -1 (a death by any signal, here the step killing its own shell; $$ is
// Woodpecker's escape for $); a dry run starts nothing. Woodpecker's own pipeline list
// decides.
import { describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  offlinePipelineYaml,
  serverOlderThan,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { withSession } from './mcpSession.js';

const numbers = async (repoId: number): Promise<number[]> =>
  ((await adminApi().get<{ number: number }[] | null>(`/api/repos/${repoId}/pipelines`)) ?? []).map(
    (pipeline) => pipeline.number,
  );

async function failedRun(command: string): Promise<{ repoId: number; number: number }> {
  const repo = await createRepo({
    files: { '.woodpecker.yaml': offlinePipelineYaml([{ name: 'work', commands: [command] }]) },
  });
  const started = await adminApi().post<{ number: number }>(`/api/repos/${repo.repoId}/pipelines`, {
    branch: 'main',
  });
  await waitForPipelineStatus(repo.repoId, started.number, ['failure', 'error', 'killed']);
  return { repoId: repo.repoId, number: started.number };
}

describe('restart_pipeline only what the machine broke', () => {
  it('restarts a step that ended with 137 (SIGKILL in a container), after a dry run that starts nothing', async () => {
    const { repoId, number } = await failedRun('exit 137');
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const dry = await session.ok<{ would_restart: boolean; reason: string }>('restart_pipeline', {
        repo_id: repoId,
        number,
        only_if_infrastructure: true,
        dry_run: true,
      });
      expect(await numbers(repoId)).toEqual([number]);
      if (serverOlderThan('3.14.0')) {
        // Before 3.14 Woodpecker stores this step as killed, as it does a person's cancel.
        expect(dry.would_restart, dry.reason).toBe(false);
        expect(dry.reason).toMatch(
          /before 3\.14 stores for the machine's kill and for a person's cancel/,
        );
        return;
      }
      expect(dry.would_restart, dry.reason).toBe(true);
      expect(dry.reason).toMatch(/exit code 137/);

      const done = await session.ok<{ number: number; restarted_because: string }>(
        'restart_pipeline',
        { repo_id: repoId, number, only_if_infrastructure: true },
      );
      expect(done.number).toBeGreaterThan(number);
      expect(done.restarted_because).toMatch(/exit code 137/);
      expect((await numbers(repoId)).sort()).toEqual([number, done.number].sort());
    });
  });

  it('does not restart a step the local backend reports as -1: any signal, its own crash too', async () => {
    const { repoId, number } = await failedRun('kill -KILL $$$$');
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const answer = await session.ok<{ restarted: boolean; reason: string }>('restart_pipeline', {
        repo_id: repoId,
        number,
        only_if_infrastructure: true,
      });
      expect(answer.restarted).toBe(false);
      expect(answer.reason).toMatch(/work \(failure, exit code -1: .*any signal/);
      expect(await numbers(repoId)).toEqual([number]);
    });
  });

  it('does not restart a step that exited 1, and says which', async () => {
    const { repoId, number } = await failedRun('exit 1');
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const answer = await session.ok<{ restarted: boolean; reason: string }>('restart_pipeline', {
        repo_id: repoId,
        number,
        only_if_infrastructure: true,
      });
      expect(answer.restarted).toBe(false);
      expect(answer.reason).toMatch(/work \(failure, exit code 1\)/);
      expect(await numbers(repoId)).toEqual([number]);
    });
  });
});
