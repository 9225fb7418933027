// The golden output is excluded from the project's tsconfig on purpose: its imports
// (../../runtime/core/tool.js) only resolve where generated/ sits next to runtime/. This
// test puts a copy there and runs tsc, so the goldens are type-checked after all, and
// shows that tsc rejects a tool module whose spec types no longer match the manifest.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goldenExpected, repoRoot } from './fixturePaths.js';

const scratchRoot = join(repoRoot, '.tmp');
mkdirSync(scratchRoot, { recursive: true });
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function mirror(): string {
  const dir = mkdtempSync(join(scratchRoot, 'golden-tsc-'));
  scratch.push(dir);
  cpSync(join(goldenExpected, 'generated'), join(dir, 'generated'), { recursive: true });
  symlinkSync(join(repoRoot, 'runtime'), join(dir, 'runtime'), 'dir');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repoRoot, 'tsconfig.json'),
      include: ['generated'],
      exclude: [],
    }),
  );
  return dir;
}

function tsc(dir: string): { ok: boolean; output: string } {
  try {
    execFileSync(
      join(repoRoot, 'node_modules/.bin/tsc'),
      ['-p', join(dir, 'tsconfig.json'), '--noEmit'],
      { encoding: 'utf8' },
    );
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

describe('golden output type-checks', () => {
  it('compiles with the strict project settings', () => {
    const result = tsc(mirror());
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  }, 120_000);

  it('fails to compile when a body field in the spec types is renamed', () => {
    const dir = mirror();
    const api = join(dir, 'generated/woodpecker-api.ts');
    const text = readFileSync(api, 'utf8');
    expect(text).toContain('owner?: string;');
    writeFileSync(api, text.replace('owner?: string;', 'owner_ref?: string;'));
    const result = tsc(dir);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/update_widget\.ts.*'owner' does not exist/s);
  }, 120_000);
});
