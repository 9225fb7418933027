// How arguments become requests, tested the way a careless caller or an attacker would:
// path values that URL parsing would rewrite, redirects, and ids too large for a JSON
// number. Every call goes through a recording proxy to the real Woodpecker, so the tests
// see exactly what reached it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import { describeFailure } from '../../runtime/call/toolErrors.js';
import {
  WoodpeckerClient,
  WoodpeckerHttpError,
} from '../../runtime/woodpecker/woodpeckerClient.js';
import type { TestRepo } from '../harness/fixtures.js';
import { adminApi, createRepo, harnessInfo } from '../harness/fixtures.js';
import { startFaultProxy, type FaultProxy } from './faultProxy.js';
import { openSession, textOf, type McpSession } from './mcpSession.js';

let repo: TestRepo;
let proxy: FaultProxy;
let session: McpSession;
const KEEP = 'KEEP_ME';

beforeAll(async () => {
  repo = await createRepo();
  await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
    name: KEEP,
    value: 'kept',
    events: ['push'],
  });
  proxy = await startFaultProxy(harnessInfo().url);
  session = await openSession({
    revision: '2026-07-28',
    woodpecker: { url: proxy.url, token: harnessInfo().adminToken },
  });
});
afterAll(async () => {
  await session?.close();
  await proxy?.close();
});

async function repositoryIsIntact(): Promise<void> {
  expect(await adminApi().get(`/api/repos/${repo.repoId}`)).toMatchObject({
    id: repo.repoId,
    active: true,
  });
  expect(await adminApi().get(`/api/repos/${repo.repoId}/secrets/${KEEP}`)).toMatchObject({
    name: KEEP,
  });
}

describe('path values', () => {
  it('delete_secret refuses "." and ".." before anything is sent or asked, naming the field', async () => {
    proxy.forwarded.length = 0;
    const dialogs = session.dialogs.length;
    for (const name of ['..', '.']) {
      const result = await session.call('delete_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name,
      });
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toContain(`name must not be "." or ".."`);
      expect(result.structuredContent).toBeUndefined();
    }
    expect(session.dialogs.length).toBe(dialogs);
    expect(proxy.forwarded).toEqual([]);
    await repositoryIsIntact();
  });

  it('delete_secret reads "/", "%2e%2e" and "?" as one encoded segment, reports the 404 and deletes nothing', async () => {
    const cases: [string, string][] = [
      ['a/b', 'a%2Fb'],
      ['%2e%2e', '%252e%252e'],
      ['a?b', 'a%3Fb'],
      ['../..', '..%2F..'],
    ];
    for (const [name, segment] of cases) {
      proxy.forwarded.length = 0;
      const result = await session.call('delete_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name,
      });
      expect(result.isError, `${name}: ${textOf(result)}`).toBe(true);
      expect(textOf(result)).toContain('HTTP 404');
      // The gate reads the secret first (its id binds the approval); that read carries the
      // name as one encoded segment, finds nothing, and so nothing is deleted or asked.
      expect(
        proxy.forwarded.filter((seen) => seen.method === 'GET' && seen.path.includes('/secrets/')),
      ).toEqual([{ method: 'GET', path: `/api/repos/${repo.repoId}/secrets/${segment}` }]);
      expect(proxy.forwarded.filter((seen) => seen.method === 'DELETE')).toEqual([]);
    }
    await repositoryIsIntact();
  });

  it('a redirect from Woodpecker is an error, never followed and never success', async () => {
    // Woodpecker answers a path with a trailing slash with 307 to the parent route; the
    // parent of /repos/{id}/ is the repository itself.
    const client = new WoodpeckerClient({
      baseUrl: proxy.url,
      insecureTls: false,
      timeoutMs: 10_000,
    });
    proxy.forwarded.length = 0;
    try {
      const failure = await client
        .send(
          { method: 'DELETE', path: `/api/repos/${repo.repoId}/` },
          { token: harnessInfo().adminToken },
        )
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(WoodpeckerHttpError);
      expect((failure as WoodpeckerHttpError).status).toBeGreaterThanOrEqual(300);
      expect((failure as WoodpeckerHttpError).status).toBeLessThan(400);
      const described = textOf(
        describeFailure(
          tools.find((tool) => tool.name === 'delete_repository')!,
          failure,
        ) as never,
      );
      expect(described).toMatch(/redirect.*not followed/);
    } finally {
      await client.close();
    }
    expect(proxy.forwarded).toEqual([{ method: 'DELETE', path: `/api/repos/${repo.repoId}/` }]);
    await repositoryIsIntact();
  });
});

describe('ids', () => {
  it('the tool list shows only real integer bounds: no minimum of 1 and nothing above 2^53 - 1 (both enforced on the call, below)', async () => {
    const listed = (await session.client.listTools()).tools;
    let integers = 0;
    for (const tool of listed) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {}) as [
        string,
        { type?: string; minimum?: number; maximum?: number },
      ][]) {
        if (schema.type !== 'integer') continue;
        integers += 1;
        // A listed bound is a real limit (per_page's 50, context's 0), never one no sensible call meets.
        if (schema.maximum !== undefined)
          expect(schema.maximum, `${tool.name}.${name}`).toBeLessThan(Number.MAX_SAFE_INTEGER);
        if (schema.minimum !== undefined)
          expect(schema.minimum, `${tool.name}.${name}`).not.toBe(1);
      }
    }
    expect(integers).toBeGreaterThan(100);
    const repoId = listed.find((tool) => tool.name === 'get_repository')!.inputSchema.properties!
      .repo_id as { minimum?: number; maximum?: number };
    expect(repoId.minimum).toBeUndefined();
    expect(repoId.maximum).toBeUndefined();
    const context = listed.find((tool) => tool.name === 'search_logs')!.inputSchema.properties!
      .context as { minimum?: number };
    expect(context.minimum).toBe(0);
  });

  it('refuses an id of 0 or below, naming the field; nothing is sent', async () => {
    proxy.forwarded.length = 0;
    for (const repoId of [0, -3]) {
      const result = await session.call('get_repository', { repo_id: repoId });
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toContain('repo_id must be at least 1');
    }
    expect(proxy.forwarded).toEqual([]);
  });

  it('refuses ids above 2^53 - 1 (which arrive rounded) and 2^64, naming the field; nothing is sent', async () => {
    proxy.forwarded.length = 0;
    // 9007199254740993 cannot be written as a JS number; the JSON the client sends says …992.
    for (const repoId of [Number.MAX_SAFE_INTEGER + 2, 2 ** 64]) {
      const result = await session.call('get_repository', { repo_id: repoId });
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toContain('repo_id must be at most 9007199254740991');
    }
    const steps = await session.call('get_step_logs', {
      repo_id: repo.repoId,
      number: '1',
      step_id: 2 ** 53 + 1,
    });
    expect(steps.isError).toBe(true);
    expect(textOf(steps)).toContain('step_id must be at most 9007199254740991');
    expect(proxy.forwarded).toEqual([]);

    // The largest exact id is accepted and reaches Woodpecker digit for digit.
    const largest = await session.call('get_repository', { repo_id: Number.MAX_SAFE_INTEGER });
    expect(textOf(largest)).toContain('HTTP 404');
    expect(proxy.forwarded).toContainEqual({ method: 'GET', path: '/api/repos/9007199254740991' });
  });
});
