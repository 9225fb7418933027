// What differs between the Woodpecker releases the suite runs against (pinned 3.17, the
// oldest 3.11, and the next release, main at a4cb541), checked through a real MCP client on
// whichever server this run started. The expectations branch on the server's own
// GET /version, so the same file passes on each release only if each behaves as recorded.
import { describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { REVISIONS, withSession } from './mcpSession.js';
import type { ListEnvelope } from '../../runtime/output/answer.js';

type ListResult<T = Record<string, unknown>> = ListEnvelope<T>;

interface Pipeline {
  number: number;
  ref: string;
  branch: string;
  message: string;
  event: string;
}

/** True from the release after 3.17 on (its manual refs carry refs/heads/). */
function isNextOrNewer(version: string): boolean {
  const [major = 0, minor = 0] = version.split(/[.+-]/).map(Number);
  return major > 3 || (major === 3 && minor >= 18);
}

const YAML = offlinePipelineYaml([{ name: 'hello', commands: ['echo hello'] }]);

describe(`Woodpecker ${harnessInfo().version}: behaviour that differs between releases`, () => {
  it.each(REVISIONS)(
    'trigger_pipeline: the manual pipeline ref is the branch name (3.17 and older) or refs/heads/<branch> (next) (%s)',
    async (revision) => {
      const repo = await createRepo({ files: { '.woodpecker.yaml': YAML } });
      const started = await withSession({ revision }, (session) =>
        session.ok<Pipeline>('trigger_pipeline', { repo_id: repo.repoId, branch: 'main' }),
      );
      const stored = await waitForPipelineStatus(repo.repoId, started.number, ['success']);
      const expectedRef = isNextOrNewer(harnessInfo().version) ? 'refs/heads/main' : 'main';
      // What the tool answered and what Woodpecker stored agree, and both match the release;
      // the view leaves out a ref that only repeats the branch (refs/heads/main on next).
      expect(started.ref ?? 'refs/heads/main').toBe(expectedRef);
      if (expectedRef === 'refs/heads/main') expect(started).not.toHaveProperty('ref');
      expect((stored as unknown as Pipeline).ref).toBe(expectedRef);
      expect(started).toMatchObject({
        event: 'manual',
        branch: 'main',
        message: 'MANUAL PIPELINE @ main',
      });
    },
  );

  it.each(REVISIONS)(
    "list_secrets pages past Woodpecker's cap of 50: page 1 is full and says so, page 2 has the rest (%s)",
    async (revision) => {
      const repo = await createRepo();
      const names = Array.from(
        { length: 53 },
        (_, index) => `paged_${String(index).padStart(2, '0')}`,
      );
      for (const name of names) {
        await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
          name,
          value: 'not-shown',
          events: ['push'],
        });
      }
      await withSession({ revision }, async (session) => {
        const first = await session.ok<ListResult<{ name: string }>>('list_secrets', {
          scope: 'repository',
          repo_id: repo.repoId,
          page: 1,
          per_page: 50,
        });
        const second = await session.ok<ListResult<{ name: string }>>('list_secrets', {
          scope: 'repository',
          repo_id: repo.repoId,
          page: 2,
          per_page: 50,
        });
        expect(first.items).toHaveLength(50);
        expect(first.may_have_more).toBe(true);
        expect(second.items).toHaveLength(3);
        expect(second.may_have_more).toBeUndefined();
        const seen = [...first.items, ...second.items].map((secret) => secret.name).sort();
        expect(seen).toEqual(names);
      });
    },
  );
});
