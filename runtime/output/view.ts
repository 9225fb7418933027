// Applies a tool's view (tools.yaml `output.view`) to its answer: only the fields a model
// reads, in the view's order, times as RFC 3339 UTC, how long a pipeline or step ran,
// and nothing empty. An empty string, null, 0, false, [] or {} is left out: Woodpecker
// fills every unset field with one, and a model pays for each. Absent therefore means
// empty, zero or false, never "unknown"; except for a field shown `as_sent` (false is
// the news in a permission), a field the view gives a default
// (`absent_means`), whose absence means that default and which shows every other value,
// a time the view shows only when it differs from another (`time_unless_same_as`), and a
// map without the keys a view names (`without_keys`).
import type { OutputKind, View, ViewScalar } from '../core/tool.js';

/** States in which a started object has not finished yet. */
const UNFINISHED = new Set(['running', 'pending']);

export function applyView(
  data: Record<string, unknown>,
  view: View,
  kind: OutputKind,
): Record<string, unknown> {
  if (kind === 'list' && Array.isArray(data.items))
    return { ...data, items: data.items.map((item) => shaped(item, view)) };
  return kind === 'object' ? (shaped(data, view) as Record<string, unknown>) : data;
}

/**
 * A list's envelope (answer.ts listEnvelope) as a reader needs it, with a view or without:
 * page, per_page and may_have_more only when there may be more to see, the page alone when
 * it is not the first. Absent therefore means "this is all there is".
 */
export function shortEnvelope(data: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(data.items) || typeof data.may_have_more !== 'boolean') return data;
  const { items, page, per_page, may_have_more, ...rest } = data;
  return {
    items,
    ...(may_have_more ? { page, per_page, may_have_more } : page === 1 ? {} : { page }),
    ...rest,
  };
}

function shaped(value: unknown, view: View): unknown {
  if (Array.isArray(value)) return value.map((entry) => shaped(entry, view));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const field of view) {
    const raw = value[field.name];
    if (field.show === 'unless') {
      // Absence stands for the default here, so every other value is news, false included.
      if (raw !== undefined && raw !== null && raw !== defaultOf(field.absentMeans, value))
        out[field.name] = raw;
      continue;
    }
    if (field.show === 'sent') {
      if (raw !== undefined && raw !== null) out[field.name] = raw;
      continue;
    }
    if (field.show === 'without') {
      const kept = withoutEmpties(
        isObject(raw)
          ? Object.fromEntries(Object.entries(raw).filter(([key]) => !field.keys.includes(key)))
          : raw,
      );
      if (!isEmpty(kept)) out[field.name] = kept;
      continue;
    }
    if (
      field.show === 'time' &&
      field.unlessSameAs !== undefined &&
      raw === value[field.unlessSameAs]
    )
      continue;
    const shown =
      field.show === 'time'
        ? timeOf(raw)
        : field.show === 'took'
          ? tookOf(value)
          : field.show === 'view'
            ? shaped(raw, field.view)
            : withoutEmpties(raw);
    if (!isEmpty(shown)) out[field.name] = shown;
  }
  return out;
}

/** `{field}` in a string default: the generator checks the names, the view fills them. */
export const FIELD_PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * A default as the object spells it: `{field}` in a string default stands for that string
 * field of the same object (a pipeline's ref "refs/heads/{branch}"). When the object lacks
 * one, there is no default and every value shows.
 */
function defaultOf(
  absentMeans: ViewScalar,
  object: Record<string, unknown>,
): ViewScalar | undefined {
  if (typeof absentMeans !== 'string' || !absentMeans.includes('{')) return absentMeans;
  let unfilled = false;
  const filled = absentMeans.replace(FIELD_PLACEHOLDER, (_, name: string) => {
    const value = object[name];
    if (typeof value === 'string' && value !== '') return value;
    unfilled = true;
    return '';
  });
  return unfilled ? undefined : filled;
}

/**
 * Unix seconds as RFC 3339 UTC, always with seconds ("2026-12-01T20:41:32Z"), so that a
 * time copied from an answer is accepted where one is asked (list_pipelines' before and
 * after) and times sort as text; 0 is "not yet".
 */
export function timeOf(seconds: unknown): string | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * How long the object ran ("95 s", "12 min 5 s", "2 h 5 min"), "running" while it
 * runs, nothing when it never started or its end is unknown.
 */
export function tookOf(object: Record<string, unknown>): string | undefined {
  const { started, finished } = object;
  if (typeof started !== 'number' || started <= 0) return undefined;
  if (typeof finished === 'number' && finished >= started) return durationOf(finished - started);
  const state = object.state ?? object.status;
  return state === undefined || UNFINISHED.has(String(state)) ? 'running' : undefined;
}

export function durationOf(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 120) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/**
 * The most of one pushed text a view shows, and of one list of names: a pull request's
 * title may be 150 KB, and refusing the whole answer as too big would hide the pipeline
 * from whoever has to decide about it. `detail: "full"` still has everything.
 */
const VIEW_TEXT_CHARS = 2_000;
const VIEW_LIST_ITEMS = 100;

function withoutEmpties(value: unknown): unknown {
  // A commit message ends in a newline a reader does not see, and a model pays for.
  if (typeof value === 'string') return shortened(value.replace(/[\r\n]+$/, ''));
  if (Array.isArray(value)) {
    const kept = value.map(withoutEmpties);
    if (kept.length <= VIEW_LIST_ITEMS || !kept.every((item) => typeof item === 'string'))
      return kept;
    const more = kept.length - VIEW_LIST_ITEMS;
    return [
      ...kept.slice(0, VIEW_LIST_ITEMS),
      `… ${more.toLocaleString('en-US')} more; detail full lists them all`,
    ];
  }
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const kept = withoutEmpties(child);
    if (!isEmpty(kept)) out[key] = kept;
  }
  return out;
}

function shortened(text: string): string {
  if (text.length <= VIEW_TEXT_CHARS) return text;
  // Cut between characters, never inside a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[VIEW_TEXT_CHARS - 1]!)
    ? VIEW_TEXT_CHARS - 1
    : VIEW_TEXT_CHARS;
  const more = (text.length - end).toLocaleString('en-US');
  return `${text.slice(0, end)}… [${more} more characters; detail full has the whole text]`;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false)
    return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
