// How the HTTP transport says no: a status, one sentence that names what to send instead,
// and the headers that go with it. Every refusal, whichever step made it, is written here.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { requestIdOf } from '../mcp/wireChecks.js';

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

/** What a refusal answers: the request's id where it was read, and its revision. */
export interface Refused {
  readonly id: string | number | null;
  /** 2026-07-28 (its header or its _meta said so): no code in -32000…-32019 there. */
  readonly modern: boolean;
}

export function refusedOf(headers: IncomingHttpHeaders, body: unknown): Refused {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params
    ?._meta;
  return {
    id: requestIdOf(body),
    modern:
      headers['mcp-protocol-version'] === '2026-07-28' ||
      typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string',
  };
}

/** -32000…-32019 are the implementation's own on 2025; 2026-07-28 answers use none of them. */
function codeFor(code: number, refused: Refused): number {
  return refused.modern && code <= -32000 && code >= -32019 ? -32600 : code;
}

function jsonRpcErrorBody(message: string, code: number, refused: Refused): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    error: { code: codeFor(code, refused), message },
    id: refused.id,
  });
}

const UNREAD: Refused = { id: null, modern: false };

/** Writes a refusal in one piece, with its length (no chunked framing for one sentence). */
export function writeRefusal(res: ServerResponse, refusal: Refusal, refused = UNREAD): void {
  const { headers, body } = refusalParts(refusal, refused);
  const bytes = Buffer.from(body, 'utf8');
  res
    .writeHead(refusal.status, { ...headers, 'content-length': String(bytes.byteLength) })
    .end(bytes);
}

function refusalParts(
  refusal: Refusal,
  refused: Refused,
): { headers: Record<string, string>; body: string } {
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
    body: jsonRpcErrorBody(refusal.message, refusal.code ?? -32000, refused),
  };
}
