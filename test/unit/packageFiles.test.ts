// What the published tarball holds: every file a packaged document links to, the licence
// the package declares, and a server.json for the MCP registry that agrees with the
// package and with the variables the server reads.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SCHEMA_URL, serverJsonRules } from './registry/serverJsonRules.js';
import { VARIABLES } from '../../runtime/process/variables.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  name: string;
  version: string;
  license: string;
  mcpName: string;
};

function packedFiles(): string[] {
  // --ignore-scripts: listing must not build; dist/ is checked by the install test.
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map(
    (file) => file.path,
  );
}

describe('the tarball', () => {
  const files = packedFiles();

  it('holds the licence, changelog, security policy and registry description', () => {
    for (const name of ['LICENSE', 'CHANGELOG.md', 'SECURITY.md', 'server.json', 'README.md'])
      expect(files).toContain(name);
  });

  it('holds every file a packaged document links to', () => {
    const missing: string[] = [];
    for (const doc of files.filter((file) => file.endsWith('.md'))) {
      const base = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : '';
      for (const match of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!.split('#')[0]!;
        if (!target || /^[a-z]+:/.test(target)) continue;
        const resolved = new URL(target, `file:///${base}`).pathname.slice(1);
        if (!files.includes(resolved)) missing.push(`${doc} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares the licence its LICENSE file grants', () => {
    expect(pkg.license).toBe('MIT');
    expect(read('LICENSE')).toMatch(/^MIT License/);
  });
});

describe('server.json', () => {
  const server = JSON.parse(read('server.json')) as {
    name: string;
    version: string;
    packages: Array<{
      registryType: string;
      identifier: string;
      version: string;
      transport: { type: string };
      environmentVariables: Array<{ name: string; isSecret?: boolean; isRequired?: boolean }>;
    }>;
  };
  const npm = server.packages.find((entry) => entry.registryType === 'npm');

  it('describes this npm package under the name package.json claims (mcpName)', () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(npm).toMatchObject({
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: 'stdio' },
    });
  });

  it('declares every variable the server reads, the credentials as secret', () => {
    expect(npm!.environmentVariables.map((variable) => variable.name)).toEqual(
      VARIABLES.map((variable) => variable.name),
    );
    const secret = npm!.environmentVariables
      .filter((variable) => variable.isSecret)
      .map((variable) => variable.name);
    expect(secret.sort()).toEqual(['WOODPECKER_MCP_SEAL_KEY', 'WOODPECKER_TOKEN']);
  });

  describe("against the registry schema's rules (test/unit/registry/serverJsonRules.ts)", () => {
    const check = new Ajv({ allErrors: true, strict: false }).compile(serverJsonRules);
    const problems = (value: unknown) =>
      check(value)
        ? []
        : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);

    it('server.json names the schema it is checked against and meets its rules', () => {
      expect((server as unknown as { $schema: string }).$schema).toBe(SCHEMA_URL);
      expect(problems(server)).toEqual([]);
    });

    it.each([
      ['a description over 100 characters', { description: 'x'.repeat(101) }],
      ['version "latest"', { version: 'latest' }],
      ['a version range', { version: '^0.1.0' }],
      ['a name without its namespace', { name: 'woodpecker-ci-mcp' }],
      ['no description', { description: undefined }],
    ])('the check refuses %s', (_what, change) => {
      expect(problems(JSON.parse(JSON.stringify({ ...server, ...change })))).not.toEqual([]);
    });

    it('the check refuses a package without a transport, or a variable without a name', () => {
      const [first] = server.packages;
      const without = { ...server, packages: [{ ...first, transport: undefined }] };
      expect(problems(JSON.parse(JSON.stringify(without)))).not.toEqual([]);
      const nameless = {
        ...server,
        packages: [{ ...first, environmentVariables: [{ description: 'no name' }] }],
      };
      expect(problems(nameless)).not.toEqual([]);
    });
  });
});
