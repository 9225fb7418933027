// One request to the MCP endpoint on its way through the refusal steps (requestSteps.ts),
// and what the steps found out about it: who calls, the parsed body, where it is answered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  AuthInfo,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Authorization } from './authorization.js';
import { webRequestOf } from './nodeBridge.js';
import type { Reservation } from './sessionRegistry.js';

export type Transport = WebStandardStreamableHTTPServerTransport;

/** The caller of one request: its Authorization and the hash that stands for it. */
export interface Caller {
  readonly authorization: Exclude<Authorization, { kind: 'malformed' }>;
  readonly credential: Buffer;
  readonly authInfo: AuthInfo | undefined;
}

/** Where a request that passed every step is answered. */
export type Route =
  | { readonly kind: 'stateless' }
  | { readonly kind: 'session'; readonly transport: Transport }
  | { readonly kind: 'new-session'; readonly reservation: Reservation<Transport> };

/** One request on its way through the steps, and what each step found out about it. */
export class Arrival {
  /** Aborts the call when the client leaves before its answer is written. */
  readonly abort = new AbortController();
  private web: Request | undefined;
  private found: { caller?: Caller; body?: unknown; route?: Route } = {};

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    res.once('close', () => {
      if (!res.writableEnded) this.abort.abort();
    });
  }

  /** The web Request the SDK takes (method, URL, headers; the body travels parsed beside it). */
  get request(): Request {
    return (this.web ??= webRequestOf(this.req, this.abort.signal));
  }
  get caller(): Caller {
    if (!this.found.caller) throw new Error('the authorization step has not run for this request');
    return this.found.caller;
  }
  /** The parsed JSON body of a POST; undefined for GET and DELETE. */
  get body(): unknown {
    return this.found.body;
  }
  get route(): Route {
    if (!this.found.route) throw new Error('the session step has not run for this request');
    return this.found.route;
  }
  learn(facts: { caller?: Caller; body?: unknown; route?: Route }): void {
    this.found = { ...this.found, ...facts };
  }
}
