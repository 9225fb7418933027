// A URL whose host a person may be shown: http(s), a host of hostname syntax (letters,
// digits and hyphens in dot-separated labels, which covers IPv4 too), an optional port,
// then an optional path. No user info, no spaces: what the dialog prints as the host is
// exactly the host the URL reaches.
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/** The `pattern` of a tools.yaml parameter with `format: http_url`. */
export const HTTP_URL_PATTERN = `^https?://${LABEL}(?:\\.${LABEL})*(?::[0-9]{1,5})?(?:/[^\\s@]*)?$`;

/** The lower-cased host (and port) of such a URL, or undefined when it is not one. */
export function httpUrlHost(value: unknown): string | undefined {
  if (typeof value !== 'string' || !new RegExp(HTTP_URL_PATTERN).test(value)) return undefined;
  return URL.canParse(value) ? new URL(value).host : undefined;
}
