// A client nobody here wrote: the official MCP Go SDK (test/goclient, built with the
// machine's Go) against the server over stdio and Streamable HTTP on both revisions the
// SDK speaks, and the real Woodpecker behind it. Each leg connects, lists the tools,
// resolves every input schema and checks a Go caller's arguments with the SDK's own JSON
// Schema package, calls a read tool, answers a dialog (decline, then accept); on 2025
// HTTP it drops the listening stream and the session must go on. One failed check names
// itself in the failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';
import { adminApi, createRepo, uniqueName } from '../harness/fixtures.js';
import { buildGoClient, runGoClient, type GoCheck } from '../goclient/goClient.js';
import { startHttpServerProcess, type HttpServerProcess } from './httpServerProcess.js';
import { harnessWoodpecker, SOURCE_SERVER } from './stdioServer.js';

const LEGS = ['stdio', 'http-2025-11-25', 'http-2026-07-28'] as const;
const CHECKS = [
  'connect',
  'list tools',
  'resolve input schemas',
  'validate arguments',
  'call a read tool',
  'dialog: decline',
  'dialog: accept',
];

let server: HttpServerProcess;
let repoId: number;
const secrets = new Map<string, string>();
let checks: GoCheck[] = [];

beforeAll(async () => {
  const binary = await buildGoClient();
  server = await startHttpServerProcess(harnessWoodpecker());
  const repo = await createRepo();
  repoId = repo.repoId;
  for (const leg of LEGS) {
    const name = uniqueName('GO').toUpperCase().replace(/-/g, '_');
    await adminApi().post(`/api/repos/${repoId}/secrets`, { name, value: 'v', events: ['push'] });
    secrets.set(leg, name);
  }
  checks = await runGoClient(binary, {
    env: harnessWoodpecker(),
    args: [
      '-stdio',
      [SOURCE_SERVER.command, ...SOURCE_SERVER.args].join(' '),
      '-dir',
      SOURCE_SERVER.cwd,
      '-http',
      server.url,
      '-repo',
      String(repoId),
      '-tools',
      String(CATALOGUE_SIZE),
      '-secrets',
      [...secrets].map(([leg, name]) => `${leg}=${name}`).join(','),
    ],
  });
}, 240_000);
afterAll(() => server?.stop());

describe('the official MCP Go SDK', () => {
  it.each(LEGS.map((leg) => [leg]))('%s: every check passes', (leg) => {
    const mine = checks.filter((check) => check.leg === leg);
    const expected =
      leg === 'http-2025-11-25' ? [...CHECKS, 'reopen the listening stream'] : CHECKS;
    expect(mine.map((check) => check.check)).toEqual(expected);
    expect(mine.filter((check) => !check.ok)).toEqual([]);
  });

  it('negotiates the revision each leg asked for (stdio: the newest)', () => {
    const negotiated = (leg: string) =>
      checks.find((check) => check.leg === leg && check.check === 'connect')?.detail;
    expect(negotiated('stdio')).toBe('negotiated 2026-07-28');
    expect(negotiated('http-2025-11-25')).toBe('negotiated 2025-11-25');
    expect(negotiated('http-2026-07-28')).toBe('negotiated 2026-07-28');
  });

  it('each accepted dialog deleted its secret', async () => {
    for (const name of secrets.values()) {
      const left = await adminApi().request('GET', `/api/repos/${repoId}/secrets/${name}`);
      expect(left.status, name).toBe(404);
    }
  });
});
