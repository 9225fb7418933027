// The prompts' guidance as skills (io.modelcontextprotocol/skills): a client that declared
// the extension lists three, reads each and finds them verified against their entries; a
// client that did not lists none; and the tool list is the same either way.
import { describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION_ID, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { McpServer } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { createServerFactory } from '../../../runtime/mcp/server.js';

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
