// The line of a dialog that lets a person check what they approve: the web UI page where
// Woodpecker shows the object. Secrets and registries have no ids in the web UI, so an
// id alone tells a person nothing; the page does.
//
// Only the configured WOODPECKER_URL and integers enter the link: a placeholder filled
// by anything but a non-negative safe integer drops the whole line, so a name a pusher
// chose ("../admin", "a/b") can never become part of a path, and nothing from the
// request (a Host header, an argument) chooses the address.
import type { PageLink, ToolArgs } from '../core/tool.js';
import { valueAt } from './guardPredicates.js';

const PLACEHOLDER = /\{([^{}\s]+)\}/g;
const ANSWER_PREFIX = 'current.';

/**
 * The dialog line for the first entry whose `when` holds and whose ids were all given
 * (an organization's page when org_id came, the server's otherwise), or undefined when
 * none does. An id given but not a non-negative safe integer drops the line rather than
 * falling through to another page. `webUrl` is WOODPECKER_URL as the configuration
 * normalised it (scheme, host, optional sub-path, no trailing slash); without it the line
 * names the page in words only.
 */
export function pageLine(
  links: readonly PageLink[] | undefined,
  args: ToolArgs,
  current: unknown,
  webUrl: string | undefined,
): string | undefined {
  for (const link of links ?? []) {
    if (!Object.entries(link.when ?? {}).every(([param, value]) => args[param] === value)) continue;
    const where = fill(link.where, args, current);
    const path = fill(link.path, args, current);
    if (where === ABSENT || path === ABSENT) continue;
    if (where === undefined || path === undefined) return undefined;
    return webUrl === undefined
      ? `Where to check it: ${where} in Woodpecker's web UI.`
      : `Check it in Woodpecker: ${where}, ${webUrl}${path}`;
  }
  return undefined;
}

/** A placeholder whose value was not given at all: the next entry may fit. */
const ABSENT = Symbol('absent');

function fill(
  template: string,
  args: ToolArgs,
  current: unknown,
): string | undefined | typeof ABSENT {
  let missing = false;
  let absent = false;
  const text = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = name.startsWith(ANSWER_PREFIX)
      ? valueAt(current, name.slice(ANSWER_PREFIX.length))
      : args[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
      return String(value);
    if (value === undefined) absent = true;
    else missing = true;
    return '';
  });
  return missing ? undefined : absent ? ABSENT : text;
}
