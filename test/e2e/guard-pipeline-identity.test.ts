// Woodpecker gives the next pipeline the number of a deleted newest one (3.11 and 3.17):
// "pipeline 8" can be one fork's pull request when a person is asked, and another's when
// the answer comes back. Every approval of a pipeline is bound to the pipeline's own id,
// read when the question is asked and again just before acting; a pipeline that changed
// under its number is a new question (issue 34, item 2).
import { describe, expect, it } from 'vitest';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { adminApi, type TestRepo } from '../harness/fixtures.js';
import { approvalRepo, blockedPipelines } from './guardFixtures.js';
import { APPROVE_RESPONSE, expectQuestion, isInputRequired, rawCall } from './guardRounds.js';
import { openSession, textOf } from './mcpSession.js';

const api = adminApi;

async function pipeline(repo: TestRepo, number: number) {
  return api().get<{ id: number; status: string }>(`/api/repos/${repo.repoId}/pipelines/${number}`);
}

/** Cancels and deletes the blocked pipeline `number`, then opens another pull request: same number, new pipeline. */
async function replaceUnderItsNumber(repo: TestRepo, number: number): Promise<number> {
  const before = (await pipeline(repo, number)).id;
  await api().post(`/api/repos/${repo.repoId}/pipelines/${number}/cancel`, {});
  await api().request('DELETE', `/api/repos/${repo.repoId}/pipelines/${number}`);
  const [again] = await blockedPipelines(repo, 1, { title: 'another fork' });
  // The premise of the attack: Woodpecker reuses the number. If a release stops doing so,
  // this test has nothing left to prove, and says so.
  expect(again, 'Woodpecker no longer reuses the number of a deleted newest pipeline').toBe(number);
  const after = (await pipeline(repo, number)).id;
  expect(after).not.toBe(before);
  return after;
}

describe('an approval of pipeline N does not approve another pipeline N', () => {
  it('2025-11-25: the pipeline replaced while the person reads the dialog is asked about again', async () => {
    const session = await openSession({ revision: '2025-11-25' });
    try {
      const repo = await approvalRepo();
      const [number] = await blockedPipelines(repo, 1);
      const shown: string[] = [];
      session.client.setRequestHandler(
        'elicitation/create',
        async (request): Promise<ElicitResult> => {
          shown.push(String((request.params as { message?: unknown }).message ?? ''));
          if (shown.length === 1) {
            await replaceUnderItsNumber(repo, number!);
            return { action: 'accept', content: { approve: true } };
          }
          return { action: 'decline' };
        },
      );
      const result = await session.call('approve_pipeline', { repo_id: repo.repoId, number });
      expect(shown, 'the replaced pipeline was not asked about').toHaveLength(2);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Nothing was changed/);
      expect((await pipeline(repo, number!)).status, 'the other fork was approved').toBe('blocked');
    } finally {
      await session.close();
    }
  });

  it('2026-07-28: a sealed answer for the old pipeline asks afresh', async () => {
    const session = await openSession({ revision: '2026-07-28', autoFulfill: false });
    try {
      const repo = await approvalRepo();
      const [number] = await blockedPipelines(repo, 1);
      const args = { repo_id: repo.repoId, number };
      const question = expectQuestion(await rawCall(session, 'approve_pipeline', args));
      await replaceUnderItsNumber(repo, number!);
      const replayed = await rawCall(session, 'approve_pipeline', args, {
        requestState: question.requestState,
        inputResponses: APPROVE_RESPONSE,
      });
      expect(isInputRequired(replayed), JSON.stringify(replayed).slice(0, 300)).toBe(true);
      expect((await pipeline(repo, number!)).status).toBe('blocked');
    } finally {
      await session.close();
    }
  });

  it('token path: a confirm_token for the old pipeline is refused', async () => {
    const session = await openSession({ revision: '2025-11-25', canElicit: false });
    try {
      const repo = await approvalRepo();
      const [number] = await blockedPipelines(repo, 1);
      const args = { repo_id: repo.repoId, number };
      const first = await session.call('approve_pipeline', args);
      const token = (first.structuredContent as { confirm_token?: string }).confirm_token;
      expect(typeof token).toBe('string');
      await replaceUnderItsNumber(repo, number!);
      const replayed = await session.call('approve_pipeline', { ...args, confirm_token: token });
      expect(textOf(replayed)).toMatch(/^The confirm_token given does not belong to this call/);
      expect((await pipeline(repo, number!)).status).toBe('blocked');
    } finally {
      await session.close();
    }
  });

  it('2026-07-28: delete_pipeline on an old answer deletes nothing of the new pipeline', async () => {
    const session = await openSession({ revision: '2026-07-28', autoFulfill: false });
    try {
      const repo = await approvalRepo();
      const [number] = await blockedPipelines(repo, 1);
      const args = { repo_id: repo.repoId, number };
      const question = expectQuestion(await rawCall(session, 'delete_pipeline', args));
      await replaceUnderItsNumber(repo, number!);
      await api().post(`/api/repos/${repo.repoId}/pipelines/${number}/cancel`, {});
      const newId = (await pipeline(repo, number!)).id;
      const replayed = await rawCall(session, 'delete_pipeline', args, {
        requestState: question.requestState,
        inputResponses: APPROVE_RESPONSE,
      });
      expect(isInputRequired(replayed)).toBe(true);
      expect((await pipeline(repo, number!)).id).toBe(newId);
    } finally {
      await session.close();
    }
  });
});
