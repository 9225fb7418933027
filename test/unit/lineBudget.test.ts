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

/** At most this many source files directly in one folder: more is a folder to split. */
const FILES_AT_MOST = 15;

/** The source files directly in a folder (its sub-folders have their own rows). */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => join(ROOT, folder, entry.name));
}

function linesIn(folder: string): number {
  return sourceFiles(folder).reduce(
    (sum, file) => sum + readFileSync(file, 'utf8').split('\n').length - 1,
    0,
  );
}

/** Every folder under a top folder, at any depth, as a path from the repository root. */
function foldersUnder(top: string): string[] {
  return readdirSync(join(ROOT, top), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${top}/${entry.name}`, ...foldersUnder(`${top}/${entry.name}`)]);
}

describe('line budget (ARCHITECTURE.md)', () => {
  const table = budgets();

  it('has a row for every folder of runtime/ and generator/, and only for folders that exist', () => {
    const sourceFolders = [...foldersUnder('runtime'), 'generator', ...foldersUnder('generator')];
    expect(sourceFolders).toContain('runtime/handlers/reads');
    for (const folder of sourceFolders) expect([...table.keys()]).toContain(folder);
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

  it(`keeps every folder to ${FILES_AT_MOST} source files at most`, () => {
    const crowded = [...table.keys()]
      .map((folder) => ({ folder, files: sourceFiles(folder).length }))
      .filter(({ files }) => files > FILES_AT_MOST)
      .map(({ folder, files }) => `${folder}: ${files} source files; split it into sub-folders`);
    expect(crowded).toEqual([]);
  });
});
