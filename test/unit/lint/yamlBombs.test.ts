// A short file of merge keys (`- <<: *list`, Woodpecker's list merge) can stand for a huge
// tree. The outside attack of issue 34's closing round: a 7 KB file held the event loop for
// 15-24 s (every session of an HTTP server waited), though the 100,000-value cap refused it
// in the end, because each use of an alias searched the whole document for its anchor.
// Each alias is now resolved once, in one pass; these tests count the searches, not time.
import { Alias } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lintConfig, MAX_FINDINGS } from '../../../runtime/lint/lintConfig.js';
import { MAX_EXPANDED_VALUES, parseYamlTree } from '../../../runtime/lint/yamlTree.js';

/** Levels of lists, each made of `width` merges of the level below. */
function mergeBomb(levels: number, width: number): string {
  const lines = [`l0: &l0 [${Array.from({ length: width }, (_, i) => i).join(',')}]`];
  for (let level = 1; level < levels; level++) {
    lines.push(`l${level}: &l${level}`);
    for (let i = 0; i < width; i++) lines.push(`  - <<: *l${level - 1}`);
  }
  return `${lines.join('\n')}\n`;
}

afterEach(() => vi.restoreAllMocks());

describe('alias-heavy files cost work in proportion to their size', () => {
  it.each([
    [8, 10, true],
    [3, 250, true],
    [3, 150, false],
  ])('levels %i, width %i: no alias is searched for once per use', (levels, width, expands) => {
    const searches = vi.spyOn(Alias.prototype, 'resolve');
    const text = mergeBomb(levels, width);
    const aliases = (text.match(/\*l\d+/g) ?? []).length;
    const tree = parseYamlTree(text);
    expect(searches.mock.calls.length).toBeLessThanOrEqual(aliases);
    if (expands)
      expect(tree.syntax.map((finding) => finding.message)).toContain(
        `the file expands to more than ${MAX_EXPANDED_VALUES} values through its aliases; no pipeline needs that many`,
      );
    else expect(tree.syntax).toEqual([]);
  });

  it('still reads an alias as the last anchor of its name before it', () => {
    const tree = parseYamlTree('a: &x 1\nb: *x\nc: &x 2\nd: *x\ne: [&y 3, *y]\n');
    expect(tree.value).toEqual({ a: 1, b: 1, c: 2, d: 2, e: [3, 3] });
  });
});

describe('a file of many findings is answered in one pass', () => {
  it('still finds a repeated key, at the repeat', () => {
    const tree = parseYamlTree('steps:\n  a: 1\n  b: 2\n  a: 3\n"1": x\n1: y\n');
    expect(tree.syntax).toEqual([
      { line: 4, column: 3, message: 'not valid YAML: Map keys must be unique' },
    ]);
  });

  it('lists at most MAX_FINDINGS errors and counts the rest', () => {
    const keys = Array.from({ length: 17_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    const report = lintConfig(`${keys}\n`, '3.17.0');
    expect(report.errors).toHaveLength(MAX_FINDINGS);
    expect(report.unlisted).toBeGreaterThan(0);
    expect(report.errors.length + report.unlisted).toBeGreaterThanOrEqual(17_000);
  });
});

describe('a file of many steps is judged whole', () => {
  it('reports each step of 3,000 that has a key the schema does not allow, up to the list limit', () => {
    const steps = Array.from(
      { length: 3000 },
      (_, i) => `  s${i}:\n    image: alpine\n    commands: [echo]\n    bogus${i}: 1`,
    );
    const report = lintConfig(`steps:\n${steps.join('\n')}\n`, '3.17.0');
    expect(report.errors).toHaveLength(MAX_FINDINGS);
    expect(report.errors[0]).toMatchObject({ field: 'steps.s0.bogus0', rule: 'schema' });
    expect(report.errors.length + report.unlisted).toBeGreaterThanOrEqual(3000);
  });
});
