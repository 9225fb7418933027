// Each folder's line budget, as ARCHITECTURE.md states it: the table there is the budget,
// this test holds the folders to it, so a folder that keeps growing is noticed while it
// is still easy to split.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The table between the line-budget markers: folder → lines at most. */
function budgets(): Map<string, number> {
  const doc = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const table = /<!-- line-budget -->([\s\S]*?)<!-- \/line-budget -->/.exec(doc)?.[1];
  if (table === undefined) throw new Error('ARCHITECTURE.md has no line-budget table');
  const rows = [...table.matchAll(/^\|\s*([\w/.-]+)\s*\|\s*(\d+)\s*\|$/gm)];
  return new Map(rows.map((row) => [row[1]!, Number(row[2])]));
}

/** Lines of the source files directly in a folder (its sub-folders have their own rows). */
function linesIn(folder: string): number {
  const directory = join(ROOT, folder);
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .reduce(
      (sum, entry) =>
        sum + readFileSync(join(directory, entry.name), 'utf8').split('\n').length - 1,
      0,
    );
}

describe('line budget (ARCHITECTURE.md)', () => {
  const table = budgets();

  it('has a row for every runtime folder, and only for folders that exist', () => {
    const runtimeFolders = readdirSync(join(ROOT, 'runtime'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `runtime/${entry.name}`);
    for (const folder of runtimeFolders) expect([...table.keys()]).toContain(folder);
    for (const folder of table.keys()) expect(existsSync(join(ROOT, folder)), folder).toBe(true);
  });

  it('keeps every folder within its budget', () => {
    const over = [...table]
      .map(([folder, budget]) => ({ folder, budget, lines: linesIn(folder) }))
      .filter(({ lines, budget }) => lines > budget)
      .map(
        ({ folder, budget, lines }) =>
          `${folder}: ${lines} lines, budget ${budget}; split the folder, or raise its row in ARCHITECTURE.md and say why`,
      );
    expect(over).toEqual([]);
  });
});
