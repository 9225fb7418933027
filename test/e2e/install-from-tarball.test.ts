// What a newcomer gets: a fresh clone builds and runs with the README's commands, the packed
// tarball installs into an empty folder, `npx woodpecker-ci-mcp` runs from there, and an MCP
// client started on the installed command lists the tools and calls one against the real
// Woodpecker.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessInfo } from '../harness/fixtures.js';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';
import { harnessWoodpecker, withStdioServer } from './stdioServer.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  name: string;
  version: string;
};
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

describe('the packed tarball', () => {
  let work: string;
  let folder: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'wcm-pack-'));
    // npm pack runs prepack (the build), exactly as publishing would.
    execFileSync('npm', ['pack', '--pack-destination', work], { cwd: ROOT, stdio: 'ignore' });
    folder = mkdtempSync(join(tmpdir(), 'wcm-install-'));
    execFileSync(
      'npm',
      [
        'install',
        // What a user's `npm install` gets: the package's dependencies, none of ours for development.
        '--omit=dev',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        join(work, `${pkg.name}-${pkg.version}.tgz`),
      ],
      { cwd: folder, stdio: 'ignore', env },
    );
  }, 180_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs into an empty folder and runs with npx', () => {
    const version = execFileSync('npx', ['--no-install', 'woodpecker-ci-mcp', '--version'], {
      cwd: folder,
      encoding: 'utf8',
      env,
    });
    expect(version).toBe(`${pkg.version}\n`);
    const help = execFileSync('npx', ['--no-install', 'woodpecker-ci-mcp', '--help'], {
      cwd: folder,
      encoding: 'utf8',
      env,
    });
    expect(help).toContain('woodpecker-ci-mcp doctor');
    const doctorHelp = execFileSync(
      'npx',
      ['--no-install', 'woodpecker-ci-mcp', 'doctor', '--help'],
      {
        cwd: folder,
        encoding: 'utf8',
        env,
      },
    );
    expect(doctorHelp).toContain('woodpecker-ci-mcp doctor');
  });

  it('holds production dependencies only: none of the development tools came along', () => {
    const devDependencies = Object.keys(
      (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { devDependencies: object })
        .devDependencies,
    );
    for (const tool of [
      'typescript',
      'vitest',
      'tsx',
      'esbuild',
      'prettier',
      'gpt-tokenizer',
      'knip',
    ]) {
      expect(devDependencies).toContain(tool);
      expect(existsSync(join(folder, 'node_modules', tool)), tool).toBe(false);
    }
  });

  it('npm publish --dry-run warns of nothing but the missing registry login', () => {
    // dist/ is there from the pack above: no build again.
    const published = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    expect(published.status, published.stderr).toBe(0);
    const warnings = published.stderr
      .split('\n')
      .filter((line) => /^npm (warn|error)/i.test(line))
      .filter((line) => !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  }, 120_000);

  it('serves a real client over stdio from the installed command', async () => {
    const info = harnessInfo();
    await withStdioServer(
      {
        command: join(folder, 'node_modules', '.bin', 'woodpecker-ci-mcp'),
        cwd: folder,
        env: harnessWoodpecker(),
        name: 'installed-package',
      },
      async ({ client }) => {
        expect((await client.listTools()).tools).toHaveLength(CATALOGUE_SIZE);
        const server = await client.callTool({ name: 'get_server_info', arguments: {} });
        expect(server.structuredContent).toMatchObject({ version: info.version, healthy: true });
      },
    );
  });
});

describe('a fresh clone', () => {
  let clone: string;
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it("builds and runs with the README's commands", () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    for (const line of [
      'npm ci && npm run build',
      'node bin/woodpecker-ci-mcp.js doctor',
      'node bin/woodpecker-ci-mcp.js           # serves MCP over stdio',
    ]) {
      expect(readme).toContain(line);
    }
    clone = join(mkdtempSync(join(tmpdir(), 'wcm-clone-')), 'woodpecker-ci-mcp');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${ROOT}`, clone], {
      stdio: 'ignore',
    });
    // Stands in for `npm ci`: the same locked packages, without downloading them again.
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    execFileSync('npm', ['run', 'build'], { cwd: clone, stdio: 'ignore', env });
    const info = harnessInfo();
    const doctor = execFileSync('node', ['bin/woodpecker-ci-mcp.js', 'doctor'], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...env, WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken },
    });
    expect(doctor).toContain('Nothing blocks this configuration.');
  }, 180_000);
});
