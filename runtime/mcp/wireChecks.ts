// Answers the SDK words otherwise than a client library expects (issue 33): both
// transports put each request through wireError before the SDK sees it, and each
// 2025-era answer through legacyAnswer on its way out.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

export interface WireError {
  readonly code: number;
  readonly message: string;
}

const INVALID_PARAMS = -32602;

/**
 * The error for a request the SDK would answer with a schema-validation dump, or serve
 * although the spec says no: `"arguments": null` (or a list, a string) on tools/call,
 * and any `cursor` on a list request (this server answers every list whole and gives
 * out no cursor, so none can be valid). Undefined when the request may go on.
 */
export function wireError(message: unknown): WireError | undefined {
  const request = message as { method?: unknown; params?: unknown } | null;
  if (typeof request !== 'object' || request === null || typeof request.method !== 'string')
    return undefined;
  const params = request.params as Record<string, unknown> | undefined;
  if (typeof params !== 'object' || params === null) return undefined;
  if (request.method === 'tools/call' && 'arguments' in params) {
    const given = params.arguments;
    if (given === null || typeof given !== 'object' || Array.isArray(given))
      return {
        code: INVALID_PARAMS,
        message: `arguments must be an object of the tool's parameters, or left out (it was ${kindOf(given)}).`,
      };
  }
  if (request.method.endsWith('/list') && params.cursor !== undefined)
    return {
      code: INVALID_PARAMS,
      message: `cursor is not one this server gave: it answers ${request.method} whole, with no nextCursor; call it without a cursor.`,
    };
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** The JSON-RPC error answer to `request` for `error`, with the request's id when it has one. */
export function errorAnswer(request: unknown, error: WireError): JSONRPCMessage {
  return { jsonrpc: '2.0', id: requestIdOf(request), error } as JSONRPCMessage;
}

/** The id of a single JSON-RPC request, or null where none can be read. */
export function requestIdOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A 2025-era answer as 2025-11-25 words it: the SDK answers a missing resource with
 * -32602 (the 2026-07-28 code) on every revision; 2025-11-25 says -32002.
 */
export function legacyAnswer(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; data?: unknown } }).error;
  const data = error?.data as Record<string, unknown> | undefined;
  const resourceNotFound =
    error?.code === INVALID_PARAMS &&
    typeof data === 'object' &&
    data !== null &&
    Object.keys(data).length === 1 &&
    typeof data.uri === 'string';
  return resourceNotFound
    ? ({ ...message, error: { ...error, code: -32002 } } as JSONRPCMessage)
    : message;
}
