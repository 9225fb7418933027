// Woodpecker's API tokens, session cookies and hook URLs all carry JWTs. Anything the
// harness prints (log tails in errors, forge request logs) goes through this first.
const jwtPattern = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;
const accessTokenQuery = /(access_token=)[^&\s"]+/g;

export function redactSecrets(text: string): string {
  return text.replace(jwtPattern, '<redacted-jwt>').replace(accessTokenQuery, '$1<redacted>');
}
