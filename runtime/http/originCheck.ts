// Browsers send Origin on every cross-site request; other MCP clients send none. A page
// on any site could otherwise drive this server from a browser on the same machine, so a
// request with an Origin is served only when that origin is listed exactly in
// WOODPECKER_MCP_ALLOWED_ORIGINS (the MCP transport spec asks servers to check it).

/** `scheme://host[:port]` in the URL parser's canonical form, or undefined if it is not one. */
export function canonicalOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // An origin is exactly scheme, host and port: anything more is a mistake, not an origin.
  if (
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  )
    return undefined;
  return url.origin;
}

/** `allowed` holds canonical origins (config has checked them). */
export function originAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined) return true;
  const origin = canonicalOrigin(header);
  return origin !== undefined && allowed.includes(origin);
}
