// How the HTTP transport says no: a status, one sentence that names what to send instead,
// and the headers that go with it. Every refusal, whichever step made it, is written here.
import type { ServerResponse } from 'node:http';

export interface Refusal {
  readonly status: number;
  readonly message: string;
  /** The JSON-RPC error code of the body (-32000 unless said). */
  readonly code?: number;
  /** Adds `WWW-Authenticate: Bearer`: a refusal that the right token would lift. */
  readonly challenge?: boolean;
  /** Extra headers: `connection: close` when the body was left unread, `allow`, `retry-after`. */
  readonly headers?: Record<string, string>;
  /** A plain-text line instead of a JSON-RPC error: the request is not one for the MCP endpoint. */
  readonly plain?: boolean;
}

function jsonRpcErrorBody(message: string, code: number): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Writes a refusal in one piece, with its length (no chunked framing for one sentence). */
export function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  const { headers, body } = refusalParts(refusal);
  const bytes = Buffer.from(body, 'utf8');
  res
    .writeHead(refusal.status, { ...headers, 'content-length': String(bytes.byteLength) })
    .end(bytes);
}

function refusalParts(refusal: Refusal): { headers: Record<string, string>; body: string } {
  if (refusal.plain)
    return {
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...refusal.headers },
      body: `${refusal.message}\n`,
    };
  return {
    headers: {
      'content-type': 'application/json',
      ...(refusal.challenge ? { 'www-authenticate': 'Bearer realm="woodpecker-ci-mcp"' } : {}),
      ...refusal.headers,
    },
    body: jsonRpcErrorBody(refusal.message, refusal.code ?? -32000),
  };
}
