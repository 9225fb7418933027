// Every request to the MCP endpoint passes these steps, in this order, whichever protocol
// revision it speaks; the first step that refuses answers it, and no later step runs. The
// order is the design:
// - nothing is read before the server knows it is not shutting down and the framing is
//   one it will not guess at (a proxy in front and this server must see the same request);
// - Host and Origin next, so a page in a browser (DNS rebinding, a foreign origin) is
//   turned away before anything else looks at what it sent;
// - only a request for /mcp counts as a call under way (shutdown waits for it) and keeps
//   its session from being closed for idleness;
// - a malformed Authorization is refused before the body is read, so it costs no memory;
// - the body before the session, because the body tells a 2025 request from a 2026 one;
// - the session last: opening one may ask Woodpecker whose a bearer token is.
// Steps up to "under way" run in the same tick the request arrived in (see firstRefusal),
// so the request is counted before the client can leave.
import type { Arrival, Transport } from './arrival.js';
import {
  MALFORMED_AUTHORIZATION_MESSAGE,
  readAuthorization,
  type CredentialHasher,
} from './authorization.js';
import type { CallsUnderWay } from './callsUnderWay.js';
import { hostAllowed } from './hostCheck.js';
import { readJsonBody, type BodyBudget } from './nodeBridge.js';
import { originAllowed } from './originCheck.js';
import type { Refusal } from './refusal.js';
import { framingRefusal } from './requestFraming.js';
import type { SessionRegistry } from './sessionRegistry.js';
import { sessionRefusal } from './sessionStep.js';
import type { TokenVerdicts } from './tokenVerdicts.js';

/** The order every request to /mcp meets the steps in (the reasons are at the top). */
export const STEP_ORDER = [
  'draining',
  'framing',
  'host',
  'origin',
  'target',
  'path',
  'under way',
  'authorization',
  'body',
  'session',
] as const;

type StepName = (typeof STEP_ORDER)[number];

/** A refusal, or nothing when the request may go on; a step may also note what it learned. */
type Check = (arrival: Arrival) => Refusal | undefined | Promise<Refusal | undefined>;

export interface RequestStep {
  readonly name: StepName;
  readonly check: Check;
}

/** What the steps read of the server they guard. */
export interface StepContext {
  readonly boundHost: string;
  /** The port the server listens on (known once it listens). */
  port(): number;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  draining(): boolean;
  readonly drain: CallsUnderWay;
  readonly hasher: CredentialHasher;
  readonly bodies: BodyBudget;
  readonly sessions: SessionRegistry<Transport>;
  /** Whether Woodpecker accepts a bearer token (HttpOptions.verifyToken, remembered). */
  readonly verdicts: TokenVerdicts;
}

export function requestSteps(context: StepContext): readonly RequestStep[] {
  const checks: Record<StepName, Check> = {
    draining: () =>
      context.draining()
        ? {
            status: 503,
            message: 'The server is shutting down.',
            headers: { connection: 'close' },
          }
        : undefined,
    framing: ({ req }) => framingRefusal(req),
    host: ({ req }) =>
      hostAllowed(req.headers.host, {
        boundHost: context.boundHost,
        port: context.port(),
        allowedHosts: context.allowedHosts,
      })
        ? undefined
        : {
            status: 403,
            message:
              'Host not allowed. Address the server by a loopback address, localhost, or a name listed in WOODPECKER_MCP_ALLOWED_HOSTS.',
          },
    origin: ({ req }) =>
      originAllowed(req.headers.origin, context.allowedOrigins)
        ? undefined
        : {
            status: 403,
            message:
              'Origin not allowed. A browser page may use this server only if its origin is listed in WOODPECKER_MCP_ALLOWED_ORIGINS.',
          },
    // Only origin-form targets ("/mcp"): an absolute-form one names a host of its own,
    // which the host step never saw.
    target: ({ req }) =>
      (req.url ?? '').startsWith('/')
        ? undefined
        : {
            status: 400,
            plain: true,
            message: 'Bad request: the request target must be a path such as /mcp.',
          },
    path: (arrival) =>
      new URL(arrival.request.url).pathname === '/mcp'
        ? undefined
        : { status: 404, plain: true, message: 'Not found. The MCP endpoint is /mcp.' },
    // Refuses nothing: from here the request is a call. Only POSTs hold a shutdown; a GET
    // stream stays open until the client leaves and would hold it for its whole grace time.
    'under way': ({ req, res }) => {
      const sessionHeader = req.headers['mcp-session-id'];
      const leaveSession = context.sessions.enter(
        typeof sessionHeader === 'string' ? sessionHeader : undefined,
      );
      const leaveDrain = req.method === 'POST' ? context.drain.enter() : () => undefined;
      res.once('close', () => {
        leaveSession();
        leaveDrain();
      });
      return undefined;
    },
    authorization: (arrival) => {
      // As the SDK will see it: from the web Request's headers.
      const authorization = readAuthorization(
        arrival.request.headers.get('authorization') ?? undefined,
      );
      if (authorization.kind === 'malformed')
        return {
          status: 401,
          message: MALFORMED_AUTHORIZATION_MESSAGE,
          code: -32001,
          challenge: true,
        };
      arrival.learn({
        caller: {
          authorization,
          credential: context.hasher.hash(authorization),
          authInfo:
            authorization.kind === 'bearer'
              ? { token: authorization.token, clientId: 'woodpecker-token', scopes: [] }
              : undefined,
        },
      });
      return undefined;
    },
    body: (arrival) => bodyRefusal(arrival, context.bodies),
    session: (arrival) => sessionRefusal(arrival, context),
  };
  return STEP_ORDER.map((name) => ({ name, check: checks[name] }));
}

/**
 * The first refusal of `steps`, or undefined when the request passed them all. Steps that
 * answer at once run at once: nothing waits before the first step that returns a promise.
 */
export function firstRefusal(
  steps: readonly RequestStep[],
  arrival: Arrival,
): Refusal | undefined | Promise<Refusal | undefined> {
  for (const [index, step] of steps.entries()) {
    const outcome = step.check(arrival);
    if (outcome instanceof Promise)
      return outcome.then((refusal) => refusal ?? firstRefusal(steps.slice(index + 1), arrival));
    if (outcome) return outcome;
  }
  return undefined;
}

/** A POST's body: read once, within the size limit and the server's budget, and JSON. */
async function bodyRefusal(arrival: Arrival, bodies: BodyBudget): Promise<Refusal | undefined> {
  if (arrival.req.method !== 'POST') return undefined;
  const body = await readJsonBody(arrival.req, bodies);
  switch (body.kind) {
    case 'busy':
      return {
        status: 503,
        message: 'The server is receiving too many request bodies at once; try again shortly.',
        headers: { connection: 'close', 'retry-after': '1' },
      };
    case 'too-large':
      return {
        status: 413,
        message: `Payload Too Large: Request body must not exceed ${body.limit} bytes`,
        headers: { connection: 'close' },
      };
    case 'invalid':
      return { status: 400, message: 'The request body is not valid JSON.', code: -32700 };
    case 'json':
      arrival.learn({ body: body.value });
      return undefined;
  }
}
