// The server as a process: what it says at startup about a plain-http Woodpecker, and
// how it stops. Each test starts `tsx runtime/process/main.ts` the way an MCP host or a
// supervisor would, against the real Woodpecker of the harness.
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { freeLoopbackPort } from '../harness/free-port.js';
import { waitUntil } from '../harness/wait-until.js';
import { addCanary, assertNoLeaks, checkForCanaries } from './canaries.js';
import { callTool2026, jsonRpcOf } from './rawMcpHttp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface ServerProcess {
  readonly child: ChildProcess;
  stderr(): string;
  /** Exit code, or the signal's name when a signal ended it; rejects after `timeoutMs`. */
  exited(timeoutMs: number): Promise<number | string>;
}

const started: ChildProcess[] = [];
/** Each process's stderr so far: checked for the token it was given after every test. */
const stderrs: (() => string)[] = [];
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const stderr of stderrs.splice(0)) checkForCanaries("the server process's stderr", stderr());
  assertNoLeaks();
});

function startProcess(args: string[], env: Record<string, string>): ServerProcess {
  // One process, as `node dist/runtime/process/main.js` would be: the tsx CLI runs the
  // server as a child and relays signals itself, which under load decides on its own
  // that the child has no handler and exits 128+signal first.
  const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/process/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.push(child);
  addCanary(env.WOODPECKER_TOKEN);
  let stderr = '';
  stderrs.push(() => stderr);
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    stderr: () => stderr,
    exited: (timeoutMs) =>
      Promise.race([
        exit,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`still running after ${timeoutMs} ms; stderr: ${stderr}`)),
            timeoutMs,
          ),
        ),
      ]),
  };
}

/** Sends initialize over stdio and waits for the answer, so the server is surely up. */
async function initializeOverStdio(server: ServerProcess): Promise<void> {
  const answered = new Promise<void>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(
      () => reject(new Error(`no initialize answer; stderr: ${server.stderr()}`)),
      20_000,
    );
    server.child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('"result"')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  server.child.stdin!.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lifecycle', version: '1' } } })}\n`,
  );
  await answered;
}

async function startHttpProcess(
  env: Record<string, string>,
  extraArgs: string[] = [],
): Promise<ServerProcess & { url: string }> {
  const port = await freeLoopbackPort();
  const server = startProcess(['--http', '--port', String(port), ...extraArgs], env);
  const deadline = Date.now() + 20_000;
  while (!server.stderr().includes('serving MCP over HTTP at')) {
    if (Date.now() > deadline || server.child.exitCode !== null)
      throw new Error(`server did not start: ${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ...server, url: `http://127.0.0.1:${port}/mcp` };
}

/** Whether anything accepts a connection at the URL's port. */
function accepts(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'GET', agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

describe('a plain http:// WOODPECKER_URL', () => {
  const warning = /WOODPECKER_URL uses plain http:\/\/ to a host that is not this machine/;

  it('to another host prints a warning at startup, without the token', async () => {
    const server = startProcess([], {
      WOODPECKER_URL: 'http://ci.example.invalid',
      WOODPECKER_TOKEN: 'token-that-must-not-be-printed',
    });
    await initializeOverStdio(server);
    expect(server.stderr()).toMatch(warning);
    expect(server.stderr()).not.toContain('token-that-must-not-be-printed');
    server.child.stdin!.end();
    expect(await server.exited(10_000)).toBe(0);
  });

  it.each([
    ['the harness Woodpecker on loopback', () => harnessInfo().url],
    ['localhost', () => 'http://localhost:9'],
    ['[::1]', () => 'http://[::1]:9'],
    ['https to another host', () => 'https://ci.example.invalid'],
  ])('to %s prints none', async (_name, url) => {
    const server = startProcess([], {
      WOODPECKER_URL: url(),
      WOODPECKER_TOKEN: harnessInfo().adminToken,
    });
    await initializeOverStdio(server);
    expect(server.stderr()).not.toMatch(warning);
    server.child.stdin!.end();
    expect(await server.exited(10_000)).toBe(0);
  });
});

describe('HTTP on loopback with WOODPECKER_TOKEN still exported', () => {
  // Following "Run it" in order (the stdio setup first) leaves it exported.
  const warning =
    /warning: serving HTTP with WOODPECKER_TOKEN set; every request without an Authorization header acts as that account/;

  it('warns that requests without a token act as that account, without printing the token; unset, says nothing of it', async () => {
    const exported = await startHttpProcess({
      WOODPECKER_URL: harnessInfo().url,
      WOODPECKER_TOKEN: harnessInfo().adminToken,
    });
    expect(exported.stderr()).toMatch(warning);
    expect(exported.stderr()).not.toContain(harnessInfo().adminToken);
    exported.child.kill('SIGTERM');
    expect(await exported.exited(10_000)).toBe(0);

    const unset = await startHttpProcess({ WOODPECKER_URL: harnessInfo().url });
    expect(unset.stderr()).not.toMatch(warning);
    unset.child.kill('SIGTERM');
    expect(await unset.exited(10_000)).toBe(0);
  });
});

describe('listening off loopback', () => {
  const warning = /listening on 0\.0\.0\.0 without WOODPECKER_MCP_ALLOWED_HOSTS/;

  it('without WOODPECKER_MCP_ALLOWED_HOSTS warns that any Host is answered; with it, checks Host and says nothing', async () => {
    const open = await startHttpProcess({ WOODPECKER_URL: harnessInfo().url }, [
      '--host',
      '0.0.0.0',
    ]);
    expect(open.stderr()).toMatch(warning);
    open.child.kill('SIGTERM');
    expect(await open.exited(10_000)).toBe(0);

    const listed = await startHttpProcess(
      { WOODPECKER_URL: harnessInfo().url, WOODPECKER_MCP_ALLOWED_HOSTS: 'mcp.internal' },
      ['--host', '0.0.0.0'],
    );
    expect(listed.stderr()).not.toMatch(warning);
    const port = new URL(listed.url).port;
    expect(
      (await callTool2026(listed.url, 'get_server_info', { host: `mcp.internal:${port}` })).status,
    ).toBe(200);
    expect(
      (await callTool2026(listed.url, 'get_server_info', { host: `attacker.example:${port}` }))
        .status,
    ).toBe(403);
    listed.child.kill('SIGTERM');
    expect(await listed.exited(10_000)).toBe(0);
  });
});

describe('stopping', () => {
  it('stdio: exits 0 when the client closes stdin', async () => {
    const server = startProcess([], {
      WOODPECKER_URL: harnessInfo().url,
      WOODPECKER_TOKEN: harnessInfo().adminToken,
    });
    await initializeOverStdio(server);
    server.child.stdin!.end();
    expect(await server.exited(10_000)).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stdio: exits 0 on %s', async (signal) => {
    const server = startProcess([], {
      WOODPECKER_URL: harnessInfo().url,
      WOODPECKER_TOKEN: harnessInfo().adminToken,
    });
    await initializeOverStdio(server);
    server.child.kill(signal);
    expect(await server.exited(10_000)).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'http: with nothing under way, exits 0 at once on %s',
    async (signal) => {
      const server = await startHttpProcess({
        WOODPECKER_URL: harnessInfo().url,
        WOODPECKER_TOKEN: harnessInfo().adminToken,
      });
      // A client that connected and left: an idle keep-alive connection must not hold the exit.
      expect((await callTool2026(server.url, 'get_server_info')).status).toBe(200);
      const before = Date.now();
      server.child.kill(signal);
      expect(await server.exited(10_000)).toBe(0);
      expect(Date.now() - before).toBeLessThan(3_000);
    },
  );

  it('http: SIGTERM stops accepting, lets the call under way answer, then exits 0', async () => {
    await withRunningPipeline(async (args) => {
      const server = await startHttpProcess({
        WOODPECKER_URL: harnessInfo().url,
        WOODPECKER_TOKEN: harnessInfo().adminToken,
      });
      // A call that takes five seconds (waiting for a pipeline that keeps running): long
      // enough to outlast a slow signal, within the server's 5 s grace from the signal.
      const call = callTool2026(
        server.url,
        'wait_for_pipeline',
        {},
        {
          ...args,
          timeout_seconds: 5,
        },
      );
      let answered = false;
      void call.then(
        () => (answered = true),
        () => (answered = true),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      server.child.kill('SIGTERM');
      // How soon the signal is handled depends on the machine's load: wait for the
      // listener to close, then check the call was still under way when it did.
      await waitUntil(
        'the server to stop accepting connections',
        async () => ((await accepts(server.url)) ? undefined : true),
        { timeoutMs: 8_000, intervalMs: 100 },
      );
      expect(answered).toBe(false);

      const answer = await call;
      expect(answer.status).toBe(200);
      expect(jsonRpcOf(answer).result?.structuredContent).toMatchObject({
        status: 'running',
        timed_out: true,
      });
      expect(await server.exited(10_000)).toBe(0);
    });
  });

  // (Closing stdin is different: the MCP stdio binding asks a server to exit promptly, and
  // the SDK aborts what is under way; a client that wants answers keeps stdin open.)
  it('stdio: on SIGTERM the call under way still answers, then the process exits 0', async () => {
    await withRunningPipeline(async (args) => {
      const server = startProcess([], {
        WOODPECKER_URL: harnessInfo().url,
        WOODPECKER_TOKEN: harnessInfo().adminToken,
      });
      await initializeOverStdio(server);
      let stdout = '';
      server.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      server.child.stdin!.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
      );
      server.child.stdin!.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait_for_pipeline', arguments: args } })}\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      server.child.kill('SIGTERM');

      expect(await server.exited(10_000)).toBe(0);
      const answer = stdout
        .split('\n')
        .filter((line) => line.includes('"id":7'))
        .map((line) => JSON.parse(line) as { result?: { structuredContent?: unknown } })[0];
      expect(answer?.result?.structuredContent).toMatchObject({
        status: 'running',
        timed_out: true,
      });
    });
  });
});

/** Runs `body` while a pipeline sleeps; it gets wait_for_pipeline arguments that take three seconds. */
async function withRunningPipeline(
  body: (args: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const repo = await createRepo({
    files: { '.woodpecker.yaml': offlinePipelineYaml([{ name: 'slow', commands: ['sleep 30'] }]) },
  });
  const pipeline = await adminApi().post<{ number: number }>(
    `/api/repos/${repo.repoId}/pipelines`,
    { branch: 'main' },
  );
  try {
    await waitForPipelineStatus(repo.repoId, pipeline.number, ['running']);
    await body({ repo_id: repo.repoId, number: pipeline.number, timeout_seconds: 3 });
  } finally {
    await adminApi().post(`/api/repos/${repo.repoId}/pipelines/${pipeline.number}/cancel`);
  }
}
