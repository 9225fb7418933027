// The guard vocabulary of tools.yaml, as small pure functions. The generator compiles
// each predicate into one call of these; the gate only sees the reasons they produce.
//
// `current` is what the guard's `read` returned (or undefined when there is no read or
// the answer lacks the field). Where the current value is unknown the helpers answer
// "ask": a guard that cannot see the present state must not assume the harmless case.
import type { LevelFinding } from '../core/tool.js';
import { httpUrlHost } from '../core/httpUrl.js';

/** The value at a dotted path ("trusted.network") in a decoded JSON answer. */
export function valueAt(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** `equals`: the argument equals the manifest's value. */
export function equals(arg: unknown, value: string | number | boolean): boolean {
  return arg === value;
}

/** `in`: the argument is one of the manifest's values. */
export function isOneOf(arg: unknown, values: readonly (string | number | boolean)[]): boolean {
  return values.some((value) => value === arg);
}

/** `present`: the argument was given at all (a new secret value, a new password). */
export function isPresent(arg: unknown): boolean {
  return arg !== undefined;
}

/** `absent`: the argument was not given (delete_agent without an org_id acts on a server agent). */
export function isAbsent(arg: unknown): boolean {
  return arg === undefined;
}

/** `grants`: the argument turns a flag on that is not on now. */
export function grants(arg: unknown, current: unknown): boolean {
  return arg === true && current !== true;
}

/**
 * `lowers`: the argument comes later in `order` (strictest first) than the current
 * value. A current value outside `order` (unknown, missing) counts as the strictest, so
 * anything but the strictest asks.
 */
export function lowers(arg: unknown, current: unknown, order: readonly string[]): boolean {
  if (typeof arg !== 'string') return false;
  const wanted = order.indexOf(arg);
  if (wanted < 0) return true;
  const now = typeof current === 'string' ? order.indexOf(current) : -1;
  return wanted > Math.max(now, 0);
}

/**
 * `widens`: the argument comes later in `order` (narrowest first) than the current
 * value — visibility private → internal → public. The mirror of `lowers`, with the same
 * rule for an unknown current value: it counts as the narrowest.
 */
export function widens(arg: unknown, current: unknown, order: readonly string[]): boolean {
  return lowers(arg, current, order);
}

/** `becomes`: the argument sets `value` and the current value is something else. */
export function becomes(arg: unknown, value: string | number | boolean, current: unknown): boolean {
  return arg === value && current !== value;
}

/** `adds`: the argument list contains `value` and the current list does not. */
export function adds(arg: unknown, value: string, current: unknown): boolean {
  if (!Array.isArray(arg) || !arg.includes(value)) return false;
  return !(Array.isArray(current) && current.includes(value));
}

/**
 * `adds_family`: the argument list holds an event of the family (every pull request
 * event, runtime/core/woodpeckerEvents.ts) that the current list does not. Without a
 * current list (a create, or a read without it) any member asks.
 */
export function addsFamily(arg: unknown, family: readonly string[], current: unknown): boolean {
  if (!Array.isArray(arg)) return false;
  const now = Array.isArray(current) ? current : [];
  return family.some((event) => arg.includes(event) && !now.includes(event));
}

/**
 * `adds_any`: the argument list holds an entry the current list does not. An empty (or
 * null) current list means "no restriction" (every image), so no list adds to it; a
 * missing current value is unknown and asks.
 */
export function addsAny(arg: unknown, current: unknown): boolean {
  if (!Array.isArray(arg) || arg.length === 0) return false;
  if (current === null || (Array.isArray(current) && current.length === 0)) return false;
  if (!Array.isArray(current)) return true;
  return arg.some((entry) => !current.includes(entry));
}

/**
 * `shadows`: a level the call outranks (or its own, under another spelling) holds an
 * entry pipelines take for the same name, or a level could not be read (403 for a
 * caller who is not an organization admin, or longer than the bound). Unknown asks.
 */
export function shadows(levels: readonly LevelFinding[] | undefined): boolean {
  return (levels ?? []).some((finding) => finding.status !== 'clear');
}

/**
 * `empties`: the argument list is empty and the current list is not. Go encodes an
 * empty list as `null`, so null counts as empty; a missing value does not.
 */
export function empties(arg: unknown, current: unknown): boolean {
  if (!Array.isArray(arg) || arg.length > 0) return false;
  const currentlyEmpty = current === null || (Array.isArray(current) && current.length === 0);
  return !currentlyEmpty;
}

/**
 * A value shown in a dialog. The manifest only lets integers and enum values in, so
 * this never prints free text; an optional argument that was not given says so.
 */
export function dialogValue(arg: unknown): string {
  if (arg === undefined) return 'not given';
  if (Array.isArray(arg)) return arg.map((item) => String(item)).join(', ');
  return String(arg);
}

/**
 * An id read from Woodpecker's answer, shown in a dialog. The generator lets only fields
 * the spec types as integers in; this prints nothing but an integer even if a server
 * answered otherwise, so no text from an answer can reach the person.
 */
export function dialogId(value: unknown): string {
  return Number.isSafeInteger(value) ? String(value) : '–';
}

/**
 * A closed-vocabulary fact read from Woodpecker (a secret's events), shown in a dialog as
 * a short list: "push, tag". Only values of `vocabulary` (the spec's enum, emitted by the
 * generator) are printed; anything else Woodpecker answers, tampered or newer, shows as
 * "other", so no text from an answer reaches the person. Go encodes an empty list as
 * null: that and [] show as "none"; a missing field as '–'.
 */
export function dialogChoices(value: unknown, vocabulary: readonly string[]): string {
  if (value === undefined) return '–';
  if (value === null) return 'none';
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return 'none';
  const shown = items.map((item) =>
    typeof item === 'string' && vocabulary.includes(item) ? item : 'other',
  );
  return [...new Set(shown)].join(', ');
}

/**
 * How many entries a list read from Woodpecker has (a secret's image filters), shown in a
 * dialog instead of the entries, which are text someone wrote. null is Go's empty list.
 */
export function dialogCount(value: unknown): string {
  if (value === null) return '0';
  return Array.isArray(value) ? String(value.length) : '–';
}

/**
 * The host of a URL argument (`{url.host}`), shown in a dialog. The argument validator
 * already refused anything but an http(s) URL with a hostname; this re-checks, so a value
 * that got past it shows as no host at all rather than as text. An optional URL that was
 * not given shows as 'not given', like any argument left out.
 */
export function dialogHost(arg: unknown): string {
  if (arg === undefined) return 'not given';
  return httpUrlHost(arg) ?? '(no valid host)';
}
