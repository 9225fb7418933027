import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** Named groups of the route's pattern. */
  params: Record<string, string>;
  body: string;
}

export type RouteHandler = (context: RouteContext) => void | Promise<void>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
}

/** `route('GET', '/repos/:owner/:name/raw/*path', …)`: `:x` matches one segment, `*x` the rest. */
export function route(method: string, path: string, handler: RouteHandler): Route {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return `(?<${segment.slice(1)}>[^/]+)`;
      if (segment.startsWith('*')) return `(?<${segment.slice(1)}>.+)`;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { method, pattern: new RegExp(`^${source}$`), handler };
}

export function findRoute(
  routes: Route[],
  method: string,
  pathname: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const match = candidate.pattern.exec(pathname);
    if (match) {
      const params: Record<string, string> = {};
      for (const [key, value] of Object.entries(match.groups ?? {}))
        params[key] = decodeURIComponent(value);
      return { route: candidate, params };
    }
  }
  return undefined;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  contentType = 'text/plain',
): void {
  response.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function sendNotFound(response: ServerResponse, what = 'not found'): void {
  sendJson(response, 404, { message: what });
}

export async function readBody(
  request: IncomingMessage,
  limitBytes = 5 * 1024 * 1024,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonObject(body: string): Record<string, unknown> {
  if (body.trim() === '') return {};
  const value: unknown = JSON.parse(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('expected a JSON object');
  return value as Record<string, unknown>;
}

/** Gitea paging: `page` from 1, `limit` items per page. Pages past the end are empty. */
export function paginate<T>(items: T[], url: URL): T[] {
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
  const limit = Math.max(1, Math.min(50, Number(url.searchParams.get('limit') ?? '50') || 50));
  return items.slice((page - 1) * limit, page * limit);
}
