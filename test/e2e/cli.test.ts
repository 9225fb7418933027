// The command line as a newcomer meets it, run as real processes: --version, --help,
// refusals that used to be silent, the missing-token warning, and doctor against the
// harness Woodpecker, a wrong URL and a bad token.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { harnessInfo } from '../harness/fixtures.js';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';
import { runSourceServer, stdioTransport } from './stdioServer.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE_VERSION = (
  JSON.parse(spawnSync('cat', [`${ROOT}package.json`], { encoding: 'utf8' }).stdout) as {
    version: string;
  }
).version;

/** Answers every path with a small HTML page, as a web server that is not Woodpecker would; prints its URL. */
const NOT_WOODPECKER_SERVER = `const s = require('node:http').createServer((q, r) => r.end('<html>hello</html>')); s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));`;

const run = (args: string[], env: Record<string, string> = {}) => runSourceServer(args, env);

describe('command line', () => {
  it('--version prints the package version', () => {
    expect(run(['--version'])).toMatchObject({ status: 0, stdout: `${PACKAGE_VERSION}\n` });
  });

  it('--help lists the commands and the variables', () => {
    const { status, stdout } = run(['--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('woodpecker-ci-mcp doctor');
    expect(stdout).toContain('WOODPECKER_MCP_AUDIT_LOG');
  });

  it('--port without --http stops instead of being ignored', () => {
    const { status, stderr } = run(['--port', '3999'], {
      WOODPECKER_URL: 'http://127.0.0.1:9',
      WOODPECKER_TOKEN: 'x',
    });
    expect(status).toBe(1);
    expect(stderr).toContain('--port applies only to the HTTP transport; add --http');
  });

  it('a selection that leaves no tools stops the server with a message', () => {
    const { status, stderr } = run([], {
      WOODPECKER_URL: 'http://127.0.0.1:9',
      WOODPECKER_READ_ONLY: 'true',
      WOODPECKER_ALLOW_TOOLS: 'delete_secret',
    });
    expect(status).toBe(1);
    expect(stderr).toContain(
      'WOODPECKER_ALLOW_TOOLS names delete_secret, which can change things, and WOODPECKER_READ_ONLY=true removes every such tool',
    );
  });

  it('a missing token is warned about, as a missing URL is', () => {
    const { stderr } = run([], { WOODPECKER_URL: 'http://127.0.0.1:9' });
    expect(stderr).toContain(
      'warning: WOODPECKER_TOKEN is not set; every call that needs an account will fail',
    );
  });
});

describe('a configuration error seen from an MCP client', () => {
  const badConfig = { WOODPECKER_URL: 'http://127.0.0.1:9', ELICITATION: 'yes' };

  it('arrives as the error of initialize, not as "Connection closed"', async () => {
    const client = new Client({ name: 'misconfigured', version: '1' });
    const { transport } = stdioTransport({ env: badConfig });
    await expect(client.connect(transport)).rejects.toThrow(
      /woodpecker-ci-mcp cannot start: ELICITATION must be exactly true or false/,
    );
    await client.close().catch(() => undefined);
  });

  it('answers a 2026 first request (server/discover) with the same message', () => {
    const discover = {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    };
    const result = runSourceServer([], badConfig, `${JSON.stringify(discover)}\n`);
    expect(result.status).toBe(1);
    const answer = JSON.parse(result.stdout.trim().split('\n')[0]!) as {
      id: number;
      error: { message: string };
    };
    expect(answer.id).toBe(1);
    expect(answer.error.message).toMatch(
      /^woodpecker-ci-mcp cannot start: ELICITATION must be exactly true or false/,
    );
  });
});

describe('doctor', () => {
  it('passes against the harness Woodpecker with an admin token, naming the account and the release', () => {
    const info = harnessInfo();
    const { status, stdout } = run(['doctor'], {
      WOODPECKER_URL: info.url,
      WOODPECKER_TOKEN: info.adminToken,
    });
    expect(status, stdout).toBe(0);
    // A release is "ok"; a development build (the next release's) is a note naming it.
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(stdout).toMatch(
      new RegExp(`(ok +${escape(info.url)} is|note +) Woodpecker ${escape(info.version)}`),
    );
    expect(stdout).toContain(`the server acts as ${info.adminLogin}, an instance admin`);
    expect(stdout).toMatch(
      new RegExp(`tool selection: ${CATALOGUE_SIZE} of ${CATALOGUE_SIZE} tools`),
    );
    expect(stdout).toMatch(
      new RegExp(`the client's tool list: ${CATALOGUE_SIZE} tools, [\\d,]+ tokens`),
    );
    expect(stdout).not.toContain(info.adminToken);
  });

  it('counts for an ordinary user the tools the client is listed', async () => {
    const info = harnessInfo();
    const env = { WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.userToken };
    const { status, stdout } = run(['doctor'], env);
    expect(status, stdout).toBe(0);
    expect(stdout).toContain(`the server acts as ${info.userLogin}, who is not an instance admin`);
    const client = new Client({ name: 'doctor-count', version: '1' });
    await client.connect(stdioTransport({ env }).transport);
    const tools = (await client.listTools()).tools;
    await client.close();
    const listed = tools.length;
    expect(listed).toBeLessThan(CATALOGUE_SIZE);
    // The figure is what the client's list measures (o200k), not an estimate (issue 35:
    // doctor said "about 9600" where the list was 9,427).
    const measured = encode(JSON.stringify(tools)).length.toLocaleString('en-US');
    expect(stdout).toContain(
      `the client's tool list: ${listed} tools, ${measured} tokens of context`,
    );
    expect(stdout).not.toContain('WOODPECKER_DENY_TOOLS');
  });

  it('fails on a URL nothing answers at, saying what to check', () => {
    const { status, stdout } = run(['doctor'], {
      WOODPECKER_URL: 'http://127.0.0.1:9',
      WOODPECKER_TOKEN: 'x',
    });
    expect(status).toBe(1);
    expect(stdout).toMatch(/BLOCKING http:\/\/127\.0\.0\.1:9 cannot be reached/);
    expect(stdout).toContain('fix: Check the address');
  });

  it('fails on an address that answers but is not Woodpecker', async () => {
    // A web server of another kind, in its own process (doctor runs synchronously here), so
    // the forge stand-in's record of calls nobody answered stays Woodpecker's alone.
    const page = spawn(process.execPath, ['-e', NOT_WOODPECKER_SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        page.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8').trim()));
        page.once('exit', (code) =>
          reject(new Error(`the stand-in web server exited with ${String(code)}`)),
        );
      });
      const { status, stdout } = run(['doctor'], {
        WOODPECKER_URL: url,
        WOODPECKER_TOKEN: harnessInfo().adminToken,
      });
      expect(status).toBe(1);
      expect(stdout).toContain('answers, but not as Woodpecker does');
    } finally {
      page.kill();
    }
  });

  it('fails on a bad token without printing it', () => {
    const info = harnessInfo();
    const bad = 'not-a-valid-token-0123456789';
    const { status, stdout } = run(['doctor'], { WOODPECKER_URL: info.url, WOODPECKER_TOKEN: bad });
    expect(status).toBe(1);
    expect(stdout).toMatch(
      /BLOCKING Woodpecker refuses WOODPECKER_TOKEN \(HTTP 401 to GET \/api\/user\)/,
    );
    expect(stdout).not.toContain(bad);
  });

  it('fails on an audit log it cannot write and a configuration error, each with its own finding', () => {
    const info = harnessInfo();
    const audit = run(['doctor'], {
      WOODPECKER_URL: info.url,
      WOODPECKER_TOKEN: info.adminToken,
      WOODPECKER_MCP_AUDIT_LOG: '/nonexistent/dir/a.jsonl',
    });
    expect(audit.status).toBe(1);
    expect(audit.stdout).toContain(
      'BLOCKING WOODPECKER_MCP_AUDIT_LOG names a file that cannot be opened',
    );
    const config = run(['doctor'], { WOODPECKER_URL: info.url, ELICITATION: 'yes' });
    expect(config.status).toBe(1);
    expect(config.stdout).toContain(
      'BLOCKING configuration: ELICITATION must be exactly true or false',
    );
  });
});
