// A host for MCP Apps views, as a chat client that renders them would be: the server runs
// over stdio with a client that declares the io.modelcontextprotocol/ui extension; the
// view's page runs in Debian's Chromium (playwright-core) inside a sandboxed iframe of a
// host page; ext-apps' AppBridge, in this process, speaks for the host. The host page only
// relays postMessage traffic between the frame and the bridge, so the frame talks to the
// real bridge, which talks to the real server.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, JSONRPCMessage, Tool, Transport } from '@modelcontextprotocol/client';
import { AppBridge, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { stdioTransport } from './stdioServer.js';

export const CHROMIUM = '/usr/bin/chromium';

/** The host page: a sandboxed frame (scripts only: no same-origin, no forms, no popups). */
const HOST_PAGE = `<!doctype html><html><body style="margin:0;background:#fff">
<iframe id="view" sandbox="allow-scripts" style="border:0;width:820px;height:900px"></iframe>
<script>
  (() => {
    const view = document.getElementById('view');
    window.addEventListener('message', (event) => {
      if (event.source === view.contentWindow) window.toHost(event.data);
    });
    window.toView = (message) => view.contentWindow.postMessage(message, '*');
    window.showView = (html) => { view.srcdoc = html; };
    window.sizeView = (height) => { view.style.height = Math.ceil(height) + 'px'; };
  })();
</script></body></html>`;

/** What the host page's script adds to its window. */
interface HostPage {
  toView(message: unknown): void;
  showView(html: string): void;
  sizeView(height: number): void;
}

/** The bridge's side of the frame: messages go in through the page, come out through toHost. */
class FrameTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(private readonly page: Page) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (globalThis as unknown as HostPage).toView(m), message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  receive(message: unknown): void {
    this.onmessage?.(message as JSONRPCMessage);
  }
}

export interface AppHost {
  readonly client: Client;
  /** Every dialog the client was asked to show (elicitation/create), in order. */
  readonly dialogs: string[];
  /** Every tool the view asked the host to call, in order. */
  readonly viewCalls: string[];
  /** Every link the view asked the host to open. */
  readonly openedLinks: string[];
  /** Calls `tool` as the model would, then shows its result in the tool's view. */
  show(
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ frame: Frame; result: CallToolResult }>;
  readonly page: Page;
  close(): Promise<void>;
}

export interface AppHostOptions {
  readonly env: Record<string, string>;
  /** How the person answers a dialog the server pushes; by default they decline. */
  readonly answer?: 'accept' | 'decline';
}

export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is not installed (apt-get install chromium); the view tests need a real browser`;
}

export async function startAppHost(options: AppHostOptions): Promise<AppHost> {
  const { transport } = stdioTransport({ env: options.env });
  const client = new Client(
    { name: 'apps-host-e2e', version: '1' },
    {
      capabilities: {
        elicitation: { form: {} },
        extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
      } as never,
    },
  );
  const dialogs: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    dialogs.push(String((request.params as { message?: unknown }).message ?? ''));
    return options.answer === 'accept'
      ? { action: 'accept', content: { approve: true } }
      : { action: 'decline' };
  });
  await client.connect(transport);
  const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  // Root runs Chromium only without its sandbox; the frame keeps the iframe sandbox.
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  const page = await browser.newPage({ viewport: { width: 820, height: 900 } });
  // What the view logs (a CSP refusal, a script error) shows in the test's output.
  page.on('console', (message) => process.stderr.write(`view console: ${message.text()}\n`));
  page.on('pageerror', (error) => process.stderr.write(`view error: ${error.message}\n`));
  const viewCalls: string[] = [];
  const openedLinks: string[] = [];
  let bridge: AppBridge | undefined;
  // Bound once per page: it hands each message to the bridge of the view shown now.
  let current: FrameTransport | undefined;
  await page.exposeFunction('toHost', (message: unknown) => current?.receive(message));

  return {
    client,
    dialogs,
    viewCalls,
    openedLinks,
    page,
    async show(name, args) {
      const tool = tools.get(name) as Tool | undefined;
      const uri = tool && getToolUiResourceUri(tool);
      if (!uri) throw new Error(`${name} declares no view in the tool list`);
      const read = await client.readResource({ uri });
      const html = (read.contents[0] as { text: string; mimeType: string }).text;
      await bridge?.close();
      const frameTransport = new FrameTransport(page);
      // No client for the bridge to forward through on its own: this host forwards the
      // view's tool calls itself, and records them.
      bridge = new AppBridge(
        null,
        { name: 'apps-host-e2e', version: '1' },
        { serverTools: {}, openLinks: {} },
        { hostContext: { theme: 'light', displayMode: 'inline' } },
      );
      bridge.oncalltool = async (params) => {
        viewCalls.push(params.name);
        return (await client.callTool(params)) as CallToolResult;
      };
      // As a chat client does: the frame is as tall as the view says it is.
      bridge.onsizechange = ({ height }) => {
        if (height)
          void page
            .evaluate((h) => (globalThis as unknown as HostPage).sizeView(h), height)
            .catch(() => undefined);
      };
      bridge.onopenlink = async ({ url }) => {
        openedLinks.push(url);
        return {};
      };
      const initialized = new Promise<void>((done) =>
        bridge!.addEventListener('initialized', () => done()),
      );
      current = frameTransport;
      await bridge.connect(frameTransport);
      await page.setContent(HOST_PAGE);
      await page.evaluate((srcdoc) => (globalThis as unknown as HostPage).showView(srcdoc), html);
      await initialized;
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(result);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      if (!frame) throw new Error('the view frame did not load');
      return { frame, result };
    },
    async close() {
      await bridge?.close().catch(() => undefined);
      await browser.close();
      await client.close();
    },
  };
}
