// `npm run demo` as a newcomer uses it: it starts its own Woodpecker with sample data,
// prints a client configuration that works when pasted, and Ctrl-C stops everything and
// leaves nothing behind (no process answering, no temporary directory).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { textOf } from './mcpSession.js';
import { startStdioServer } from './stdioServer.js';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface PastedConfig {
  mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
}

/** The first JSON object printed after `marker`, as a person would copy it. */
function jsonAfter(output: string, marker: string): unknown {
  const start = output.indexOf('{', output.indexOf(marker));
  const end = output.indexOf('\n}\n', start);
  return JSON.parse(output.slice(start, end + 2));
}

describe('npm run demo', () => {
  let demo: ChildProcess | undefined;
  // Not the user's ~/.cache: a file of the test's own, with a space in its path.
  const envDir = mkdtempSync(join(tmpdir(), 'demo env-'));
  const envFile = join(envDir, 'demo.env');
  afterAll(() => {
    rmSync(envDir, { recursive: true, force: true });
    if (demo?.pid && demo.exitCode === null && demo.signalCode === null) {
      try {
        process.kill(-demo.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it('fills a Woodpecker every tool can be tried on, prints a working config, and Ctrl-C leaves nothing behind', async () => {
    // Its own process group, as a terminal gives it: Ctrl-C signals the whole group.
    // What `npm run demo` runs; npm itself dies of the SIGINT at once, so it would hide the exit code.
    demo = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--demo-env', envFile], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env },
    });
    let output = '';
    demo.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    demo.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | string>((resolve) =>
      demo!.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`demo not ready after 150 s:\n${output}`)),
        150_000,
      );
      const check = setInterval(() => {
        if (output.includes('Ctrl-C stops')) {
          clearInterval(check);
          clearTimeout(timer);
          resolve();
        }
      }, 200);
      void exited.then((code) =>
        reject(new Error(`demo exited (${code}) before it was ready:\n${output}`)),
      );
    });

    const url = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    const dir = /its files are in (\S+)\)/.exec(output)![1]!;
    const ids = Object.fromEntries(
      [...output.matchAll(/wp-admin\/(\w+) \(repo_id (\d+)\): pipeline (\d+)/g)].map((match) => [
        match[1],
        { repo_id: Number(match[2]), number: Number(match[3]) },
      ]),
    );
    expect(Object.keys(ids).sort()).toEqual(['backend', 'docs', 'website']);
    const lastGreen = Number(/failed after pipeline (\d+) passed/.exec(output)![1]);
    // What the demo prints to run without an AI client points at the built entry point,
    // and names the env file, not the token (the file is rewritten on every start).
    const bin = `${ROOT}bin/woodpecker-ci-mcp.js`;
    const serverCommand = `node '--env-file=${envFile}' ${bin}`;
    expect(output).toContain(`claude mcp add woodpecker-demo -- ${serverCommand}`);
    expect(output).toContain(`--tool-name get_pipeline_failure ${serverCommand}`);

    const pasted = (jsonAfter(output, 'Stdio: paste') as PastedConfig).mcpServers[
      'woodpecker-demo'
    ]!;
    expect(pasted).toEqual({ command: 'node', args: [`--env-file=${envFile}`, bin] });
    // VS Code gets the stdio form too, in its own shape (`servers`, with a `type`).
    const vscode = jsonAfter(output, 'VS Code, stdio: paste') as {
      servers: Record<string, unknown>;
    };
    expect(vscode.servers['woodpecker-demo']).toEqual({ type: 'stdio', ...pasted });
    const written = Object.fromEntries(
      readFileSync(envFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split('=', 2) as [string, string]),
    );
    expect(written.WOODPECKER_URL).toBe(url);
    // The admin token, for this user's eyes only.
    expect(statSync(envFile).mode & 0o077).toBe(0);
    const http = jsonAfter(output, 'HTTP: start') as {
      servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    expect(http.servers['woodpecker-demo']).toMatchObject({
      type: 'http',
      headers: { Authorization: `Bearer ${written.WOODPECKER_TOKEN}` },
    });

    const { client, close } = await startStdioServer({
      command: pasted.command,
      args: pasted.args,
      // As a client starts it: nothing of Woodpecker's in the environment.
      env: {},
      name: 'pasted-demo-config',
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    try {
      expect((await client.listTools()).tools).toHaveLength(CATALOGUE_SIZE);
      const green = await call('get_pipeline', {
        repo_id: ids.website!.repo_id,
        number: String(ids.website!.number),
      });
      expect(green.structuredContent, textOf(green)).toMatchObject({ status: 'success' });
      const failure = await call('get_pipeline_failure', ids.backend!);
      expect(textOf(failure)).toContain('ECONNREFUSED');
      // The headline: the last success before the failure, and the push that broke it.
      const sinceGreen = (failure.structuredContent as { since_green?: Record<string, unknown> })
        .since_green;
      expect(sinceGreen, textOf(failure)).toMatchObject({
        last_success: { number: lastGreen, status: 'success' },
        first_failure: { number: ids.backend!.number },
      });
      expect(JSON.stringify(sinceGreen)).toContain('Run the migrations against Postgres');
      expect(
        (
          await call('get_pipeline', {
            repo_id: ids.docs!.repo_id,
            number: String(ids.docs!.number),
          })
        ).structuredContent,
      ).toMatchObject({ status: 'blocked', event: 'pull_request' });
      expect(
        JSON.stringify(
          (await call('list_crons', { repo_id: ids.website!.repo_id })).structuredContent,
        ),
      ).toContain('"nightly"');
      expect(
        JSON.stringify(
          (await call('list_secrets', { scope: 'repository', repo_id: ids.website!.repo_id }))
            .structuredContent,
        ),
      ).toContain('"DEPLOY_TOKEN"');
    } finally {
      await close();
    }

    process.kill(-demo.pid!, 'SIGINT');
    // 130 is how a shell reports a program that stopped on Ctrl-C. The demo is the process
    // itself (no wrapper that could exit first): once it is gone, its cleanup is done.
    expect(await exited).toBe(130);
    expect(existsSync(dir)).toBe(false);
    await expect(fetch(`${url}/version`, { signal: AbortSignal.timeout(3_000) })).rejects.toThrow();
  }, 240_000);
});
