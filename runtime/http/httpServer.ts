// Streamable HTTP on one endpoint, /mcp, serving both protocol revisions (beside it, only
// the health checks of health.ts):
// - 2026-07-28 requests (a _meta envelope) are served statelessly, one server instance
//   per request; a question travels as input_required and comes back sealed.
// - 2025-era requests get a session, so a dialog can be pushed to the client mid-call.
// A request may carry its own Woodpecker token (Authorization: Bearer …), so one
// deployment can serve many people, each with their own permissions. Every request is
// checked on its own, whichever revision it speaks, by the refusal steps of
// requestSteps.ts (framing, Host, Origin, Authorization, body, session, in that order);
// this file starts and stops the server and hands what passes to the SDK.
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from 'node:http';
import {
  createMcpHandler,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { CallsUnderWay } from './callsUnderWay.js';
import { noteCalledTool } from '../mcp/calledTool.js';
import { CredentialHasher } from './authorization.js';
import { answerHealth, isHealthPath, sharedCheck, type WoodpeckerHealth } from './health.js';
import { BodyBudget, writeWebResponse } from './nodeBridge.js';
import { refusedOf, writeRefusal } from './refusal.js';
import { errorAnswer, legacyAnswer, wireError } from '../mcp/wireChecks.js';
import { Arrival, type Route } from './arrival.js';
import { firstRefusal, requestSteps } from './requestSteps.js';
import { listeningClosed, listeningOpened, rerouteLostStreams, streamLost } from './lostStreams.js';
import { TokenVerdicts } from './tokenVerdicts.js';
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
  /**
   * Milliseconds between the keep-alive comments of an idle event stream (the SDK's
   * default, 15 s, when unset). Tests only: a longer one turns a stream whose head waits
   * for its first event into a hang a client cannot miss (see serve.ts).
   */
  readonly keepAliveMs?: number;
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

function isEventStream(response: Response): boolean {
  return (
    response.status === 200 &&
    (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
  );
}

export async function startHttpServer(options: HttpOptions): Promise<RunningHttpServer> {
  const policy = options.policy ?? DEFAULT_POLICY;
  const keepAlive = options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs };
  const modern = createMcpHandler(options.factory, {
    legacy: 'reject',
    ...keepAlive,
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  const sessions = new SessionRegistry<WebStandardStreamableHTTPServerTransport>(policy.sessions);
  const hasher = new CredentialHasher();

  // A request that passed every step of requestSteps.ts: the SDK answers it, in the
  // session it named, in a session opened for it, or on its own (2026-07-28).
  const answer = async (arrival: Arrival, route: Route): Promise<Response> => {
    const { request, body: parsedBody, caller } = arrival;
    const forward = { parsedBody, ...(caller.authInfo ? { authInfo: caller.authInfo } : {}) };
    // What the SDK would answer with a validation dump, or serve against the spec.
    const wrong = wireError(parsedBody);
    if (wrong)
      return Response.json(errorAnswer(parsedBody, wrong), {
        status: route.kind === 'stateless' ? 400 : 200,
      });
    if (route.kind === 'stateless') {
      noteCalledTool(request, parsedBody);
      return modern.fetch(request, forward);
    }
    if (route.kind === 'session') {
      // A new listening stream takes the place of the session's old one: a client opens
      // another only when it lost the first, which the server may not have seen yet (a
      // NAT or proxy that dropped it silently). The SDK would refuse it with 409.
      if (request.method === 'GET') route.transport.closeStandaloneSSEStream();
      return route.transport.handleRequest(request, forward);
    }
    const created: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id: string): void => route.reservation.commit(id, created),
        ...keepAlive,
      });
    rerouteLostStreams(created);
    // Every session is 2025-era: its answers are worded as 2025-11-25 says.
    const send = created.send.bind(created);
    created.send = (message, sendOptions) => send(legacyAnswer(message), sendOptions);
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
        route.reservation.release();
        void created.close().catch(() => undefined);
      }
    }
  };

  const serveMcp = async (arrival: Arrival): Promise<void> => {
    const { res, abort } = arrival;
    let response: Response;
    try {
      // A refusal known at once is written at once, in the tick the request arrived in:
      // Node parses the bytes after it (a body in a framing it refused) right after this
      // listener returns, and would otherwise answer them first with a 400 of its own.
      const pending = firstRefusal(steps, arrival);
      const refusal = pending instanceof Promise ? await pending : pending;
      if (refusal) {
        writeRefusal(res, refusal, refusedOf(arrival.req.headers, arrival.body));
        return;
      }
      response = await answer(arrival, arrival.route);
    } catch (error) {
      // A client that left mid-request (its body cut short) is not the server's error,
      // and nobody is left to answer.
      if (abort.signal.aborted) return;
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      writeRefusal(
        res,
        { status: 500, message: 'Internal server error', code: -32603 },
        refusedOf(arrival.req.headers, arrival.body),
      );
      return;
    }
    const { route } = arrival;
    // A session's listening stream: what waited for one goes out on it (lostStreams.ts).
    const listening =
      route.kind === 'session' && arrival.request.method === 'GET' && isEventStream(response)
        ? await listeningOpened(route.transport)
        : undefined;
    await writeWebResponse(response, res, abort.signal);
    if (route.kind !== 'session') return;
    listeningClosed(route.transport, listening);
    // The client left before the answer: what the call still sends goes elsewhere.
    if (abort.signal.aborted) streamLost(route.transport, arrival.body);
  };

  const checkWoodpecker = options.checkWoodpecker
    ? sharedCheck(options.checkWoodpecker)
    : undefined;
  let listeningPort = options.port;
  let draining = false;
  const drain = new CallsUnderWay();
  const bodies = new BodyBudget();
  const steps = requestSteps({
    boundHost: options.host,
    port: () => listeningPort,
    allowedHosts: policy.allowedHosts,
    allowedOrigins: policy.allowedOrigins,
    draining: () => draining,
    drain,
    hasher,
    bodies,
    sessions,
    verdicts: new TokenVerdicts(options.verifyToken),
  });
  const httpServer: NodeHttpServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    // Health checks come before every step: a probe names the pod's IP, not an allowed host.
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && isHealthPath(path)) {
      void answerHealth(path, res, { draining, checkWoodpecker });
      return;
    }
    void serveMcp(new Arrival(req, res));
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
