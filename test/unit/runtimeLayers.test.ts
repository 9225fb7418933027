// The runtime's folders are floors: a file may import from its own folder and from the
// floors below it, never from one above, and no files import each other in a circle.
// ARCHITECTURE.md draws the same floors; this test is what keeps the drawing true.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNTIME = join(ROOT, 'runtime');

/**
 * From the top floor down. Folders on one floor may not import each other either: `gate`
 * and `output` are independent stages the executor combines; `apps` holds the views'
 * pages, which import nothing; `lint` checks pipeline configs for a handler.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['process'],
  ['http'],
  ['mcp'],
  ['handlers'],
  ['call'],
  ['policy'],
  ['gate', 'output', 'apps', 'lint'],
  ['woodpecker'],
  ['core'],
];

function floorOf(folder: string): number {
  const index = FLOORS.findIndex((floor) => floor.includes(folder));
  if (index < 0) throw new Error(`runtime/${folder} is on no floor of FLOORS`);
  return index;
}

function runtimeFiles(directory = RUNTIME): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? runtimeFiles(join(directory, entry.name))
      : entry.name.endsWith('.ts')
        ? [relative(RUNTIME, join(directory, entry.name))]
        : [],
  );
}

/** Relative imports of a file, static and dynamic, as paths inside runtime/ (or outside it). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(RUNTIME, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s*'(\.[^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.map((specifier) =>
    normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts'),
  );
}

const files = runtimeFiles();
const folderOf = (file: string) => file.split('/')[0]!;

describe('the runtime is one-way', () => {
  it('has every file in a folder that is on a floor', () => {
    const loose = files.filter((file) => !file.includes('/'));
    expect(loose, 'files directly in runtime/ belong in a stage folder').toEqual([]);
    for (const file of files) expect(() => floorOf(folderOf(file))).not.toThrow();
  });

  it('imports only from its own folder or a floor below', () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const target of importsOf(file)) {
        if (target.startsWith('..')) continue; // generated/ and package.json, outside runtime/
        const from = folderOf(file);
        const to = folderOf(target);
        if (from !== to && floorOf(to) <= floorOf(from)) upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no circle of imports between files', () => {
    const graph = new Map(
      files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]),
    );
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it('is checked by a rule that can fail: an import from a floor above is caught', () => {
    // The checks above rely on importsOf seeing imports; make sure it sees both forms.
    expect(importsOf('call/executor.ts')).toContain('gate/gate.ts');
    expect(importsOf('process/serve.ts')).toContain('http/httpServer.ts');
    expect(floorOf('core')).toBeGreaterThan(floorOf('call'));
  });
});
