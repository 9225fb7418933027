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

/** A two-call token opened against the call that quotes it. */
export type TokenOpenResult =
  | { readonly ok: true; readonly nonce: string; readonly expiresAt: number }
  | {
      readonly ok: false;
      /** `other-call`: this key made it, but for another tool, arguments or account. */
      readonly reason: 'malformed' | 'bad-signature' | 'expired' | 'other-call';
    };

const VERSION = 'w1';

// A two-call token is quoted back by the model, which pays for every character and may
// slip on a long one, so it carries no payload: the second call's own tool, fingerprint
// and principal are what its MAC is checked against. Bytes: version (1), key id (3),
// expiry in Unix seconds (4), nonce (6), HMAC-SHA256 truncated to 128 bits (16): 30
// bytes, 40 characters of base64url.
const TOKEN_VERSION = 1;
const TOKEN_BYTES = 30;
const TOKEN_MAC_BYTES = 16;

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

  /** A two-call token for this binding (see TOKEN_VERSION for its layout). */
  issueToken(binding: SealPayload): string {
    const bytes = Buffer.alloc(TOKEN_BYTES);
    bytes.writeUInt8(TOKEN_VERSION, 0);
    this.keyId().copy(bytes, 1);
    bytes.writeUInt32BE(Math.floor((this.now() + this.ttlMs) / 1000), 4);
    randomBytes(6).copy(bytes, 8);
    this.tokenMac(binding, bytes.subarray(0, 14)).copy(bytes, 14);
    return bytes.toString('base64url');
  }

  /** Opens a token against the call that quotes it: its tool, fingerprint and principal. */
  openToken(given: unknown, binding: SealPayload): TokenOpenResult {
    if (typeof given !== 'string' || !/^[A-Za-z0-9_-]{40}$/.test(given))
      return { ok: false, reason: 'malformed' };
    const bytes = Buffer.from(given, 'base64url');
    if (bytes.length !== TOKEN_BYTES || bytes.readUInt8(0) !== TOKEN_VERSION)
      return { ok: false, reason: 'malformed' };
    if (!timingSafeEqual(bytes.subarray(1, 4), this.keyId()))
      return { ok: false, reason: 'bad-signature' };
    if (!timingSafeEqual(bytes.subarray(14), this.tokenMac(binding, bytes.subarray(0, 14))))
      return { ok: false, reason: 'other-call' };
    const expiresAt = bytes.readUInt32BE(4) * 1000;
    if (expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, nonce: `t.${bytes.subarray(8, 14).toString('base64url')}`, expiresAt };
  }

  /** Three bytes that tell this key from another, so a token of another process says so. */
  private keyId(): Buffer {
    return createHmac('sha256', this.key).update('token key id').digest().subarray(0, 3);
  }

  private tokenMac(binding: SealPayload, head: Buffer): Buffer {
    const hmac = createHmac('sha256', this.key);
    hmac.update(
      ['token', binding.kind, binding.tool, binding.fingerprint, binding.principal, ''].join('\0'),
    );
    hmac.update(head);
    return hmac.digest().subarray(0, TOKEN_MAC_BYTES);
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
