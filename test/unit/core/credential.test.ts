// Issue 34: a per-credential build limit counted four accepted spellings of one token as
// four credentials (8 builds for a limit of 2).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalToken } from '../../../runtime/core/credential.js';
import { principalDigest } from '../../../runtime/gate/fingerprint.js';
import { CredentialHasher } from '../../../runtime/http/authorization.js';

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const header = b64('{"alg":"HS256","typ":"JWT"}');
const payload = b64('{"type":"user","user-id":"1"}');
const signature = b64(createHmac('sha256', 'k').update(`${header}.${payload}`).digest());
const token = `${header}.${payload}.${signature}`;

/** The other spellings Go's base64 decoder reads as the same bytes: the unused bits set. */
function spellings(): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(signature.at(-1)!);
  return [0, 1, 2, 3].map(
    (bits) => `${header}.${payload}.${signature.slice(0, -1)}${alphabet[(last & ~3) | bits]}`,
  );
}

describe('one token, four spellings', () => {
  it('decode to the same bytes, and so to one canonical token', () => {
    const all = spellings();
    expect(new Set(all).size).toBe(4);
    expect(new Set(all.map(canonicalToken))).toEqual(new Set([canonicalToken(token)]));
  });

  it('are one principal for approvals and build limits', () => {
    expect(new Set(spellings().map(principalDigest)).size).toBe(1);
  });

  it('a session stays bound to the exact string that opened it (sessions count per account)', () => {
    const hasher = new CredentialHasher();
    const hashes = spellings().map((spelling) =>
      hasher.hash({ kind: 'bearer', token: spelling }).toString('hex'),
    );
    expect(new Set(hashes).size).toBe(4);
  });

  it('another token stays another principal; a token that is not a JWT is kept as it is', () => {
    expect(principalDigest(token)).not.toBe(principalDigest(`${token.slice(0, -2)}xy`));
    expect(canonicalToken('not-a-jwt')).toBe('not-a-jwt');
    expect(canonicalToken('a.b.c.d')).toBe('a.b.c.d');
  });
});
