// How many builds a cron schedule can start within a limit's window. Creating or
// enabling a cron starts no build now, but it starts them later without asking anyone,
// so a `limit` rule refuses a cron whose own schedule would exceed it.
//
// As Woodpecker runs a cron (server/cron in its sources): its scheduler looks once a
// minute and starts each due cron at most once per look; a schedule is five fields
// (minute, hour, day of month, month, day of week) or a descriptor (@hourly, @every 90m,
// ...), optionally after `TZ=<zone> `. Counting errs high, never low: a form this reads
// only roughly (the last day of a month, the n-th weekday) counts as every day, and a
// schedule it cannot read at all as firing at every look.
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Simulated from here: a leap year, so February 29 is in it. */
const SIMULATION_START = Date.UTC(2024, 0, 1);
const SIMULATED_DAYS = 366;

const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The most builds the schedule can start in any window of `windowMs` (open at its start). */
export function mostBuildsIn(schedule: string, windowMs: number): number {
  const everyLook = Math.ceil(windowMs / MINUTE_MS);
  const spec = schedule.trim().replace(/^(?:CRON_)?TZ=\S+\s+/, '');
  const every = /^@every\s+(\S+)$/.exec(spec);
  if (every) {
    const interval = durationMs(every[1]!);
    return interval === undefined ? everyLook : Math.ceil(windowMs / Math.max(interval, MINUTE_MS));
  }
  const fields = (DESCRIPTORS[spec] ?? spec).split(/\s+/);
  if (fields.length !== 5) return everyLook;
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  const minutes = valuesOf(minute, 0, 59);
  const hours = valuesOf(hour, 0, 23);
  const months = valuesOf(month, 1, 12, MONTHS, 1);
  const days = dayMatcher(dom, dow);
  if (!minutes || !hours || !months || !days) return everyLook;
  if (windowMs > SIMULATED_DAYS * DAY_MS)
    return (
      mostBuildsIn(schedule, SIMULATED_DAYS * DAY_MS) *
      Math.ceil(windowMs / (SIMULATED_DAYS * DAY_MS))
    );

  const fires: number[] = [];
  const spanDays = SIMULATED_DAYS + Math.ceil(windowMs / DAY_MS);
  for (let day = 0; day < spanDays; day++) {
    const date = new Date(SIMULATION_START + day * DAY_MS);
    if (!months.has(date.getUTCMonth() + 1) || !days(date.getUTCDate(), date.getUTCDay())) continue;
    for (const h of [...hours].sort((a, b) => a - b))
      for (const m of [...minutes].sort((a, b) => a - b))
        fires.push(date.getTime() + (h * 60 + m) * MINUTE_MS);
  }
  let most = 0;
  let first = 0;
  for (let last = 0; last < fires.length; last++) {
    while (fires[first]! <= fires[last]! - windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** The values a field allows, or undefined when it cannot be read. */
function valuesOf(
  field: string,
  low: number,
  high: number,
  names: readonly string[] = [],
  firstName = 0,
): Set<number> | undefined {
  const values = new Set<number>();
  const number = (text: string): number | undefined => {
    const named = names.indexOf(text.toLowerCase());
    if (named !== -1) return named + firstName;
    return /^\d+$/.test(text) ? Number(text) : undefined;
  };
  for (const option of field.split(',')) {
    const [range = '', stepText, extra] = option.split('/');
    if (extra !== undefined) return undefined;
    const step = stepText === undefined ? 1 : number(stepText);
    if (step === undefined || step < 1) return undefined;
    let from: number | undefined;
    let to: number | undefined;
    if (range === '*' || range === '?') [from, to] = [low, high];
    else {
      const [a = '', b, more] = range.split('-');
      if (more !== undefined) return undefined;
      from = number(a);
      to = b === undefined ? (stepText === undefined ? from : high) : number(b);
    }
    if (from === undefined || to === undefined || from < low || to > high || from > to)
      return undefined;
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

/**
 * Whether a day fires: with either field `*` or `?`, both must allow the day; with both
 * restricted, either may (Woodpecker's cron library does the same). A form read only
 * roughly (L, W, #) allows every day.
 */
function dayMatcher(
  dom: string,
  dow: string,
): ((dayOfMonth: number, weekday: number) => boolean) | undefined {
  // Woodpecker's library spells these in capitals only; weekday names hold no L.
  const doms = /[LW]/.test(dom) ? valuesOf('*', 1, 31) : valuesOf(dom, 1, 31);
  const dows = /[L#]/.test(dow) ? valuesOf('*', 0, 7) : valuesOf(dow, 0, 7, WEEKDAYS);
  if (!doms || !dows) return undefined;
  if (dows.has(7)) dows.add(0);
  const open = (field: string) => field.split(',').some((part) => part === '*' || part === '?');
  if (open(dom) || open(dow)) return (day, weekday) => doms.has(day) && dows.has(weekday);
  return (day, weekday) => doms.has(day) || dows.has(weekday);
}

/** A Go duration ("90m", "1h30m", "45s"), in milliseconds; undefined when it is not one. */
function durationMs(text: string): number | undefined {
  const units: Record<string, number> = { ms: 1, s: 1000, m: MINUTE_MS, h: 60 * MINUTE_MS };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return undefined;
  return parts.reduce((sum, part) => sum + Number(part[1]) * units[part[2]!]!, 0);
}
