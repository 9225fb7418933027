// A 2025 client may end a call's POST stream before the call ends: the Go SDK cancels the
// HTTP request with the call's context, then sends notifications/cancelled. What the server
// still has to say about that call (the withdrawal of its open dialog, a dialog asked
// after the stream went) would go to that stream and be lost silently: the SDK writes a
// related message only to its request's stream. Such messages go to the session's
// listening stream instead, where the spec lets a server send what it has to say.
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import type { Transport } from './arrival.js';

const lost = new WeakMap<Transport, Set<RequestId>>();

/** Makes `transport` send what relates to a request whose stream is gone on the listening stream. */
export function rerouteLostStreams(transport: Transport): void {
  const gone = new Set<RequestId>();
  lost.set(transport, gone);
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const related = options?.relatedRequestId;
    if ('id' in message && ('result' in message || 'error' in message)) {
      // The call's own answer: nowhere else to go; the request is over.
      gone.delete(message.id as RequestId);
      return send(message, options);
    }
    if (related !== undefined && gone.has(related)) {
      const { relatedRequestId: _gone, ...rest } = options ?? {};
      return send(message, rest);
    }
    return send(message, options);
  };
}

/** Notes that the client closed the stream of its request `id` before the answer. */
export function streamLost(transport: Transport, body: unknown): void {
  const id = (body as { id?: unknown; method?: unknown } | undefined)?.id;
  if (typeof id === 'string' || typeof id === 'number') lost.get(transport)?.add(id);
}
