// MCP Apps views: the page's CSP admits exactly its own script and style, the pointer in
// the tool list reaches only clients that declared the extension, and the resource is
// served with the extension's MIME type.
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { PULL_REQUEST_EVENTS } from '../../../runtime/core/woodpeckerEvents.js';
import { secretReaches } from '../../../runtime/mcp/prompts.js';
import {
  APP_MIME_TYPE,
  UI_EXTENSION,
  appHtml,
  appUri,
  rendersApps,
} from '../../../runtime/mcp/apps.js';
import { PIPELINE_SCRIPT, PIPELINE_STYLE } from '../../../runtime/apps/pipelinePage.js';
import { createServerFactory } from '../../../runtime/mcp/server.js';

const page = {
  title: 'Pipeline view',
  description: '',
  style: PIPELINE_STYLE,
  script: PIPELINE_SCRIPT,
};
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const between = (html: string, open: string, close: string) =>
  html.slice(html.indexOf(open) + open.length, html.indexOf(close));

describe('the pipeline page', () => {
  const html = appHtml(page, 'https://ci.example.com/');
  const csp = between(html, 'Content-Security-Policy" content="', '">\n<title>');

  it('admits by hash exactly the script and style it carries, and no network', () => {
    expect(csp).toContain(`script-src ${hash(between(html, '<script>', '</script>'))}`);
    expect(csp).toContain(`style-src ${hash(between(html, '<style>', '</style>'))}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe|connect-src|https?:/);
  });

  it('carries a script that parses, and puts pushed text through textContent only', () => {
    expect(() => new Script(PIPELINE_SCRIPT)).not.toThrow();
    expect(PIPELINE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(PIPELINE_SCRIPT).not.toMatch(/\bfetch\(|XMLHttpRequest|WebSocket|EventSource/);
  });

  it('names the Woodpecker address without a trailing slash, escaped as an attribute', () => {
    expect(html).toContain('data-woodpecker="https://ci.example.com"');
    expect(appHtml(page, 'https://ci.example.com/"><b>x')).toContain(
      'data-woodpecker="https://ci.example.com/&#34;&#62;&#60;b&#62;x"',
    );
  });
});

describe('who learns about the views', () => {
  it('uses the extension id and MIME type of @modelcontextprotocol/ext-apps', () => {
    expect(UI_EXTENSION).toBe(EXTENSION_ID);
    expect(APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
  });

  it('counts only a client that declared the extension with the page type', () => {
    expect(rendersApps(undefined)).toBe(false);
    expect(rendersApps({})).toBe(false);
    expect(rendersApps({ extensions: { [UI_EXTENSION]: {} } } as never)).toBe(false);
    expect(
      rendersApps({ extensions: { [UI_EXTENSION]: { mimeTypes: ['text/html'] } } } as never),
    ).toBe(false);
    expect(
      rendersApps({ extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } } as never),
    ).toBe(true);
  });

  const factory = createServerFactory({
    version: '0.0.0',
    tools,
    executor: { run: async () => ({ content: [] }) },
    defaultToken: undefined,
    woodpeckerUrl: 'https://ci.example.com',
  });

  async function connect(extensions: Record<string, unknown> | undefined): Promise<Client> {
    const server = (await factory({ era: 'legacy' })) as McpServer;
    const client = new Client(
      { name: 'test', version: '0' },
      { capabilities: extensions ? ({ extensions } as never) : {} },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    return client;
  }

  it('leaves the tool list of a client without the extension as it was', async () => {
    const client = await connect(undefined);
    const listed = (await client.listTools()).tools;
    expect(listed.filter((tool) => tool._meta !== undefined)).toEqual([]);
    await client.close();
  });

  it('points get_pipeline and get_pipeline_failure at the page for a client with it', async () => {
    const client = await connect({ [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } });
    const listed = (await client.listTools()).tools;
    const withView = listed.filter((tool) => tool._meta !== undefined);
    expect(withView.map((tool) => tool.name).sort()).toEqual([
      'get_pipeline',
      'get_pipeline_failure',
    ]);
    for (const tool of withView) {
      expect(tool._meta).toEqual({
        ui: { resourceUri: appUri('pipeline') },
        [RESOURCE_URI_META_KEY]: appUri('pipeline'),
      });
    }
    const read = await client.readResource({ uri: appUri('pipeline') });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(content.text).toContain('data-woodpecker="https://ci.example.com"');
    await client.close();
  });
});

describe('which secrets a blocked pipeline could reach (approval review)', () => {
  it('the page counts the same pull-request family as the guard', () => {
    const listed = /var PULL = (\[[^\]]*\]);/.exec(PIPELINE_SCRIPT)?.[1];
    expect(listed, 'the page declares its PULL list').toBeDefined();
    expect(JSON.parse(listed!.replace(/'/g, '"'))).toEqual([...PULL_REQUEST_EVENTS]);
  });

  it.each([
    [[], 'push', true],
    [[], 'pull_request', true],
    [['push'], 'pull_request', false],
    [['pull_request'], 'pull_request_closed', true],
    [['pull_request_metadata'], 'pull_request', true],
    [['push', 'tag'], 'tag', true],
    [['pull_request'], 'push', false],
  ])('events %j reach a %s pipeline: %s', (events, event, expected) => {
    expect(secretReaches(events, event)).toBe(expected);
  });
});
