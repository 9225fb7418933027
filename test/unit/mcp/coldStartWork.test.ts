// What building a server costs before its first tools/list: no schema may be compiled
// then. Every schema registered goes through the one lazy validator; a schema wrapped
// without one falls back to the SDK's own Ajv, which compiles at registration (a
// prompt's schema did so once, and the cold start grew by a third of a bare server's).
import { describe, expect, it, vi } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/server';

const wrapped = vi.hoisted(() => [] as unknown[]);
vi.mock('@modelcontextprotocol/server', async (original) => {
  const sdk = await original<typeof import('@modelcontextprotocol/server')>();
  return {
    ...sdk,
    fromJsonSchema: (schema: never, validator?: never) => {
      wrapped.push(validator);
      return sdk.fromJsonSchema(schema, validator);
    },
  };
});

const { tools } = await import('../../../generated/index.js');
const { createServerFactory } = await import('../../../runtime/mcp/server.js');
const { argumentValidator } = await import('../../../runtime/mcp/lazyValidator.js');

describe('building a server for tools/list', () => {
  it.each([false, true])(
    'wraps every schema (tools, prompts, discovery) with the lazy validator (dynamic: %s)',
    async (dynamicTools) => {
      wrapped.length = 0;
      const factory = createServerFactory({
        version: '0.0.0',
        tools,
        executor: { run: async () => ({ content: [] }) },
        defaultToken: undefined,
        dynamicTools,
      });
      (await factory(undefined as never)) as McpServer;
      expect(wrapped.length).toBeGreaterThan(0);
      expect(wrapped.filter((validator) => validator !== argumentValidator)).toEqual([]);
    },
  );
});
