// Between node:http and the SDK's web-standard handlers, doing each piece of work once.
// The SDK's own adapter (toNodeHandler) reads the body into a web Request, which the route
// then read again through a web stream and parsed; and it copied every answer, a single
// JSON object included, through a web stream chunk by chunk. Here the body is read from the
// socket and parsed once (the SDK takes it as `parsedBody` and never reads the Request's),
// and a JSON answer is written in one piece. SSE answers still stream, with backpressure.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';

/** What a POST carried: the parsed JSON, or why there is none. */
export type RequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'too-large'; readonly limit: number };

/** Reads and parses a request body, refusing one over `limit` bytes before reading it all. */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number = DEFAULT_MAX_REQUEST_BODY_SIZE,
): Promise<RequestBody> {
  if (Number(req.headers['content-length']) > limit) return { kind: 'too-large', limit };
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    if (received > limit) return { kind: 'too-large', limit };
    chunks.push(chunk);
  }
  const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}

/**
 * The web Request the SDK's handlers take: method, URL and headers, and no body (the
 * parsed one travels beside it). `signal` aborts when the client goes away.
 */
export function webRequestOf(req: IncomingMessage, signal: AbortSignal): Request {
  // From req.headers, not rawHeaders: the checks in http.ts read Node's view of a repeated
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
    headers[name] = value;
  });
  if (response.body !== null && isEventStream(response)) {
    res.writeHead(response.status, headers);
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

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/** Copies an event stream to the socket, waiting for `drain` when the client reads slowly. */
async function streamBody(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  aborted: AbortSignal,
): Promise<void> {
  const gone = new Promise<void>((resolve) => {
    if (aborted.aborted) resolve();
    else aborted.addEventListener('abort', () => resolve(), { once: true });
  });
  try {
    for await (const chunk of body) {
      if (aborted.aborted) break;
      if (!res.write(chunk))
        await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
    }
  } catch {
    // The stream failed or was cancelled: end the answer with what was written.
  }
}
