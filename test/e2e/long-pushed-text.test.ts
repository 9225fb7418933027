// A pull request's title is written by whoever opened it, and may be 150 KB. The answers
// a person or model needs to decide about that pull request (get_pipeline, list_pipelines,
// the review-approval prompt) must still come back, with the text shortened and saying so,
// instead of being refused as too big (issue 34, item 8).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRepo } from '../harness/fixtures.js';
import { approvalRepo, blockedPipelines } from './guardFixtures.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';

const TITLE = `Looks harmless ${'x'.repeat(150_000)}`;

describe('a 150 KB pull-request title', () => {
  let repo: TestRepo;
  let number: number;
  beforeAll(async () => {
    repo = await approvalRepo();
    [number] = (await blockedPipelines(repo, 1, { title: TITLE })) as [number];
  });

  it.each(REVISIONS)('get_pipeline and list_pipelines answer, shortened (%s)', async (revision) => {
    await withSession({ revision }, async (session) => {
      const pipeline = await session.call('get_pipeline', { repo_id: repo.repoId, number });
      expect(pipeline.isError, textOf(pipeline).slice(0, 300)).toBeFalsy();
      const title = (pipeline.structuredContent as { title?: string }).title ?? '';
      expect(title.startsWith('Looks harmless xxx')).toBe(true);
      expect(title).toMatch(/more characters; detail full has the whole text/);
      expect(textOf(pipeline)).toContain('more characters; detail full');
      const list = await session.call('list_pipelines', { repo_id: repo.repoId });
      expect(list.isError, textOf(list).slice(0, 300)).toBeFalsy();
    });
  });

  it('review-approval gathers its material', async () => {
    await withSession({ revision: '2026-07-28' }, async (session) => {
      const prompt = await session.client.getPrompt({
        name: 'review-approval',
        arguments: { repo_id: String(repo.repoId), number: String(number) },
      });
      const material = JSON.parse(
        (prompt.messages[1]!.content as { resource: { text: string } }).resource.text,
      ) as { pipeline: { title: string } };
      expect(material.pipeline.title.length).toBeLessThan(3_000);
    });
  });
});
