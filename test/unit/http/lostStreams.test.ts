// What the server has to say about a call whose stream the client closed (runtime/http/
// lostStreams.ts): on the listening stream when one is open; otherwise held for the next
// one, at most HELD_AT_MOST messages per session. The end-to-end case, a dialog withdrawn
// with no listening stream open, is in test/e2e/http-dialog-cancel.test.ts.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../../runtime/http/arrival.js';
import {
  HELD_AT_MOST,
  listeningClosed,
  listeningOpened,
  rerouteLostStreams,
  streamLost,
} from '../../../runtime/http/lostStreams.js';

/** A transport that records what reaches the wire and for which request's stream. */
function recordingTransport() {
  const wire: { method: string | undefined; related: unknown }[] = [];
  const transport = {
    send: async (message: JSONRPCMessage, options?: { relatedRequestId?: unknown }) => {
      wire.push({
        method: 'method' in message ? message.method : undefined,
        related: options?.relatedRequestId,
      });
    },
  } as unknown as Transport;
  rerouteLostStreams(transport);
  return { transport, wire };
}

const withdrawal = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId: n },
});

describe('messages about a call whose stream is gone', () => {
  it('go to the listening stream when one is open', async () => {
    const { transport, wire } = recordingTransport();
    await listeningOpened(transport);
    streamLost(transport, { id: 7 });
    await transport.send(withdrawal(1), { relatedRequestId: 7 });
    expect(wire).toEqual([{ method: 'notifications/cancelled', related: undefined }]);
  });

  it('wait for the next listening stream when none is open, the last few of them', async () => {
    const { transport, wire } = recordingTransport();
    const first = await listeningOpened(transport);
    listeningClosed(transport, first);
    streamLost(transport, { id: 7 });
    for (let n = 0; n < HELD_AT_MOST + 3; n++)
      await transport.send(withdrawal(n), { relatedRequestId: 7 });
    expect(wire).toEqual([]);
    await listeningOpened(transport);
    expect(wire).toHaveLength(HELD_AT_MOST);
    expect(wire.every((sent) => sent.related === undefined)).toBe(true);
  });

  it('a replaced listening stream that ends late leaves its replacement open', async () => {
    const { transport, wire } = recordingTransport();
    const old = await listeningOpened(transport);
    await listeningOpened(transport);
    listeningClosed(transport, old);
    streamLost(transport, { id: 7 });
    await transport.send(withdrawal(1), { relatedRequestId: 7 });
    expect(wire).toHaveLength(1);
  });

  it('the rest of the session is untouched: a live stream keeps its messages', async () => {
    const { transport, wire } = recordingTransport();
    await transport.send(withdrawal(1), { relatedRequestId: 8 });
    expect(wire).toEqual([{ method: 'notifications/cancelled', related: 8 }]);
  });
});
