// What a request's Authorization header says. Only its complete absence lets the server's
// own token (WOODPECKER_TOKEN) act; a header that is present but not a well-formed bearer
// token is refused, so a client whose token went missing or got mangled never silently
// runs as the server's account.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type Authorization =
  | { readonly kind: 'none' }
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'malformed' };

// RFC 6750: the scheme, one space, a b64token (what Woodpecker's JWTs are made of).
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

export function readAuthorization(header: string | undefined): Authorization {
  if (header === undefined) return { kind: 'none' };
  const match = BEARER.exec(header);
  return match?.[1] ? { kind: 'bearer', token: match[1] } : { kind: 'malformed' };
}

export const MALFORMED_AUTHORIZATION_MESSAGE =
  'The Authorization header is not a bearer token. Send "Authorization: Bearer <your Woodpecker API token>", or no Authorization header at all to use the server\'s own token (if it has one).';

/**
 * Who a request acts as, reduced to a keyed hash: sessions remember it instead of the
 * token, and limits are counted per credential. The key is random per process, so the
 * hash is useless outside it. Every request without Authorization is one credential.
 */
export class CredentialHasher {
  private readonly key = randomBytes(32);

  hash(authorization: Exclude<Authorization, { kind: 'malformed' }>): Buffer {
    const hmac = createHmac('sha256', this.key);
    hmac.update(
      authorization.kind === 'bearer' ? `bearer\0${authorization.token}` : 'no-authorization',
    );
    return hmac.digest();
  }
}

export function sameCredential(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
