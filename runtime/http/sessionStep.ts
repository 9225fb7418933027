// The last refusal step: a 2025 request must name a session that is open and was opened
// with this very credential, or open one within the caps. 2026-07-28 requests pass.
import { isInitializeRequest, isLegacyRequest } from '@modelcontextprotocol/server';
import type { Arrival, Transport } from './arrival.js';
import type { Refusal } from './refusal.js';
import type { SessionRegistry } from './sessionRegistry.js';
import type { TokenVerdicts } from './tokenVerdicts.js';

const REJECTED_TOKEN: Refusal = {
  status: 401,
  message:
    'Woodpecker does not accept this bearer token. Create a personal access token in Woodpecker (your user settings) and send it as "Authorization: Bearer <token>".',
  code: -32001,
  challenge: true,
};

/**
 * 2026-07-28 requests are stateless and pass. A 2025 request names a session that is open
 * and was opened with this very credential (a session id is not a credential), or is an
 * initialize with a token Woodpecker accepts, within the session caps.
 */
export async function sessionRefusal(
  arrival: Arrival,
  context: {
    readonly sessions: SessionRegistry<Transport>;
    /** See HttpOptions.verifyToken; each verdict remembered for a minute. */
    readonly verdicts: TokenVerdicts;
  },
): Promise<Refusal | undefined> {
  const { request, body, caller } = arrival;
  if (request.method !== 'POST' && request.headers.get('mcp-protocol-version') === '2026-07-28')
    return {
      status: 405,
      message:
        'MCP 2026-07-28 is served by POST alone (no listening stream, no session to DELETE); send each request as a POST.',
      code: -32600,
      headers: { allow: 'POST' },
    };
  if (!(await isLegacyRequest(request, body))) {
    // Refused as a 2025 initialize is: a token Woodpecker rejects gets no discovery, no
    // tool list (admin tools included) and no call, only the reason.
    if (
      caller.authorization.kind === 'bearer' &&
      (await context.verdicts.of(caller.authorization.token, caller.credential)) === false
    )
      return REJECTED_TOKEN;
    arrival.learn({ route: { kind: 'stateless' } });
    return undefined;
  }
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId) {
    const found = context.sessions.lookup(sessionId, caller.credential);
    if (found.kind === 'found') {
      arrival.learn({ route: { kind: 'session', transport: found.transport } });
      return undefined;
    }
    if (found.kind === 'unknown')
      return { status: 404, message: 'Unknown or expired session; initialize again.' };
    return caller.authorization.kind === 'none'
      ? {
          status: 401,
          message:
            'This session was opened with a bearer token; send the same Authorization header on every request of the session.',
          code: -32001,
          challenge: true,
        }
      : {
          status: 403,
          message:
            'This session was opened with another credential. Send the Authorization header that opened it, or initialize a session of your own.',
          code: -32001,
        };
  }
  if (request.method !== 'POST' || !isInitializeRequest(body))
    return { status: 400, message: 'Send initialize first to open a session.' };
  const verdict =
    caller.authorization.kind === 'bearer'
      ? await context.verdicts.of(caller.authorization.token, caller.credential)
      : undefined;
  if (verdict === false) return REJECTED_TOKEN;
  // The cap counts per account; the session stays bound to this exact credential.
  const account =
    typeof verdict === 'string'
      ? `account:${verdict}`
      : `credential:${caller.credential.toString('hex')}`;
  const admission = context.sessions.admit(caller.credential, account);
  if (!admission.ok) return { status: admission.status, message: admission.message };
  arrival.learn({ route: { kind: 'new-session', reservation: admission.reservation } });
  return undefined;
}
