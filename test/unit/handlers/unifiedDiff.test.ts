// The config diff compare_pipelines shows: standard hunks, counts, and both bounds.
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../runtime/handlers/insight/unifiedDiff.js';

describe('unifiedDiff', () => {
  it('writes one hunk with context around a changed line', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
    const after = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h'].join('\n');
    expect(unifiedDiff(before, after, 1000)).toEqual({
      diff: ['@@ -2,7 +2,7 @@', ' b', ' c', ' d', '-e', '+E', ' f', ' g', ' h'].join('\n'),
      added: 1,
      removed: 1,
      truncated: false,
    });
  });

  it('keeps changes far apart in separate hunks, and counts added and removed lines', () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index}`);
    const after = [...lines];
    after.splice(2, 1);
    after.push('new last line');
    const result = unifiedDiff(lines.join('\n'), after.join('\n'), 1000);
    expect(result.diff.match(/^@@/gm)).toHaveLength(2);
    expect(result).toMatchObject({ added: 1, removed: 1, truncated: false });
    expect(result.diff).toContain('-line 2');
    expect(result.diff).toContain('+new last line');
  });

  it('says so when the diff is cut at the character bound', () => {
    const before = Array.from({ length: 200 }, (_, index) => `old ${index}`).join('\n');
    const after = Array.from({ length: 200 }, (_, index) => `new ${index}`).join('\n');
    const result = unifiedDiff(before, after, 300);
    expect(result.diff.length).toBeLessThanOrEqual(300);
    expect(result).toMatchObject({ added: 200, removed: 200, truncated: true });
  });

  it('does not compare files past its line bound, and says so', () => {
    const huge = Array.from({ length: 2_001 }, (_, index) => String(index)).join('\n');
    expect(unifiedDiff(huge, `${huge}\nmore`, 1000)).toMatchObject({
      truncated: true,
      diff: expect.stringMatching(/not compared/),
    });
  });

  it('diffs from and to an empty file', () => {
    expect(unifiedDiff('', 'x\ny', 100)).toMatchObject({
      diff: '@@ -0,0 +1,2 @@\n+x\n+y',
      added: 2,
    });
  });
});
