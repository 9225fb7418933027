// Which Host header values the HTTP transport answers. A web page can point a name it
// controls at 127.0.0.1 (DNS rebinding); its requests then carry that name in Host, so a
// server that serves only the names it knows cannot be reached that way. Names are parsed
// and compared whole: a prefix test would let `127.0.0.1.nip.io` through.
import { isIPv4, isIPv6 } from 'node:net';

export interface HostPolicy {
  /** The address the server listens on (`--host`). */
  readonly boundHost: string;
  /** The port it actually listens on. */
  readonly port: number;
  /** Extra names (`name` or `name:port`), from WOODPECKER_MCP_ALLOWED_HOSTS. */
  readonly allowedHosts: readonly string[];
}

interface ParsedHost {
  /** Lower case; an IPv6 literal keeps its brackets. */
  readonly name: string;
  readonly port: number | undefined;
}

const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

/** Splits `name[:port]` or `[v6][:port]`; anything else (userinfo, paths, spaces) is undefined. */
export function parseHost(value: string): ParsedHost | undefined {
  const match = HOST_HEADER.exec(value.trim().toLowerCase());
  if (!match?.[1]) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { name: match[1], port };
}

/** `localhost`, an IPv4 literal in 127.0.0.0/8, or the IPv6 literal ::1 (bracketed or not). */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === 'localhost') return true;
  if (isIPv4(lower)) return lower.split('.')[0] === '127';
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  // The URL parser writes any spelling of an IPv6 address in its one canonical form.
  return isIPv6(bare) && new URL(`http://[${bare}]/`).hostname === '[::1]';
}

/**
 * On a loopback address, or when names are configured, only loopback literals and the
 * configured names are served. A server bound to another address with no names
 * configured answers any Host: it is meant to sit behind a proxy that chooses names.
 */
export function hostAllowed(header: string | undefined, policy: HostPolicy): boolean {
  const restricted = isLoopbackName(policy.boundHost) || policy.allowedHosts.length > 0;
  if (!restricted) return true;
  if (header === undefined) return false;
  const host = parseHost(header);
  if (!host) return false;
  // Listed names first: a balancer on loopback with a port of its own (127.0.0.1:8080 in
  // front of a replica on :3030) is served only when the operator lists it with that port.
  if (listedHost(host, policy)) return true;
  return isLoopbackName(host.name) && (host.port === undefined || host.port === policy.port);
}

function listedHost(host: ParsedHost, policy: HostPolicy): boolean {
  return policy.allowedHosts.some((entry) => {
    const allowed = parseHost(entry);
    if (!allowed || allowed.name !== host.name) return false;
    // An entry with a port is what a proxy in front sends; without one, the Host may
    // name our own port or none.
    if (allowed.port !== undefined) return host.port === allowed.port;
    return host.port === undefined || host.port === policy.port;
  });
}
