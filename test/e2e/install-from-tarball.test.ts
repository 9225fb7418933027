// What a newcomer gets from the package: the packed tarball installs into an empty folder,
// `npx woodpecker-ci-mcp` runs from there, and an MCP client started on the installed
// command lists the tools and calls one against the real Woodpecker.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessInfo } from '../harness/fixtures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { name: string; version: string };
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

describe('the packed tarball', () => {
  let work: string;
  let folder: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'wcm-pack-'));
    // npm pack runs prepack (the build), exactly as publishing would.
    execFileSync('npm', ['pack', '--pack-destination', work], { cwd: ROOT, stdio: 'ignore' });
    folder = mkdtempSync(join(tmpdir(), 'wcm-install-'));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, `${pkg.name}-${pkg.version}.tgz`)], { cwd: folder, stdio: 'ignore', env });
  }, 180_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs into an empty folder and runs with npx', () => {
    const version = execFileSync('npx', ['--no-install', 'woodpecker-ci-mcp', '--version'], { cwd: folder, encoding: 'utf8', env });
    expect(version).toBe(`${pkg.version}\n`);
    const help = execFileSync('npx', ['--no-install', 'woodpecker-ci-mcp', '--help'], { cwd: folder, encoding: 'utf8', env });
    expect(help).toContain('woodpecker-ci-mcp doctor');
  });

  it('serves a real client over stdio from the installed command', async () => {
    const info = harnessInfo();
    const client = new Client({ name: 'installed-package', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: join(folder, 'node_modules', '.bin', 'woodpecker-ci-mcp'),
        cwd: folder,
        env: { ...env, WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken },
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.listTools()).tools).toHaveLength(74);
      const server = await client.callTool({ name: 'get_server_info', arguments: {} });
      expect(server.structuredContent).toMatchObject({ version: info.version, healthy: true });
    } finally {
      await client.close();
    }
  });
});
