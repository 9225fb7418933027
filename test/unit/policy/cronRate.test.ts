// How many builds a cron schedule can start within a limit's window, as Woodpecker runs
// it: its scheduler looks once a minute and starts a cron at most once per look.
import { describe, expect, it } from 'vitest';
import { mostBuildsIn } from '../../../runtime/policy/cronRate.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('mostBuildsIn', () => {
  it.each([
    ['* * * * *', HOUR, 60],
    ['* * * * *', 145_000, 3],
    ['*/5 * * * *', HOUR, 12],
    ['0,30 * * * *', HOUR, 2],
    ['0 * * * *', HOUR, 1],
    ['0 * * * *', DAY, 24],
    ['0 3 * * *', DAY, 1],
    ['0 3 * * *', 7 * DAY, 7],
    ['0 3 * * 1', 7 * DAY, 1],
    ['0 3 * * mon-fri', 7 * DAY, 5],
    ['0 3 1 * *', 28 * DAY, 1],
    ['0 3 1 * *', 31 * DAY, 2],
    ['0 9-17 * * *', DAY, 9],
    ['15-45/10 * * * *', HOUR, 4],
    ['@hourly', DAY, 24],
    ['@daily', DAY, 1],
    ['@midnight', 2 * DAY, 2],
    ['@weekly', 7 * DAY, 1],
    ['@monthly', 31 * DAY, 2],
    ['@yearly', 365 * DAY, 1],
    ['@every 10m', HOUR, 6],
    ['@every 30s', HOUR, 60],
    ['@every 1h30m', DAY, 16],
    ['TZ=Europe/Berlin 0 3 * * *', DAY, 1],
    ['0 0 29 2 *', 365 * DAY, 1],
  ])('%s in %d ms: %d', (schedule, windowMs, builds) => {
    expect(mostBuildsIn(schedule, windowMs)).toBe(builds);
  });

  it.each(['', 'nonsense', '61 * * * *', '* * *', '@fortnightly', '0 3 L * *', '0 3 * * 5#3'])(
    'counts a schedule it cannot read exactly, %j, as firing at every look',
    (schedule) => {
      expect(mostBuildsIn(schedule, HOUR)).toBeGreaterThanOrEqual(
        schedule.includes('L') || schedule.includes('#') ? 1 : 60,
      );
    },
  );
});
