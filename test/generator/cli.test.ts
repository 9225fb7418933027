// The command line: exit codes, the drift report of --check, and manifest errors printed
// as plain lines (no stack trace).
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../generator/cli.js';
import { goldenDir, goldenManifest, goldenSpec } from './fixturePaths.js';

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
afterEach(() => vi.restoreAllMocks());

function captured(): { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { out: () => out.join(''), err: () => err.join('') };
}

const fixtureArgs = ['--manifest', goldenManifest, '--spec', goldenSpec];

describe('generator CLI', () => {
  it('writes, then --check passes; a changed file makes --check fail with the fix', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-'));
    scratch.push(root);
    const io = captured();
    expect(await main([...fixtureArgs, '--out', root])).toBe(0);
    expect(await main([...fixtureArgs, '--out', root, '--check'])).toBe(0);
    expect(io.out()).toContain('up to date (5 tools)');

    writeFileSync(join(root, 'docs/tools.md'), 'edited by hand\n');
    rmSync(join(root, 'generated/tools/get_widget.ts'));
    writeFileSync(join(root, 'generated/tools/old_tool.ts'), '// left over\n');
    expect(await main([...fixtureArgs, '--out', root, '--check'])).toBe(1);
    expect(io.err()).toContain('changed: docs/tools.md');
    expect(io.err()).toContain('missing: generated/tools/get_widget.ts');
    expect(io.err()).toContain('not generated any more: generated/tools/old_tool.ts');
    expect(io.err()).toContain('Run `npm run generate`');
    // Three generator runs with formatting: slow on a loaded machine.
  }, 60_000);

  it('prints manifest errors as lines with no stack trace and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-bad-'));
    scratch.push(dir);
    cpSync(join(goldenDir, 'runtime'), join(dir, 'runtime'), { recursive: true });
    const bad = readFileSync(goldenManifest, 'utf8').replace(
      '    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }\n    guard:\n      when: always',
      '    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false }\n    guard:\n      when: always',
    );
    expect(bad).not.toBe(readFileSync(goldenManifest, 'utf8'));
    const manifestPath = join(dir, 'tools.yaml');
    writeFileSync(manifestPath, bad);
    const io = captured();
    expect(await main(['--manifest', manifestPath, '--spec', goldenSpec, '--out', dir])).toBe(1);
    expect(io.err()).toMatch(
      /tools\.yaml:\d+: delete_widget: annotations\.idempotentHint: is missing/,
    );
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it('refuses unknown options with usage', async () => {
    const io = captured();
    expect(await main(['--frobnicate'])).toBe(2);
    expect(io.err()).toContain('usage:');
  });

  it('says how to get the spec when it is missing', async () => {
    const io = captured();
    expect(
      await main(['--manifest', goldenManifest, '--spec', '/nonexistent/spec.json', '--check']),
    ).toBe(1);
    expect(io.err()).toContain('npm run spec:pull');
  });
});
