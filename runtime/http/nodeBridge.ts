// Between node:http and the SDK's web-standard handlers, doing each piece of work once.
// The SDK's own adapter (toNodeHandler) reads the body into a web Request, which the route
// then read again through a web stream and parsed; and it copied every answer, a single
// JSON object included, through a web stream chunk by chunk. Here the body is read from the
// socket and parsed once (the SDK takes it as `parsedBody` and never reads the Request's),
// and a JSON answer is written in one piece. SSE answers still stream, with backpressure.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The largest request body: a tool call's arguments are small (a secret value, a cron, a
 * few settings); 1 MiB leaves room for a large certificate. Parsing a pathological body
 * (millions of nested arrays) costs up to about 25 times its size, hence the ceiling.
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * The request bytes the whole server holds at once while bodies arrive. Clients that
 * open many connections and send large bodies slowly would otherwise hold memory until
 * Node's request timeout; past this budget a body is refused with 503 instead.
 */
export const BODY_BYTES_IN_FLIGHT = 8 * MAX_REQUEST_BODY_BYTES;

/** Bytes of request bodies held right now, server-wide; one per HTTP server. */
export class BodyBudget {
  private held = 0;
  constructor(private readonly limit: number = BODY_BYTES_IN_FLIGHT) {}
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }
  give(bytes: number): void {
    this.held -= bytes;
  }
}

/** What a POST carried: the parsed JSON, or why there is none. */
export type RequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'too-large'; readonly limit: number }
  | { readonly kind: 'busy' };

/**
 * Reads and parses a request body, refusing one over `limit` bytes before reading it all,
 * and one that would take the server past its budget of bytes in flight. The bytes are
 * given back to the budget once the body is parsed or refused.
 */
export async function readJsonBody(
  req: IncomingMessage,
  budget: BodyBudget,
  limit: number = MAX_REQUEST_BODY_BYTES,
): Promise<RequestBody> {
  if (Number(req.headers['content-length']) > limit) return { kind: 'too-large', limit };
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      if (received + chunk.byteLength > limit) return { kind: 'too-large', limit };
      if (!budget.take(chunk.byteLength)) return { kind: 'busy' };
      received += chunk.byteLength;
      chunks.push(chunk);
    }
    const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch {
      return { kind: 'invalid' };
    }
  } finally {
    budget.give(received);
  }
}

/**
 * The web Request the SDK's handlers take: method, URL and headers, and no body (the
 * parsed one travels beside it). `signal` aborts when the client goes away.
 */
export function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request {
  // From req.headers, not rawHeaders: the refusal steps read Node's view of a repeated
  // header (the first Host or Authorization wins), and the SDK must see the same one.
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal,
  });
}

/** Writes a web Response to node:http: JSON in one write, an event stream as it comes. */
export async function writeWebResponse(
  response: Response,
  res: ServerResponse,
  aborted: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // Connection management is node:http's: a "connection: keep-alive" copied from the
    // SDK's answer would override the "close" Node sends while the server drains or when
    // the client asked for it, and a balancer would send its next request into a closing
    // socket. Only a refusal's own "close" (a body left unread) is kept.
    const closes = name === 'connection' && value.trim().toLowerCase() === 'close';
    if (closes || !HOP_BY_HOP.has(name)) headers[name] = value;
  });
  if (response.body !== null && isEventStream(response)) {
    // The head goes out now, not with the first event: a listening stream may wait 15 s
    // for one (the SDK's keep-alive), and a client (the Go SDK) waits for the head.
    res.writeHead(response.status, headers).flushHeaders();
    await streamBody(response.body, res, aborted);
    res.end();
    return;
  }
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  // A whole answer: its length is known, so it goes out in one write without chunked framing.
  const body = Buffer.from(await response.arrayBuffer());
  headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers).end(body);
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/**
 * Copies an event stream to the socket, waiting for `drain` when the client reads slowly.
 * When the client leaves, the stream is cancelled at once: the SDK then forgets it, and a
 * listening stream's replacement is not refused as a second one.
 */
async function streamBody(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  aborted: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const gone = new Promise<void>((resolve) => {
    if (aborted.aborted) resolve();
    else aborted.addEventListener('abort', () => resolve(), { once: true });
  });
  void gone.then(() => reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || aborted.aborted) break;
      if (!res.write(value))
        await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
    }
  } catch {
    // The stream failed or was cancelled: end the answer with what was written.
  }
}
