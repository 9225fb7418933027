// Requests whose framing this server will not guess at, refused before any check reads a
// header or any body is read. Each one is a place where a proxy in front and this server
// could understand the same bytes differently (who is calling, where the body ends), or
// where Node would quietly pass on something the MCP endpoint does not speak.
import type { IncomingMessage } from 'node:http';

export interface FramingRefusal {
  readonly status: 400 | 405 | 415 | 501;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

/** The methods the endpoint answers: calls (POST), the 2025 stream (GET), closing a session (DELETE). */
const METHODS = new Set(['GET', 'POST', 'DELETE']);

/** Headers that name who is calling or where the request goes: one of each, or nothing. */
const SINGLE = new Set(['host', 'authorization', 'mcp-session-id', 'origin']);

export function framingRefusal(req: IncomingMessage): FramingRefusal | undefined {
  if (!METHODS.has(req.method ?? '')) {
    return {
      status: 405,
      message: `Method ${req.method} is not allowed. The MCP endpoint answers GET, POST and DELETE.`,
      headers: { allow: 'GET, POST, DELETE' },
    };
  }
  const repeated = repeatedHeader(req);
  if (repeated) {
    return {
      status: 400,
      message: `The request has more than one ${repeated} header. Send it once.`,
    };
  }
  const transferEncoding = req.headers['transfer-encoding'];
  if (transferEncoding !== undefined && transferEncoding.trim().toLowerCase() !== 'chunked') {
    return {
      status: 501,
      message: 'Transfer-Encoding other than chunked is not supported.',
    };
  }
  const contentEncoding = req.headers['content-encoding'];
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    return {
      status: 415,
      message: 'Content-Encoding is not supported: send the JSON body uncompressed.',
    };
  }
  return undefined;
}

/** The first of SINGLE sent more than once, in one pass over the headers as sent (Node keeps only the first of some). */
function repeatedHeader(req: IncomingMessage): string | undefined {
  const seen = new Set<string>();
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    const name = req.rawHeaders[index]!.toLowerCase();
    if (!SINGLE.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}
