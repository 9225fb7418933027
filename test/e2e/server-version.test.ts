// What the server does with the version Woodpecker reports, as a host starts it (stdio,
// the real main.ts), against a stand-in that answers /version with any string we like and
// records every other request. A parameter the release lacks must be refused before
// anything is sent; a release newer than every spec, and a development build, are served
// as the newest (the first with one line on stderr).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { knownWoodpeckerReleases } from '../../generated/woodpeckerReleases.js';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';
import { startStdioServer } from './stdioServer.js';

interface StandIn {
  readonly url: string;
  readonly sent: string[];
  close(): Promise<void>;
}

async function woodpeckerReporting(version: string): Promise<StandIn> {
  const sent: string[] = [];
  const server: Server = createServer((request, response) => {
    if (request.url === '/version') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ source: 'stand-in', version }));
      return;
    }
    // Who the token belongs to (the tool list leaves admin-only tools out for others): an
    // admin, and not one of the calls this test counts.
    if (request.url === '/api/user') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 1, login: 'stand-in', admin: true }));
      return;
    }
    sent.push(`${request.method} ${request.url}`);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: 7, name: 'nightly' }));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function serve(
  version: string,
): Promise<{ client: Client; standIn: StandIn; stderr: () => string }> {
  const standIn = await woodpeckerReporting(version);
  const { client, stderr, close } = await startStdioServer({
    env: { WOODPECKER_URL: standIn.url, WOODPECKER_TOKEN: 'stand-in-token' },
    name: 'server-version-test',
  });
  open.push(async () => {
    await close();
    await standIn.close();
  });
  return { client, standIn, stderr };
}

const textOf = (result: { content?: unknown }) => JSON.stringify(result.content ?? '');

describe('the Woodpecker version, read once at startup', () => {
  it('3.11.0: create_cron with enabled: false or a timezone is refused by name and nothing is sent; enabled: true goes through', async () => {
    const { client, standIn } = await serve('3.11.0');
    expect((await client.listTools()).tools).toHaveLength(CATALOGUE_SIZE);
    const refused = await client.callTool({
      name: 'create_cron',
      arguments: {
        repo_id: 1,
        name: 'nightly',
        schedule: '@daily',
        enabled: false,
        timezone: 'Europe/Berlin',
      },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      'create_cron: timezone needs Woodpecker ≥ 3.15; enabled needs Woodpecker ≥ 3.15; this server is 3.11.0',
    );
    expect(standIn.sent).toEqual([]);
    const sent = await client.callTool({
      name: 'create_cron',
      arguments: { repo_id: 1, name: 'nightly', schedule: '@daily', enabled: true },
    });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(standIn.sent).toEqual(['POST /api/repos/1/cron']);
  });

  it('a release newer than every spec is served as the newest, with one line on stderr', async () => {
    const { client, standIn, stderr } = await serve('9.1.0');
    expect((await client.listTools()).tools).toHaveLength(CATALOGUE_SIZE);
    const sent = await client.callTool({
      name: 'create_cron',
      arguments: {
        repo_id: 1,
        name: 'nightly',
        schedule: '@daily',
        enabled: false,
        timezone: 'UTC',
      },
    });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(standIn.sent).toEqual(['POST /api/repos/1/cron']);
    const newest = knownWoodpeckerReleases.at(-1);
    const line = `woodpecker-ci-mcp: Woodpecker 9.1.0 is newer than every release the tools were checked against (newest: ${newest}); serving it as ${newest}.`;
    expect(
      stderr()
        .split('\n')
        .filter((text) => text === line),
    ).toHaveLength(1);
  });

  it('a development build it cannot order is served as the newest, without a warning', async () => {
    const { client, standIn, stderr } = await serve('next-a4cb541');
    const sent = await client.callTool({
      name: 'create_cron',
      arguments: { repo_id: 1, name: 'nightly', schedule: '@daily', enabled: false },
    });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(standIn.sent).toEqual(['POST /api/repos/1/cron']);
    expect(stderr()).not.toContain('newer than every release');
  });
});
