// Streamable HTTP on one endpoint, /mcp, serving both protocol revisions (beside it, only
// the health checks of health.ts):
// - 2026-07-28 requests (a _meta envelope) are served statelessly, one server instance
//   per request; a question travels as input_required and comes back sealed.
// - 2025-era requests get a session, so a dialog can be pushed to the client mid-call.
// A request may carry its own Woodpecker token (Authorization: Bearer …), so one
// deployment can serve many people, each with their own permissions. Every request is
// checked on its own, whichever revision it speaks: Host (DNS rebinding), Origin
// (browsers), Authorization (well formed, and the same one that opened its session).
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from 'node:http';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { AuthInfo, McpServerFactory } from '@modelcontextprotocol/server';
import { CallsUnderWay } from './callsUnderWay.js';
import { noteCalledTool } from '../mcp/calledTool.js';
import {
  CredentialHasher,
  MALFORMED_AUTHORIZATION_MESSAGE,
  readAuthorization,
  type Authorization,
} from './authorization.js';
import { answerHealth, isHealthPath, sharedCheck, type WoodpeckerHealth } from './health.js';
import { hostAllowed } from './hostCheck.js';
import { BodyBudget, readJsonBody, webRequestOf, writeWebResponse } from './nodeBridge.js';
import { framingRefusal } from './requestFraming.js';
import { originAllowed } from './originCheck.js';
import { DEFAULT_SESSION_LIMITS, SessionRegistry, type SessionLimits } from './sessionRegistry.js';

/** What the operator configured for the HTTP transport (see config.ts). */
export interface HttpPolicy {
  /** Host names served besides the loopback literals (`name` or `name:port`). */
  readonly allowedHosts: readonly string[];
  /** Browser origins served, canonical (`scheme://host[:port]`). */
  readonly allowedOrigins: readonly string[];
  readonly sessions: SessionLimits;
}

export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  readonly factory: McpServerFactory;
  readonly onError?: (error: Error) => void;
  /** Defaults: no extra names, no browser origins, DEFAULT_SESSION_LIMITS. */
  readonly policy?: HttpPolicy;
  /**
   * Asks Woodpecker whose a bearer token is before a session is opened for it: the
   * account (a key shared by all of its tokens, for the per-account cap), false to refuse,
   * undefined (could not tell) to let it through as an account of its own. Without this
   * check made-up tokens would each count as an account of their own and fill the server,
   * and the forms Woodpecker accepts for one token would each get a cap of their own.
   */
  readonly verifyToken?: (token: string) => Promise<string | false | undefined>;
  /** For `/readyz`: whether Woodpecker answers its own health check (see health.ts). */
  readonly checkWoodpecker?: () => Promise<WoodpeckerHealth>;
}

export interface RunningHttpServer {
  readonly url: string;
  /** Stops accepting, lets calls under way finish for up to `graceMs`, then closes. */
  shutdown(graceMs: number): Promise<void>;
  close(): Promise<void>;
  /** 2025 sessions open now: for the load test's check that none outlives its client. */
  openSessions(): number;
}

const DEFAULT_POLICY: HttpPolicy = {
  allowedHosts: [],
  allowedOrigins: [],
  sessions: DEFAULT_SESSION_LIMITS,
};

/** The caller of one request: its Authorization and the hash that stands for it. */
interface Caller {
  readonly authorization: Exclude<Authorization, { kind: 'malformed' }>;
  readonly credential: Buffer;
  readonly authInfo: AuthInfo | undefined;
}

export async function startHttpServer(options: HttpOptions): Promise<RunningHttpServer> {
  const policy = options.policy ?? DEFAULT_POLICY;
  const modern = createMcpHandler(options.factory, {
    legacy: 'reject',
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  const sessions = new SessionRegistry<WebStandardStreamableHTTPServerTransport>(policy.sessions);
  const hasher = new CredentialHasher();

  const legacy = async (
    request: Request,
    parsedBody: unknown,
    caller: Caller,
  ): Promise<Response> => {
    const forward = { parsedBody, ...(caller.authInfo ? { authInfo: caller.authInfo } : {}) };
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const found = sessions.lookup(sessionId, caller.credential);
      if (found.kind === 'found') return found.transport.handleRequest(request, forward);
      if (found.kind === 'unknown')
        return jsonRpcError(404, 'Unknown or expired session; initialize again.');
      // A session id is not a credential: the request must carry the token that opened it.
      return caller.authorization.kind === 'none'
        ? jsonRpcError(
            401,
            'This session was opened with a bearer token; send the same Authorization header on every request of the session.',
            -32001,
            true,
          )
        : jsonRpcError(
            403,
            'This session was opened with another credential. Send the Authorization header that opened it, or initialize a session of your own.',
            -32001,
          );
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsedBody))
      return jsonRpcError(400, 'Send initialize first to open a session.');
    const verdict =
      caller.authorization.kind === 'bearer'
        ? await options.verifyToken?.(caller.authorization.token)
        : undefined;
    if (verdict === false) {
      return jsonRpcError(
        401,
        'Woodpecker does not accept this bearer token. Create a personal access token in Woodpecker (your user settings) and send it as "Authorization: Bearer <token>".',
        -32001,
        true,
      );
    }
    // The cap counts per account; the session stays bound to this exact credential.
    const account =
      typeof verdict === 'string'
        ? `account:${verdict}`
        : `credential:${caller.credential.toString('hex')}`;
    const admission = sessions.admit(caller.credential, account);
    if (!admission.ok) return jsonRpcError(admission.status, admission.message);

    const created: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id: string): void => admission.reservation.commit(id, created),
      });
    created.onclose = () => {
      if (created.sessionId) sessions.forget(created.sessionId);
    };
    try {
      // No authInfo here on purpose: the session holds no token; each request brings its own.
      const server = await options.factory({ era: 'legacy' });
      await server.connect(created);
      return await created.handleRequest(request, forward);
    } finally {
      if (!created.sessionId) {
        admission.reservation.release();
        void created.close().catch(() => undefined);
      }
    }
  };

  // One MCP request, from node:http to the answer: the same checks for both revisions,
  // then the 2025 session registry or the 2026-07-28 handler.
  const answer = async (req: IncomingMessage, signal: AbortSignal): Promise<Response> => {
    // Only origin-form targets ("/mcp"): an absolute-form one names a host of its own,
    // which the Host check above never saw.
    if (!(req.url ?? '').startsWith('/'))
      return new Response('Bad request: the request target must be a path such as /mcp.\n', {
        status: 400,
      });
    const request = webRequestOf(req, signal);
    if (new URL(request.url).pathname !== '/mcp')
      return new Response('Not found. The MCP endpoint is /mcp.\n', { status: 404 });
    const authorization = readAuthorization(request.headers.get('authorization') ?? undefined);
    if (authorization.kind === 'malformed')
      return jsonRpcError(401, MALFORMED_AUTHORIZATION_MESSAGE, -32001, true);
    const caller: Caller = {
      authorization,
      credential: hasher.hash(authorization),
      authInfo:
        authorization.kind === 'bearer'
          ? { token: authorization.token, clientId: 'woodpecker-token', scopes: [] }
          : undefined,
    };
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const body = await readJsonBody(req, bodies);
      if (body.kind === 'busy')
        return jsonRpcError(
          503,
          'The server is receiving too many request bodies at once; try again shortly.',
          -32000,
          false,
          { connection: 'close', 'retry-after': '1' },
        );
      if (body.kind === 'too-large')
        return jsonRpcError(
          413,
          `Payload Too Large: Request body must not exceed ${body.limit} bytes`,
          -32000,
          false,
          { connection: 'close' },
        );
      if (body.kind === 'invalid')
        return jsonRpcError(400, 'The request body is not valid JSON.', -32700);
      parsedBody = body.value;
    }
    if (await isLegacyRequest(request, parsedBody)) return legacy(request, parsedBody, caller);
    noteCalledTool(request, parsedBody);
    return modern.fetch(request, {
      parsedBody,
      ...(caller.authInfo ? { authInfo: caller.authInfo } : {}),
    });
  };

  const serveMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Aborts the call when the client leaves before its answer is written.
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableEnded) abort.abort();
    });
    let response: Response;
    try {
      response = await answer(req, abort.signal);
    } catch (error) {
      // A client that left mid-request (its body cut short) is not the server's error,
      // and nobody is left to answer.
      if (abort.signal.aborted) return;
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      response = jsonRpcError(500, 'Internal server error', -32603);
    }
    await writeWebResponse(response, res, abort.signal);
  };

  const checkWoodpecker = options.checkWoodpecker
    ? sharedCheck(options.checkWoodpecker)
    : undefined;
  let listeningPort = options.port;
  let draining = false;
  const drain = new CallsUnderWay();
  const bodies = new BodyBudget();
  const httpServer: NodeHttpServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && isHealthPath(path)) {
      void answerHealth(path, res, { draining, checkWoodpecker });
      return;
    }
    if (draining) {
      writeRefusal(res, 503, 'The server is shutting down.', { connection: 'close' });
      return;
    }
    const framing = framingRefusal(req);
    if (framing) {
      writeRefusal(res, framing.status, framing.message, framing.headers);
      return;
    }
    if (
      !hostAllowed(req.headers.host, {
        boundHost: options.host,
        port: listeningPort,
        allowedHosts: policy.allowedHosts,
      })
    ) {
      writeRefusal(
        res,
        403,
        'Host not allowed. Address the server by a loopback address, localhost, or a name listed in WOODPECKER_MCP_ALLOWED_HOSTS.',
      );
      return;
    }
    if (!originAllowed(req.headers.origin, policy.allowedOrigins)) {
      writeRefusal(
        res,
        403,
        'Origin not allowed. A browser page may use this server only if its origin is listed in WOODPECKER_MCP_ALLOWED_ORIGINS.',
      );
      return;
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const leaveSession = sessions.enter(
      typeof sessionHeader === 'string' ? sessionHeader : undefined,
    );
    // Only POSTs are calls; a GET stream stays open until the client leaves and would
    // otherwise hold every shutdown for its whole grace time.
    const leaveDrain = req.method === 'POST' ? drain.enter() : () => undefined;
    res.once('close', () => {
      leaveSession();
      leaveDrain();
    });
    void serveMcp(req, res);
  });
  // A request must arrive whole within these times (Node's defaults are 60 s and 300 s):
  // a client that trickles its headers or body holds a connection and memory meanwhile.
  // They bound receiving the request only, not an answer that streams for longer.
  httpServer.headersTimeout = 10_000;
  httpServer.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const address = httpServer.address();
  listeningPort = typeof address === 'object' && address ? address.port : options.port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      draining = true;
      await sessions.closeAll();
      await modern.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    })());

  return {
    url: `http://${hostForUrl}:${listeningPort}/mcp`,
    close,
    openSessions: () => sessions.size,
    shutdown: async (graceMs) => {
      draining = true;
      httpServer.close();
      httpServer.closeIdleConnections();
      await drain.settled(graceMs);
      await close();
    },
  };
}

function jsonRpcBody(message: string, code: number): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function jsonRpcError(
  status: number,
  message: string,
  code = -32000,
  challenge = false,
  headers: Record<string, string> = {},
): Response {
  return new Response(jsonRpcBody(message, code), {
    status,
    headers: {
      'content-type': 'application/json',
      ...(challenge ? { 'www-authenticate': 'Bearer realm="woodpecker-ci-mcp"' } : {}),
      ...headers,
    },
  });
}

function writeRefusal(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(jsonRpcBody(message, -32000));
}
