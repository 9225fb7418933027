// Sealed state: a small JSON payload with an expiry, signed with HMAC-SHA256. It is
// what ties an answer to the question it answers (2026-07-28 requestState) and what a
// two-call token is made of. Signed, not encrypted: anyone who sees it reads a kind, a
// tool name, a fingerprint, a principal digest and times. The fingerprint is keyed
// (`bind`), so a guess at a bound value (a secret's value) cannot be checked against it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SealPayload {
  /** What the seal is for: a question asked through a dialog, or a two-call token. */
  readonly kind: 'question' | 'token';
  readonly tool: string;
  /** Digest of the call's targets (and body, where bound). */
  readonly fingerprint: string;
  /** Digest of whoever the call runs as, so one user's approval cannot act for another. */
  readonly principal: string;
}

interface SealedBody extends SealPayload {
  readonly expiresAt: number;
  readonly nonce: string;
}

export type OpenResult =
  | {
      readonly ok: true;
      readonly payload: SealPayload;
      /** Unique per seal: what a single-use approval is spent under. */
      readonly nonce: string;
      readonly expiresAt: number;
    }
  | { readonly ok: false; readonly reason: 'malformed' | 'bad-signature' | 'expired' };

const VERSION = 'w1';

/**
 * Where the key came from, which decides what a token that does not open can mean:
 * configured (WOODPECKER_MCP_SEAL_KEY), derived from the configured Woodpecker token, or
 * random for this process only.
 */
export type SealKeySource = 'configured' | 'derived' | 'random';

/** Labels the derivation, so this key is never the same bytes as any other use of the token. */
const DERIVATION_LABEL = 'woodpecker-ci-mcp seal key v1';

/**
 * The key when none is configured: derived from the server-wide Woodpecker token, so
 * that every process started with the same token (a client that starts one server per
 * call, a restart) opens the others' tokens without any setting. Whoever holds that token
 * could mint confirm tokens, but could also call Woodpecker directly, so this adds no
 * reach; the model never sees the token. Without a token (HTTP, per-request tokens) the
 * key is random per process.
 */
export function sealKeyFor(
  configured: Buffer | undefined,
  woodpeckerToken: string | undefined,
): { key: Buffer | undefined; source: SealKeySource } {
  if (configured) return { key: configured, source: 'configured' };
  if (woodpeckerToken)
    return {
      key: createHmac('sha256', DERIVATION_LABEL).update(woodpeckerToken, 'utf8').digest(),
      source: 'derived',
    };
  return { key: undefined, source: 'random' };
}

export class Sealer {
  private readonly key: Buffer;

  /**
   * @param key 32+ bytes shared by every replica that must open these seals; a random
   *   per-process key when omitted.
   * @param now injectable clock (milliseconds), for expiry tests.
   * @param keySource where `key` came from, for explaining a token that does not open.
   */
  constructor(
    key: Buffer | undefined,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    readonly keySource: SealKeySource = key ? 'configured' : 'random',
  ) {
    this.key = key ?? randomBytes(32);
  }

  seal(payload: SealPayload): string {
    const body: SealedBody = {
      ...payload,
      expiresAt: this.now() + this.ttlMs,
      nonce: randomBytes(9).toString('base64url'),
    };
    const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
    return `${VERSION}.${encoded}.${this.mac(encoded)}`;
  }

  open(sealed: unknown): OpenResult {
    if (typeof sealed !== 'string' || sealed.length > 4096)
      return { ok: false, reason: 'malformed' };
    const parts = sealed.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
    const [, encoded = '', mac = ''] = parts;
    const expected = Buffer.from(this.mac(encoded), 'base64url');
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, reason: 'bad-signature' };
    let body: SealedBody;
    try {
      body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as SealedBody;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (typeof body.expiresAt !== 'number' || body.expiresAt <= this.now())
      return { ok: false, reason: 'expired' };
    if (body.kind !== 'question' && body.kind !== 'token')
      return { ok: false, reason: 'malformed' };
    return {
      ok: true,
      nonce: String(body.nonce),
      expiresAt: body.expiresAt,
      payload: {
        kind: body.kind,
        tool: body.tool,
        fingerprint: body.fingerprint,
        principal: body.principal,
      },
    };
  }

  /**
   * The fingerprint as a seal carries it: an HMAC under this key (separate from the
   * seal's own MAC by its prefix), not a digest anyone could recompute from guesses.
   */
  bind(fingerprint: string): string {
    return createHmac('sha256', this.key).update(`fingerprint\0${fingerprint}`).digest('base64url');
  }

  private mac(encoded: string): string {
    return createHmac('sha256', this.key).update(`${VERSION}.${encoded}`).digest('base64url');
  }
}
