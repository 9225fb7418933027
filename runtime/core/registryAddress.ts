// A registry address as Woodpecker will take it. Woodpecker stores a registry only if Go's
// url.Parse accepts its address (server/model/registry.go, Validate), and answers 400
// otherwise: "%c" (a broken escape), "127.0.0.1:5000" (Go reads "127.0.0.1" as a path
// segment holding a colon) and "host:80:80" are all refused there. The fuzz of issue 36
// sent such addresses. This check is stricter than Go where a stricter rule is simpler and
// no registry needs more: it takes ASCII names, ports and paths, and no escapes, queries,
// fragments or spaces.

const ALLOWED = /^[A-Za-z0-9\-._~:/@[\]]+$/;
const HINT =
  'Give the registry as an image name starts, for example docker.io, ghcr.io or registry.example.com:5000, and call again.';

/** Why Woodpecker would refuse this address (a sentence after the field's name), or undefined. */
export function registryAddressProblem(address: string): string | undefined {
  if (!ALLOWED.test(address))
    return `holds a character a registry address does not (only letters, digits and - . _ ~ : / @ [ ] are taken; no %-escapes, ?, #, spaces or non-ASCII letters). ${HINT}`;
  const { scheme, rest } = schemeOf(address);
  if (scheme === 'missing')
    return `starts with ":", which Woodpecker's URL parser refuses (a scheme is missing). ${HINT}`;
  if (!rest.startsWith('/')) {
    // With a scheme ("localhost:5000" reads as scheme localhost), the rest is opaque.
    if (scheme !== undefined) return undefined;
    const firstSegment = rest.split('/', 1)[0]!;
    if (firstSegment.includes(':'))
      return `has a colon in its first part before any "/", which Woodpecker's URL parser refuses unless the part before it is a name starting with a letter ("127.0.0.1:5000" is refused, "localhost:5000" is taken). ${HINT}`;
    return bracketProblem(rest);
  }
  if (rest.startsWith('//') && (scheme !== undefined || !rest.startsWith('///'))) {
    const authority = rest.slice(2).split('/', 1)[0]!;
    return authorityProblem(authority) ?? bracketProblem(rest.slice(2 + authority.length));
  }
  return bracketProblem(rest);
}

/** Go's getScheme: letters, then letters, digits, + - . up to the first colon. */
function schemeOf(address: string): { scheme: string | undefined | 'missing'; rest: string } {
  for (let i = 0; i < address.length; i++) {
    const c = address[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { scheme: undefined, rest: address };
      continue;
    }
    if (c === ':') {
      if (i === 0) return { scheme: 'missing', rest: address };
      return { scheme: address.slice(0, i), rest: address.slice(i + 1) };
    }
    return { scheme: undefined, rest: address };
  }
  return { scheme: undefined, rest: address };
}

/** user@host:port as Go reads it; brackets only around a whole IPv6 host. */
function authorityProblem(authority: string): string | undefined {
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? '' : authority.slice(0, at);
  const host = at < 0 ? authority : authority.slice(at + 1);
  if (/[[\]]/.test(userinfo))
    return `has [ or ] before its "@", which Woodpecker's URL parser refuses. ${HINT}`;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0 || host.indexOf('[', 1) >= 0 || host.indexOf(']', close + 1) >= 0)
      return `opens an IPv6 host with "[" but does not close it once with "]". ${HINT}`;
    return portProblem(host.slice(close + 1));
  }
  if (/[[\]]/.test(host))
    return `has [ or ] inside its host; brackets may only enclose a whole IPv6 address. ${HINT}`;
  const colons = host.split(':').length - 1;
  if (colons > 1)
    return `has more than one colon in its host (an IPv6 address must be written in brackets, [::1]:5000). ${HINT}`;
  return colons === 1 ? portProblem(host.slice(host.indexOf(':'))) : undefined;
}

function portProblem(afterHost: string): string | undefined {
  if (afterHost === '' || /^:[0-9]*$/.test(afterHost)) return undefined;
  return `has a port that is not a number. ${HINT}`;
}

/** Outside a bracketed host, Go takes brackets in a path; newer Go refuses some: refuse all. */
function bracketProblem(path: string): string | undefined {
  return /[[\]]/.test(path) ? `has [ or ] outside a bracketed IPv6 host. ${HINT}` : undefined;
}
