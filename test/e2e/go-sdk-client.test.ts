// A client nobody here wrote: the official MCP Go SDK (test/goclient, built with the
// machine's Go) against the server over stdio and Streamable HTTP on both revisions the
// SDK speaks, and the real Woodpecker behind it. Each leg connects, lists the tools,
// resolves every input schema and checks a Go caller's arguments with the SDK's own JSON
// Schema package, calls a read tool, answers a dialog (decline, then accept); on 2025
// HTTP it drops the listening stream and the session must go on. One failed check names
// itself in the failure.
//
// The server runs with a one-minute keep-alive (MCP_TEST_SSE_KEEPALIVE_MS): a listening
// stream whose head waits for its first event, or an old stream that blocks its
// replacement until a write to it fails, then holds the client for a minute, and the Go
// client gives up after 45 s. A connect or a reopen takes well under a second when
// nothing waits; the bound below, 20 s, is only there to tell "waited" from "did not".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SIZE } from '../harness/catalogue.js';
import { adminApi, createRepo, uniqueName } from '../harness/fixtures.js';
import { buildGoClient, runGoClient, type GoCheck } from '../goclient/goClient.js';
import { startHttpServerProcess, type HttpServerProcess } from './httpServerProcess.js';
import { harnessWoodpecker, SOURCE_SERVER } from './stdioServer.js';

const LEGS = ['stdio', 'http-2025-11-25', 'http-2026-07-28'] as const;
/** A minute: longer than the Go client waits for a connect or a reopen (45 s). */
const KEEP_ALIVE_MS = 60_000;
/** Far above a connect or reopen that waits for nothing, far below the keep-alive. */
const WAITED_FOR_NOTHING_MS = 20_000;
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
  server = await startHttpServerProcess({
    ...harnessWoodpecker(),
    MCP_TEST_SSE_KEEPALIVE_MS: String(KEEP_ALIVE_MS),
  });
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

  it.each(LEGS.map((leg) => [leg]))(
    '%s: connects without waiting for a keep-alive, and reopens a dropped stream so',
    (leg) => {
      const timed = (name: string) => {
        const check = checks.find((one) => one.leg === leg && one.check === name);
        return [
          check?.ms ?? Infinity,
          `${name}: ${check?.detail ?? 'never got that far'}`,
        ] as const;
      };
      const [connectMs, connect] = timed('connect');
      expect(connectMs, connect).toBeLessThan(WAITED_FOR_NOTHING_MS);
      if (leg !== 'http-2025-11-25') return;
      const [reopenMs, reopen] = timed('reopen the listening stream');
      expect(reopenMs, reopen).toBeLessThan(WAITED_FOR_NOTHING_MS);
    },
  );

  it("validates a sample of every tool's arguments against its input schema", () => {
    for (const leg of LEGS) {
      const detail =
        checks.find((check) => check.leg === leg && check.check === 'validate arguments')?.detail ??
        '';
      expect(detail, leg).toMatch(
        new RegExp(`^sampled ${CATALOGUE_SIZE} of ${CATALOGUE_SIZE} tools`),
      );
    }
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
