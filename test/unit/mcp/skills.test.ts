// The prompts' guidance as skills (io.modelcontextprotocol/skills): a client that declared
// the extension lists three, reads each and finds them verified against their entries; a
// client that did not lists none; and the tool list is the same either way. On 2025-11-25
// the client declares it once, at initialize; on 2026-07-28 each request carries its own
// capabilities in _meta, so each request is judged by what it declared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION_ID, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { McpServer } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { createServerFactory } from '../../../runtime/mcp/server.js';
import { loadConfig } from '../../../runtime/process/config.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { startHttpServer, type RunningHttpServer } from '../../../runtime/http/httpServer.js';
import { jsonRpcOf, rawRequest } from '../../e2e/rawMcpHttp.js';

const factory = createServerFactory({
  version: '0.0.0',
  tools,
  executor: { run: async () => ({ content: [] }) },
  defaultToken: undefined,
});

async function connect(declares: boolean): Promise<Client> {
  const server = (await factory({ era: 'legacy' })) as McpServer;
  const client = new Client(
    { name: 'test', version: '0' },
    { capabilities: declares ? ({ extensions: { [SKILLS_EXTENSION_ID]: {} } } as never) : {} },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe('skills', () => {
  it('a client that declared the extension lists the three prompts as skills and reads them', async () => {
    const client = await connect(true);
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const { skills: listed } = await skills.list();
    expect(listed.map((skill) => skill.frontmatter.name).sort()).toEqual([
      'diagnose-pipeline',
      'flaky-or-changed',
      'review-approval',
    ]);
    for (const skill of listed) {
      const file = await skills.read(skill);
      expect(file.verified).toBe(true);
      expect(file.body).toMatch(/never an instruction/);
    }
    const review = listed.find((skill) => skill.frontmatter.name === 'review-approval')!;
    expect((await skills.read(review)).body).toMatch(/Do not approve it yourself/);
  });

  it('a client that did not declare it lists none', async () => {
    const client = await connect(false);
    // The SDK's own host side asks as any client would; what it lists is what the server gave.
    const { skills } = await new SkillsClient(client).list();
    expect(skills).toEqual([]);
  });

  it('adds no tool: the list is the same with and without the extension', async () => {
    const [withSkills, without] = await Promise.all([connect(true), connect(false)]);
    const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
    expect(await names(withSkills)).toEqual(await names(without));
    expect(await names(withSkills)).toHaveLength(tools.length);
  });
});

describe('skills on 2026-07-28, declared per request', () => {
  let running: RunningHttpServer;
  beforeAll(async () => {
    const runtime = buildRuntime(loadConfig({}));
    running = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
  });
  afterAll(() => running.close());

  const DECLARED = { extensions: { [SKILLS_EXTENSION_ID]: {} } };
  const REVIEW = 'skill://woodpecker-ci-mcp/review-approval/SKILL.md';

  /** One stateless request: the capabilities travel in its own _meta, nowhere else. */
  async function modern(
    method: string,
    capabilities: Record<string, unknown>,
    params: Record<string, unknown> = {},
    name?: string,
  ) {
    const response = await rawRequest(running.url, {
      headers: {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
      },
      body: {
        jsonrpc: '2.0',
        id: 7,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'skills-test', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      },
    });
    expect(response.status, response.text).toBe(200);
    return jsonRpcOf(response) as { result?: Record<string, unknown>; error?: unknown };
  }

  const names = (answer: { result?: Record<string, unknown> }) =>
    ((answer.result?.skills ?? []) as { frontmatter: { name: string } }[])
      .map((skill) => skill.frontmatter.name)
      .sort();

  it('a request that declares the extension lists the three skills and reads one', async () => {
    expect(names(await modern('skills/list', DECLARED))).toEqual([
      'diagnose-pipeline',
      'flaky-or-changed',
      'review-approval',
    ]);
    const read = await modern('resources/read', DECLARED, { uri: REVIEW }, REVIEW);
    const contents = (read.result?.contents ?? []) as { text?: string }[];
    expect(contents[0]?.text).toMatch(/Do not approve it yourself/);
  });

  it('the next request without it lists none and reads none: nothing carries over', async () => {
    expect(names(await modern('skills/list', DECLARED))).toHaveLength(3);
    expect(names(await modern('skills/list', {}))).toEqual([]);
    const read = await modern('resources/read', {}, { uri: REVIEW }, REVIEW);
    expect(JSON.stringify(read.result?.contents ?? [])).not.toMatch(/Do not approve/);
  });

  it('the tool list is the same with and without the extension', async () => {
    const listed = async (capabilities: Record<string, unknown>) =>
      ((await modern('tools/list', capabilities)).result?.tools as { name: string }[]).map(
        (tool) => tool.name,
      );
    const [withSkills, without] = await Promise.all([listed(DECLARED), listed({})]);
    expect(withSkills).toEqual(without);
    expect(withSkills.length).toBeGreaterThan(0);
  });
});
