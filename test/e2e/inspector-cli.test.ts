// A client nobody here wrote: the MCP Inspector's CLI (scripts/inspector-cli.sh, Node 22)
// lists the tools and calls them over stdio and over HTTP against the real Woodpecker. It
// starts a new server process for every call over stdio, which is also the case the
// two-call confirm_token must survive.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createRepo, harnessInfo, uniqueName } from '../harness/fixtures.js';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';
import { startHttpServerProcess, type HttpServerProcess } from './httpServerProcess.js';

/**
 * What npm needs to reach the registry when the script installs the Inspector on first use:
 * the certificate settings and any proxy of the environment (the server under test gets
 * only PATH and HOME; npm is not under test).
 */
function npmEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name, value]) =>
        value !== undefined &&
        /^(npm_config_|NODE_EXTRA_CA_CERTS$|SSL_CERT_|HTTPS?_PROXY$|NO_PROXY$)/i.test(name),
    ),
  ) as Record<string, string>;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

async function inspector(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('bash', [`${ROOT}scripts/inspector-cli.sh`, ...args], {
    cwd: ROOT,
    timeout: 240_000,
    maxBuffer: 32 * 1024 * 1024,
    env: { ...npmEnvironment(), PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

function overStdio(
  method: string[],
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const info = harnessInfo();
  const environment = { WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken, ...env };
  return inspector([
    ...Object.entries(environment).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
    '--cwd',
    ROOT,
    ...method,
    'node_modules/.bin/tsx',
    'runtime/process/main.ts',
  ]);
}

const toolNames = (listed: Record<string, unknown>) =>
  (listed.tools as Array<{ name: string }>).map((tool) => tool.name);

describe('the MCP Inspector CLI', () => {
  it('lists the tools and calls one over stdio', async () => {
    expect(toolNames(await overStdio(['--method', 'tools/list']))).toHaveLength(CATALOGUE_SIZE);
    const called = await overStdio(['--method', 'tools/call', '--tool-name', 'get_server_info']);
    expect(called.structuredContent).toMatchObject({
      version: harnessInfo().version,
      healthy: true,
    });
  }, 300_000);

  it('takes the disk space its first-use message says (about 296 MB)', async () => {
    await overStdio(['--method', 'tools/list']);
    const script = readFileSync(`${ROOT}scripts/inspector-cli.sh`, 'utf8');
    const said = Number(/\(about (\d+) MB, once/.exec(script)?.[1]);
    const version = /inspector_version="([\d.]+)"/.exec(script)?.[1];
    const tools = join(
      process.env.WOODPECKER_CACHE_DIR ?? join(homedir(), '.cache', 'woodpecker-ci-mcp'),
      `inspector-${version}`,
    );
    const megabytes = Number(
      execFileSync('du', ['-sm', tools], { encoding: 'utf8' }).split('\t')[0],
    );
    // du counts MiB of blocks used; the figure is to hold within a tenth.
    expect(
      Math.abs(megabytes - said) / said,
      `${tools}: ${megabytes} MB, the script says ${said}`,
    ).toBeLessThan(0.1);
  }, 300_000);

  it('uses the two-call confirm_token although each call is a new server process', async () => {
    const repo = await createRepo();
    const name = uniqueName('INSPECT').toUpperCase().replace(/-/g, '_');
    await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
      name,
      value: 'v',
      events: ['push'],
    });
    const target = ['--tool-arg', 'scope=repository', `repo_id=${repo.repoId}`, `name=${name}`];
    // --tool-arg takes every word up to the next option, so it goes before --method.
    const first = await overStdio([
      ...target,
      '--method',
      'tools/call',
      '--tool-name',
      'delete_secret',
    ]);
    const token = (first.structuredContent as { confirm_token?: string } | undefined)
      ?.confirm_token;
    expect(typeof token, JSON.stringify(first).slice(0, 500)).toBe('string');
    expect(
      (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
    ).toBe(200);

    const second = await overStdio([
      ...target,
      `confirm_token=${token}`,
      '--method',
      'tools/call',
      '--tool-name',
      'delete_secret',
    ]);
    expect(second.isError, JSON.stringify(second).slice(0, 500)).toBeFalsy();
    expect(
      (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
    ).toBe(404);
  }, 300_000);

  describe('over HTTP with its own Bearer token', () => {
    let server: HttpServerProcess | undefined;
    let url: string;
    // No WOODPECKER_TOKEN: every request brings its own, as the docs' HTTP setup says.
    beforeAll(async () => {
      server = await startHttpServerProcess();
      url = server.url;
    });
    afterAll(() => server?.stop());

    it('lists the tools and calls one', async () => {
      const auth = [
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${harnessInfo().adminToken}`,
      ];
      expect(toolNames(await inspector([...auth, '--method', 'tools/list', url]))).toHaveLength(
        CATALOGUE_SIZE,
      );
      const me = await inspector([
        ...auth,
        '--method',
        'tools/call',
        '--tool-name',
        'get_current_user',
        url,
      ]);
      expect(me.structuredContent).toMatchObject({ login: harnessInfo().adminLogin });
    }, 300_000);
  });
});
