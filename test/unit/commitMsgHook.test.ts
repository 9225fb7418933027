// .githooks/commit-msg holds CONTRIBUTING.md's commit rule (issue 36: the habit had slipped to
// subjects of 174 characters and no bodies). Each case runs the hook on a message file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const hook = join(import.meta.dirname, '../../.githooks/commit-msg');
const folder = mkdtempSync(join(tmpdir(), 'commit-msg-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function judge(message: string) {
  const file = join(folder, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  const run = spawnSync('bash', [hook, file], { encoding: 'utf8' });
  return { status: run.status, said: run.stderr };
}

const body = '\n\nWhy it was needed, and what was measured (npm run test:unit: 12 passed).\n';

describe('the commit-msg hook', () => {
  it('lets a short subject with a body through', () => {
    expect(judge(`Approvals of a pipeline are bound to its id${body}`).status).toBe(0);
  });

  it('counts a subject of exactly 72 characters as within the limit', () => {
    expect(judge(`${'a'.repeat(72)}${body}`).status).toBe(0);
  });

  it('refuses a subject over 72 characters, saying its length', () => {
    const verdict = judge(`${'a'.repeat(73)}${body}`);
    expect(verdict.status).toBe(1);
    expect(verdict.said).toContain('73 characters');
  });

  it('refuses a message without a body', () => {
    const verdict = judge('Fix the thing\n');
    expect(verdict.status).toBe(1);
    expect(verdict.said).toContain('no body');
  });

  it('does not count comment lines as a body', () => {
    const verdict = judge('Fix the thing\n\n# Please enter the commit message\n# On branch main\n');
    expect(verdict.status).toBe(1);
    expect(verdict.said).toContain('no body');
  });

  it('refuses a subject that runs onto a second line', () => {
    const verdict = judge(`Fix the thing\nand another thing${body}`);
    expect(verdict.status).toBe(1);
    expect(verdict.said).toContain('line 2 must be blank');
  });

  it('ignores what is below the scissors line of `git commit -v`', () => {
    const scissors = '# ------------------------ >8 ------------------------\n';
    const verdict = judge(`Fix the thing\n\n${scissors}diff --git a/x b/x\n+${'b'.repeat(100)}\n`);
    expect(verdict.status).toBe(1);
    expect(verdict.said).toContain('no body');
  });

  it('leaves fixup commits to the later squash', () => {
    expect(judge(`fixup! ${'a'.repeat(80)}\n`).status).toBe(0);
  });
});
