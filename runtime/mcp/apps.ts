// MCP Apps (the io.modelcontextprotocol/ui extension): a read declared with `app` in
// tools.yaml points, in the tool list, at a `ui://` page the host renders in a sandboxed
// frame with the tool's result. Only a client that says it renders such pages sees the
// pointer; for every other client the list and every result stay exactly as they were.
import { createHash } from 'node:crypto';
import type {
  ClientCapabilities,
  McpServer,
  ReadResourceResult,
} from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../core/tool.js';
import { PIPELINE_SCRIPT, PIPELINE_STYLE } from '../apps/pipelinePage.js';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type the extension gives its pages. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

interface AppPage {
  readonly title: string;
  readonly description: string;
  readonly style: string;
  readonly script: string;
}

/** Every view tools.yaml may name (the generator's schema lists the same names). */
const PAGES: Readonly<Record<string, AppPage>> = {
  pipeline: {
    title: 'Pipeline view',
    description:
      'Workflows and steps with state, exit code and duration; the failing step opened with its log tail and a search through search_logs.',
    style: PIPELINE_STYLE,
    script: PIPELINE_SCRIPT,
  },
};

export const appUri = (app: string): string => `ui://woodpecker-ci-mcp/${app}.html`;

/** True when the client declared the extension with the page type this server serves. */
export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  const ui = extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}

/** The `_meta` a listed tool carries for such a client; undefined for a tool without a view. */
export function appMetaOf(tool: ToolDefinition): Record<string, unknown> | undefined {
  if (tool.app === undefined || !(tool.app in PAGES)) return undefined;
  const uri = appUri(tool.app);
  // The nested key is the extension's; the flat one is what hosts of its first release read.
  return { ui: { resourceUri: uri }, 'ui/resourceUri': uri };
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page as served. Its own CSP admits this style and this script by hash and nothing
 * else: no network (connect-src falls back to 'none'), no other script, no inline event
 * handler, no image but data: ones. A host adds its own sandbox and CSP around it.
 */
export function appHtml(page: AppPage, woodpeckerUrl: string | undefined): string {
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(page.script)}`,
    `style-src ${sha256(page.style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const base = woodpeckerUrl ? escapeAttribute(woodpeckerUrl.replace(/\/+$/, '')) : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    `<title>${page.title}</title>`,
    `<style>${page.style}</style>`,
    `</head><body data-woodpecker="${base}"><main id="view" aria-live="polite"></main>`,
    `<script>${page.script}</script>`,
    '</body></html>',
  ].join('\n');
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Registers one `ui://` resource per view the selected tools name. */
export function registerApps(
  server: McpServer,
  tools: readonly ToolDefinition[],
  woodpeckerUrl: string | undefined,
): void {
  const used = new Set(tools.map((tool) => tool.app).filter((app) => app !== undefined));
  for (const app of used) {
    const page = PAGES[app];
    if (!page) continue;
    const uri = appUri(app);
    // No csp domains: the host's default for a page that declares none is no network.
    const ui = { csp: {}, prefersBorder: true };
    let html: string | undefined;
    server.registerResource(
      `${app}-view`,
      uri,
      { title: page.title, description: page.description, mimeType: APP_MIME_TYPE, _meta: { ui } },
      async (): Promise<ReadResourceResult> => {
        html ??= appHtml(page, woodpeckerUrl);
        return { contents: [{ uri, mimeType: APP_MIME_TYPE, text: html, _meta: { ui } }] };
      },
    );
  }
}
