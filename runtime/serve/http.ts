// Streamable HTTP on one endpoint, /mcp, serving both protocol revisions:
// - 2026-07-28 requests (a _meta envelope) are served statelessly, one server instance
//   per request; a question travels as input_required and comes back sealed.
// - 2025-era requests get a session, so a dialog can be pushed to the client mid-call.
// A request may carry its own Woodpecker token (Authorization: Bearer …), so one
// deployment can serve many people, each with their own permissions.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AuthInfo, McpHandlerRequestOptions, McpServerFactory } from '@modelcontextprotocol/server';

export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  readonly factory: McpServerFactory;
  readonly onError?: (error: Error) => void;
}

export interface RunningHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

const MAX_SESSIONS = 1000;
/** A 2025 session nobody used for this long is closed; its client initializes again. */
const SESSION_IDLE_MS = 30 * 60 * 1000;

export async function startHttpServer(options: HttpOptions): Promise<RunningHttpServer> {
  const modern = createMcpHandler(options.factory, { legacy: 'reject', ...(options.onError ? { onerror: options.onError } : {}) });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const lastUsed = new Map<string, number>();
  const sweeper = setInterval(() => {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, used] of lastUsed) {
      if (used >= cutoff) continue;
      lastUsed.delete(id);
      void sessions.get(id)?.close();
      sessions.delete(id);
    }
  }, 60_000);
  sweeper.unref();

  const legacy = async (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) {
        return jsonRpcError(sessionId ? 404 : 400, sessionId ? 'Unknown or expired session; initialize again.' : 'Send initialize first to open a session.');
      }
      if (sessions.size >= MAX_SESSIONS) return jsonRpcError(503, 'Too many open sessions; try again later.');
      const created = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, created);
          lastUsed.set(id, Date.now());
        },
      });
      created.onclose = () => {
        if (!created.sessionId) return;
        sessions.delete(created.sessionId);
        lastUsed.delete(created.sessionId);
      };
      const server = await options.factory({ era: 'legacy', ...(authInfo ? { authInfo } : {}) });
      await server.connect(created);
      transport = created;
    } else if (sessionId) {
      lastUsed.set(sessionId, Date.now());
    }
    return transport.handleRequest(request, { parsedBody, ...(authInfo ? { authInfo } : {}) });
  };

  const route = {
    fetch: async (request: Request, handlerOptions?: McpHandlerRequestOptions): Promise<Response> => {
      const url = new URL(request.url);
      if (url.pathname !== '/mcp') return new Response('Not found. The MCP endpoint is /mcp.\n', { status: 404 });
      const authInfo = bearerAuth(request);
      let parsedBody: unknown = handlerOptions?.parsedBody;
      if (parsedBody === undefined && request.method === 'POST') {
        try {
          parsedBody = await request.json();
        } catch {
          return jsonRpcError(400, 'The request body is not valid JSON.', -32700);
        }
      }
      const forward = { parsedBody, ...(authInfo ? { authInfo } : {}) };
      if (await isLegacyRequest(request, parsedBody)) return legacy(request, parsedBody, authInfo);
      return modern.fetch(request, forward);
    },
  };

  const nodeHandler = toNodeHandler(route, options.onError ? { onerror: options.onError } : {});
  const httpServer: NodeHttpServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req.headers.host, options.host)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Host not allowed.\n');
      return;
    }
    // IncomingMessage fits the adapter's duck type; its optional fields differ only in
    // how exactOptionalPropertyTypes spells them.
    void nodeHandler(req as unknown as Parameters<typeof nodeHandler>[0], res);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${hostForUrl}:${port}/mcp`,
    close: async () => {
      clearInterval(sweeper);
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      await modern.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** A per-request Woodpecker token; it is passed through, never logged or stored. */
function bearerAuth(request: Request): AuthInfo | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  return { token: match[1], clientId: 'woodpecker-token', scopes: [] };
}

// A server bound to loopback answers only requests addressed to loopback names, so a
// web page cannot reach it through DNS rebinding.
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
function hostAllowed(hostHeader: string | undefined, boundHost: string): boolean {
  if (!LOOPBACK_NAMES.has(boundHost) && !boundHost.startsWith('127.')) return true;
  if (!hostHeader) return false;
  const name = hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0] ?? '';
  return LOOPBACK_NAMES.has(name) || name.startsWith('127.');
}

function jsonRpcError(status: number, message: string, code = -32000): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
