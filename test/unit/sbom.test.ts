// The image's SBOM, made the way the Containerfile makes it: the production dependencies
// installed from the lockfile (npm ci --omit=dev), then deploy/sbom.mjs. It must list
// exactly what is installed (npm sbom alone either refuses the pruned tree or leaves out
// packages a development tool shares), name the package as its root, and leave
// package.json as it was. The deploy suite checks the file inside the built image.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'sbom-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Package names under node_modules, scopes opened. */
function installed(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  return readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@')
        ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`)
        : [name],
    );
}

describe('the image SBOM (deploy/sbom.mjs)', () => {
  it('lists exactly the production packages installed, as CycloneDX with the package as root', () => {
    for (const file of ['package.json', 'package-lock.json', 'deploy/sbom.mjs'])
      cpSync(join(ROOT, file), join(work, file));
    execFileSync(
      'npm',
      ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
      {
        cwd: work,
        stdio: 'ignore',
      },
    );
    execFileSync('node', ['deploy/sbom.mjs', 'sbom.cdx.json'], { cwd: work, stdio: 'ignore' });
    const bom = JSON.parse(readFileSync(join(work, 'sbom.cdx.json'), 'utf8')) as {
      bomFormat: string;
      specVersion: string;
      metadata: { component: { name: string; version: string } };
      components: { name: string; version: string; purl: string }[];
    };
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.metadata.component).toMatchObject({ name: pkg.name, version: pkg.version });
    const listed = bom.components.map((component) => component.name).sort();
    expect(listed).toEqual(installed(work).sort());
    expect(listed).toEqual(expect.arrayContaining(Object.keys(pkg.dependencies)));
    for (const tool of ['typescript', 'vitest', 'esbuild']) expect(listed).not.toContain(tool);
    for (const component of bom.components) expect(component.purl).toMatch(/^pkg:npm\//);
    // docs/deploy.md states the count.
    const stated = /exactly the (\d+) npm packages the image ships/.exec(
      readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8').replace(/\s+/g, ' '),
    )?.[1];
    expect(Number(stated)).toBe(listed.length);
    expect(readFileSync(join(work, 'package.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'package.json'), 'utf8'),
    );
  }, 120_000);

  it('is what the Containerfile makes and ships beside the app', () => {
    const containerfile = readFileSync(join(ROOT, 'Containerfile'), 'utf8');
    expect(containerfile).toContain('RUN node deploy/sbom.mjs sbom.cdx.json');
    expect(containerfile).toContain('COPY --from=build /src/sbom.cdx.json ./sbom.cdx.json');
    // After the prune: the SBOM describes the tree the image ships.
    expect(containerfile.indexOf('npm prune --omit=dev')).toBeLessThan(
      containerfile.indexOf('deploy/sbom.mjs sbom.cdx.json'),
    );
  });
});
