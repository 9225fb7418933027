// A 2025 client may end a call's POST stream before the call ends: the Go SDK cancels the
// HTTP request with the call's context, then sends notifications/cancelled. What the server
// still has to say about that call (the withdrawal of its open dialog, a dialog asked
// after the stream went) would go to that stream and be lost silently: the SDK writes a
// related message only to its request's stream. Such messages go to the session's
// listening stream instead, where the spec lets a server send what it has to say.
//
// A client need not hold a listening stream (the Go SDK with DisableStandaloneSSE, mcp-go
// without continuous listening), and the SDK drops silently what it cannot send. So while
// none is open, those messages wait for the session's next one, the last HELD_AT_MOST of
// them (a dialog's withdrawal is one message; nothing else accumulates). If none ever
// opens, they go with the session. A person who answers a withdrawn dialog meanwhile
// changes nothing: the cancelled call is over, and the SDK drops an answer to a question
// nobody waits for (docs/asking-a-person.md).
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import type { Transport } from './arrival.js';

/** How many messages wait for a listening stream, per session; older ones are dropped. */
export const HELD_AT_MOST = 16;

interface Lost {
  /** Requests whose stream the client closed before their answer. */
  readonly gone: Set<RequestId>;
  /** Messages about them, waiting for a listening stream. */
  readonly held: JSONRPCMessage[];
  /** The listening stream open now (a number per stream), if any. */
  listening: number | undefined;
  streams: number;
  /** The transport's own send, for the held messages. */
  readonly send: Transport['send'];
}

const lost = new WeakMap<Transport, Lost>();

/** Makes `transport` send what relates to a request whose stream is gone on the listening stream. */
export function rerouteLostStreams(transport: Transport): void {
  const send = transport.send.bind(transport);
  const state: Lost = { gone: new Set(), held: [], listening: undefined, streams: 0, send };
  lost.set(transport, state);
  transport.send = (message: JSONRPCMessage, options) => {
    const related = options?.relatedRequestId;
    if ('id' in message && ('result' in message || 'error' in message)) {
      // The call's own answer: nowhere else to go; the request is over.
      state.gone.delete(message.id as RequestId);
      return send(message, options);
    }
    if (related !== undefined && state.gone.has(related)) {
      if (state.listening === undefined) {
        state.held.push(message);
        if (state.held.length > HELD_AT_MOST) state.held.shift();
        return Promise.resolve();
      }
      const { relatedRequestId: _gone, ...rest } = options ?? {};
      return send(message, rest);
    }
    return send(message, options);
  };
}

/** Notes that the client closed the stream of its request `id` before the answer. */
export function streamLost(transport: Transport, body: unknown): void {
  const id = (body as { id?: unknown; method?: unknown } | undefined)?.id;
  if (typeof id === 'string' || typeof id === 'number') lost.get(transport)?.gone.add(id);
}

/**
 * Notes that a listening stream of `transport`'s session opened (the SDK answered its GET
 * with an event stream), sends it what was held, and returns the stream's number for
 * listeningClosed.
 */
export async function listeningOpened(transport: Transport): Promise<number | undefined> {
  const state = lost.get(transport);
  if (!state) return undefined;
  const stream = ++state.streams;
  state.listening = stream;
  for (const message of state.held.splice(0)) await state.send(message);
  return stream;
}

/** Notes that listening stream `stream` ended; a newer one that replaced it stays open. */
export function listeningClosed(transport: Transport, stream: number | undefined): void {
  const state = lost.get(transport);
  if (state && stream !== undefined && state.listening === stream) state.listening = undefined;
}
