// One credential, however it is spelt. Woodpecker's tokens are JWTs: three base64url
// segments, decoded by Go without insisting that the unused bits of a segment's last
// character are zero, so one token has several spellings Woodpecker accepts as the same
// (an HS256 signature's last character has four). Whatever counts or binds per credential
// (build limits, approvals) keys on this canonical form, or a caller could count
// as four callers by rewriting one character.
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The token with every JWT segment decoded and encoded again; other tokens as they are. */
export function canonicalToken(token: string): string {
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every((segment) => SEGMENT.test(segment))) return token;
  return segments
    .map((segment) => Buffer.from(segment, 'base64url').toString('base64url'))
    .join('.');
}
