// The output step through a real MCP client against the real Woodpecker: pushed text is
// marked untrusted, one limit bounds the whole result (lists shortened by whole entries,
// objects refused, the text block always whole JSON), and a credential sent with the
// wrong shape never comes back.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { adminApi, createRepo, type TestRepo } from '../harness/fixtures.js';
import { textOf, withSession } from './mcpSession.js';

const revision = '2025-11-25';
const CANARY = 'canary-7c1e-do-not-echo';

/** What the server measured: the result's content and structuredContent as JSON bytes. */
const bytesOf = (result: CallToolResult) =>
  Buffer.byteLength(
    JSON.stringify({ content: result.content, structuredContent: result.structuredContent }),
    'utf8',
  );

describe('the output step against Woodpecker', () => {
  let repo: TestRepo;
  const numbers: number[] = [];

  beforeAll(async () => {
    repo = await createRepo();
    for (let i = 0; i < 3; i++) {
      const pipeline = await adminApi().post<{ number: number }>(
        `/api/repos/${repo.repoId}/pipelines`,
        { branch: 'main' },
      );
      numbers.push(pipeline.number);
    }
  });

  it('get_pipeline and list_pipelines come back marked untrusted (commit messages are pushed text)', async () => {
    await withSession({ revision }, async (session) => {
      const pipeline = await session.call('get_pipeline', {
        repo_id: repo.repoId,
        number: String(numbers[0]),
      });
      expect(pipeline.isError, textOf(pipeline)).toBeFalsy();
      expect(pipeline.structuredContent).toMatchObject({
        untrusted: true,
        source: 'woodpecker',
        number: numbers[0],
      });
      expect(JSON.parse(textOf(pipeline))).toEqual(pipeline.structuredContent);

      const list = await session.call('list_pipelines', { repo_id: repo.repoId });
      expect(list.structuredContent).toMatchObject({ untrusted: true, source: 'woodpecker' });
      expect((list.structuredContent as { items: unknown[] }).items).toHaveLength(3);
    });
  });

  // Woodpecker's whole objects (detail "full"): the views are too small to need the limit
  // at sizes this repository reaches; test/unit/output/view.test.ts shortens a view.
  it('a list over WOODPECKER_MCP_MAX_RESULT_BYTES loses whole entries from the end and says how to narrow', async () => {
    const full = await withSession({ revision }, (session) =>
      session.call('list_pipelines', { repo_id: repo.repoId, detail: 'full' }),
    );
    const fullItems = (full.structuredContent as { items: { number: number }[] }).items;
    const limit = Math.max(1024, Math.floor(bytesOf(full) * 0.7));
    expect(bytesOf(full)).toBeGreaterThan(limit);

    await withSession(
      { revision, env: { WOODPECKER_MCP_MAX_RESULT_BYTES: String(limit) } },
      async (session) => {
        const result = await session.call('list_pipelines', {
          repo_id: repo.repoId,
          detail: 'full',
        });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(bytesOf(result)).toBeLessThanOrEqual(limit);
        const data = result.structuredContent as {
          items: { number: number }[];
          shortened: { dropped: number; kept: number; note: string };
        };
        expect(data.items.length).toBeGreaterThan(0);
        expect(data.items.length).toBeLessThan(fullItems.length);
        expect(data.items.map((item) => item.number)).toEqual(
          fullItems.slice(0, data.items.length).map((item) => item.number),
        );
        expect(data.shortened).toMatchObject({
          dropped: fullItems.length - data.items.length,
          kept: data.items.length,
        });
        expect(data.shortened.note).toMatch(/per_page/);
        // The text block is whole JSON, equal to structuredContent.
        expect(JSON.parse(textOf(result))).toEqual(data);
      },
    );
  });

  it('an object over the limit is refused with an error naming the variable, not cut', async () => {
    const full = await withSession({ revision }, (session) =>
      session.call('get_pipeline', {
        repo_id: repo.repoId,
        number: String(numbers[0]),
        detail: 'full',
      }),
    );
    expect(bytesOf(full)).toBeGreaterThan(1024);
    await withSession(
      { revision, env: { WOODPECKER_MCP_MAX_RESULT_BYTES: '1024' } },
      async (session) => {
        const result = await session.call('get_pipeline', {
          repo_id: repo.repoId,
          number: String(numbers[0]),
          detail: 'full',
        });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(textOf(result)).toMatch(
          /get_pipeline: the answer is \d+ bytes, more than this server's limit of 1024 bytes \(WOODPECKER_MCP_MAX_RESULT_BYTES\)/,
        );
      },
    );
  });

  it('a secret value or registry password of the wrong shape appears nowhere in the result', async () => {
    await withSession({ revision }, async (session) => {
      const secret = await session.call('create_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name: 'canary_secret',
        value: { nested: CANARY },
        events: ['push'],
      });
      expect(secret.isError).toBe(true);
      expect(textOf(secret)).toMatch(/value must be a string \(got an object\)/);
      expect(JSON.stringify(secret)).not.toContain(CANARY);

      const registry = await session.call('create_registry', {
        scope: 'repository',
        repo_id: repo.repoId,
        address: 'registry.example.invalid',
        username: 'robot',
        password: [CANARY],
      });
      expect(registry.isError).toBe(true);
      expect(textOf(registry)).toMatch(/password must be a string \(got a list\)/);
      expect(JSON.stringify(registry)).not.toContain(CANARY);
    });
  });
});
