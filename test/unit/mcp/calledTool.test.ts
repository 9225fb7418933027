// A 2026-07-28 request gets a server of its own: for tools/call it registers only the tool
// called (no resources or prompts), which keeps a call from paying for registering them all.
import { describe, expect, it } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { noteCalledTool } from '../../../runtime/mcp/calledTool.js';
import { createServerFactory } from '../../../runtime/mcp/server.js';

const factory = createServerFactory({
  version: '0.0.0',
  tools,
  executor: { run: async () => ({ content: [] }) },
  defaultToken: undefined,
});
const registered = (server: McpServer) =>
  tools.map((tool) => tool.name).filter((name) => server.toolInputSchemaJson(name) !== undefined);
const request = (body: unknown) => {
  const made = new Request('http://127.0.0.1/mcp', { method: 'POST' });
  noteCalledTool(made, body);
  return made;
};

/** The per-request server for a 2026-07-28 tools/call naming `name`. */
const serverForCall = async (name: string) =>
  (await factory({
    era: 'modern',
    requestInfo: request({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: {} },
    }),
  })) as McpServer;

describe('the per-request server on 2026-07-28', () => {
  it('registers only the tool a tools/call names', async () => {
    const server = await serverForCall('get_repository');
    expect(registered(server)).toEqual(['get_repository']);
  });

  it('registers no resources or prompts for a tools/call, and both for anything else', async () => {
    const call = await serverForCall('get_repository');
    expect(call.server.getCapabilities()).not.toHaveProperty('resources');
    expect(call.server.getCapabilities()).not.toHaveProperty('prompts');
    const list = (await factory({
      era: 'modern',
      requestInfo: request({ jsonrpc: '2.0', id: 1, method: 'resources/templates/list' }),
    })) as McpServer;
    expect(list.server.getCapabilities()).toHaveProperty('resources');
    expect(list.server.getCapabilities()).toHaveProperty('prompts');
  });

  it('registers every tool for tools/list, for other requests, and without a request', async () => {
    for (const context of [
      {
        era: 'modern' as const,
        requestInfo: request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      },
      {
        era: 'modern' as const,
        requestInfo: request([
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_repository' } },
        ]),
      },
      { era: 'legacy' as const },
    ]) {
      expect(registered((await factory(context)) as McpServer)).toHaveLength(tools.length);
    }
  });

  it('registers nothing for a name that is no tool, so the call is refused as unknown', async () => {
    const server = await serverForCall('no_such_tool');
    expect(registered(server)).toEqual([]);
  });

  it('still registers a called tool this Woodpecker does not offer, so it answers with its reason', async () => {
    // The executor answers it with the release it needs (ServerVersion); the list leaves it out.
    const narrow = createServerFactory({
      version: '0.0.0',
      tools,
      executor: { run: async () => ({ content: [] }) },
      defaultToken: undefined,
      offers: () => false,
    });
    const server = (await narrow({
      era: 'modern',
      requestInfo: request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_repository' },
      }),
    })) as McpServer;
    expect(registered(server)).toEqual(['get_repository']);
  });
});
