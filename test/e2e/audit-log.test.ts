// The audit log as a careless operator configures it: a path that cannot be opened must
// stop the server before any write runs, and a line that cannot be written after a write
// happened must not turn that write into a reported failure (a model would repeat it).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRepo, harnessInfo } from '../harness/fixtures.js';
import { textOf, withSession } from './mcpSession.js';
import { adminApi } from '../harness/fixtures.js';
import { harnessWoodpecker, runSourceServer } from './stdioServer.js';

describe('WOODPECKER_MCP_AUDIT_LOG', () => {
  it('a path in a directory that does not exist stops the server, naming the variable', () => {
    const info = harnessInfo();
    const started = runSourceServer([], {
      ...harnessWoodpecker(),
      WOODPECKER_MCP_AUDIT_LOG: '/nonexistent/dir/a.jsonl',
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(
      'WOODPECKER_MCP_AUDIT_LOG names a file that cannot be opened for appending (ENOENT)',
    );
    expect(started.stderr).not.toContain(info.adminToken);
  });

  it('a write that happened is reported as done, with the unwritten audit line said beside it', async () => {
    const repo = await createRepo();
    // /dev/full opens fine and refuses every write (ENOSPC): a disk that filled up after startup.
    await withSession(
      { revision: '2025-11-25', env: { WOODPECKER_MCP_AUDIT_LOG: '/dev/full' } },
      async (session) => {
        const result = await session.call('trigger_pipeline', {
          repo_id: repo.repoId,
          branch: 'main',
        });
        expect(result.isError, textOf(result)).toBeFalsy();
        const number = (result.structuredContent as { number?: unknown }).number;
        expect(typeof number).toBe('number');
        expect(textOf(result)).toContain(
          'Audit: the trigger_pipeline call above was carried out, but its line could not be written to WOODPECKER_MCP_AUDIT_LOG (ENOSPC). Do not repeat the call because of this',
        );
        // The pipeline the answer names really exists: exactly one was started.
        const pipelines = await adminApi().get<Array<{ number: number }>>(
          `/api/repos/${repo.repoId}/pipelines`,
        );
        expect(pipelines.map((pipeline) => pipeline.number)).toEqual([number]);
      },
    );
  });

  it('a write refused by WOODPECKER_REPOS is logged as refused, outside or missing alike', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    const allowed = await createRepo();
    const outside = await createRepo();
    const missing = 2_000_000_000;
    await withSession(
      {
        revision: '2025-11-25',
        env: { WOODPECKER_MCP_AUDIT_LOG: path, WOODPECKER_REPOS: allowed.fullName },
      },
      async (session) => {
        const refused = [];
        for (const repoId of [outside.repoId, missing]) {
          const result = await session.call('trigger_pipeline', {
            repo_id: repoId,
            branch: 'main',
          });
          expect(result.isError).toBe(true);
          refused.push(textOf(result).replace(String(repoId), '<id>'));
        }
        expect(refused[0]).toBe(refused[1]);
      },
    );
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.tool, line.outcome, line.targets])).toEqual([
      ['trigger_pipeline', 'refused', expect.objectContaining({ repo_id: outside.repoId })],
      ['trigger_pipeline', 'refused', expect.objectContaining({ repo_id: missing })],
    ]);
    // Nothing was started in the repository outside the list.
    expect(await adminApi().get<unknown[]>(`/api/repos/${outside.repoId}/pipelines`)).toEqual([]);
  });
});
