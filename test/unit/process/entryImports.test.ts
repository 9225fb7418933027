// What the entry point loads before it knows the command. `--version` and `--help` must
// answer without the MCP SDK (loading it took most of their time), and serving must not
// load undici, Ajv or RE2 before the first tools/list, which needs none of them: their
// first use loads them (lazyModule.ts). Read from the sources' static imports, the ones
// Node evaluates before a line of main.ts runs; `import type` is erased and dynamic
// `import()` runs only on its path.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Static, non-type imports of a source file: relative ones as repository paths, packages by name. */
function staticImports(file: string): { files: string[]; packages: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)(?!\s+type\b)\b[^'";]*?from\s*'([^']+)'/gm),
    ...text.matchAll(/^\s*import\s*'([^']+)'/gm),
  ].map((match) => match[1]!);
  return {
    files: specifiers
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts')),
    packages: specifiers.filter((specifier) => !specifier.startsWith('.')),
  };
}

/** Every package a file loads through its static imports, with the file that imports it. */
function packagesLoadedBy(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const found = staticImports(file);
    for (const name of found.packages) if (!packages.has(name)) packages.set(name, file);
    for (const next of found.files) visit(next);
  };
  visit(entry);
  return packages;
}

const thirdParty = (packages: Map<string, string>) =>
  [...packages]
    .filter(([name]) => !name.startsWith('node:'))
    .map(([name, by]) => `${name} (${by})`);

describe('the entry point', () => {
  it('loads no dependency before it has read the command line', () => {
    expect(thirdParty(packagesLoadedBy('runtime/process/main.ts'))).toEqual([]);
  });

  it('serves with the SDK and the catalogue, but loads undici, Ajv and RE2 only on first use', () => {
    const loaded = [...packagesLoadedBy('runtime/process/serve.ts').keys()];
    expect(loaded).toContain('@modelcontextprotocol/server/stdio');
    expect(loaded.filter((name) => /^(undici|ajv|re2js)\b/.test(name))).toEqual([]);
  });

  it('is checked by a reader that sees imports through the whole graph', () => {
    expect(packagesLoadedBy('runtime/mcp/server.ts').has('@modelcontextprotocol/server')).toBe(
      true,
    );
    expect(staticImports('runtime/mcp/server.ts').packages).not.toContain('undici');
  });
});
