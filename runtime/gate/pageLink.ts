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
 * The dialog line for the first entry whose `when` holds, or undefined when none does or
 * an id is missing. `webUrl` is WOODPECKER_URL as the configuration normalised it
 * (scheme, host, optional sub-path, no trailing slash); without it the line names the
 * page in words only.
 */
export function pageLine(
  links: readonly PageLink[] | undefined,
  args: ToolArgs,
  current: unknown,
  webUrl: string | undefined,
): string | undefined {
  const link = (links ?? []).find((entry) =>
    Object.entries(entry.when ?? {}).every(([param, value]) => args[param] === value),
  );
  if (!link) return undefined;
  const where = fill(link.where, args, current);
  const path = fill(link.path, args, current);
  if (where === undefined || path === undefined) return undefined;
  return webUrl === undefined
    ? `Where to check it: ${where} in Woodpecker's web UI.`
    : `Check it in Woodpecker: ${where}, ${webUrl}${path}`;
}

function fill(template: string, args: ToolArgs, current: unknown): string | undefined {
  let missing = false;
  const text = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = name.startsWith(ANSWER_PREFIX)
      ? valueAt(current, name.slice(ANSWER_PREFIX.length))
      : args[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
      return String(value);
    missing = true;
    return '';
  });
  return missing ? undefined : text;
}
