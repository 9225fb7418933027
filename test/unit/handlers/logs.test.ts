import { describe, expect, it } from 'vitest';
import {
  cleanTerminalText,
  decodeLogEntries,
  outputLines,
  windowOf,
} from '../../../runtime/handlers/reads/logs.js';
import { compileMatcher, searchLines } from '../../../runtime/handlers/search_logs.js';

const entry = (line: number, text: string, type = 0) => ({
  id: line + 100,
  step_id: 9,
  time: line,
  line,
  type,
  data: Buffer.from(text).toString('base64'),
});

describe('decodeLogEntries', () => {
  it('decodes base64, orders by line, names the stream', () => {
    const lines = decodeLogEntries([entry(1, 'second\n', 1), entry(0, 'first\n')]);
    expect(lines).toEqual([
      { line: 0, stream: 'stdout', text: 'first' },
      { line: 1, stream: 'stderr', text: 'second' },
    ]);
  });
  it('accepts null (no entries yet)', () => expect(decodeLogEntries(null)).toEqual([]));
  it('keeps output lines only for reading', () => {
    expect(
      outputLines(decodeLogEntries([entry(0, 'a'), entry(1, '{}', 3), entry(2, '50%', 4)])).map(
        (l) => l.text,
      ),
    ).toEqual(['a']);
  });
});

describe('cleanTerminalText', () => {
  it.each([
    ['\u001b[31mred\u001b[0m text', 'red text'],
    ['\u001b[1;32mOK\u001b[m', 'OK'],
    ['progress 10%\rprogress 50%\rprogress 100%', 'progress 100%'],
    ['line\r\n', 'line'],
    ['\u001b]0;title\u0007after', 'after'],
    ['bell\u0007 and nul\u0000', 'bell and nul'],
  ])('%j → %j', (raw, clean) => expect(cleanTerminalText(raw)).toBe(clean));
});

describe('windowOf', () => {
  const lines = Array.from({ length: 500 }, (_, i) => ({
    line: i,
    stream: 'stdout' as const,
    text: `l${i}`,
  }));
  it('returns the tail by default and says which window', () => {
    const window = windowOf(lines, 200, 'tail');
    expect(window).toMatchObject({
      total_lines: 500,
      returned: 200,
      first_line: 300,
      last_line: 499,
      truncated: true,
    });
  });
  it('returns the head on request', () => {
    expect(windowOf(lines, 10, 'head')).toMatchObject({
      first_line: 0,
      last_line: 9,
      returned: 10,
    });
  });
  it('an empty log has no window', () => {
    expect(windowOf([], 200, 'tail')).toMatchObject({
      total_lines: 0,
      returned: 0,
      first_line: null,
      truncated: false,
    });
  });
});

describe('search', () => {
  const lines = ['compiling', 'ERROR: disk full', 'retrying', 'error: disk full again', 'done'].map(
    (text, line) => ({ line, stream: 'stdout' as const, text }),
  );
  it('finds plain text with context', () => {
    const matches = searchLines(
      lines,
      compileMatcher('disk full', false, false),
      { id: 9, name: 'build' },
      1,
      { matches: 10 },
    );
    expect(matches.map((m) => m.line)).toEqual([1, 3]);
    expect(matches[0]).toMatchObject({
      step_id: 9,
      step: 'build',
      before: [{ line: 0, text: 'compiling' }],
      after: [{ line: 2, text: 'retrying' }],
    });
  });
  it('honours ignore_case and regex', () => {
    expect(
      searchLines(lines, compileMatcher('^error', true, true), { id: 1, name: 's' }, 0, {
        matches: 10,
      }).map((m) => m.line),
    ).toEqual([1, 3]);
    expect(
      searchLines(lines, compileMatcher('^error', true, false), { id: 1, name: 's' }, 0, {
        matches: 10,
      }).map((m) => m.line),
    ).toEqual([3]);
  });
  it('stops at the match budget', () => {
    expect(
      searchLines(lines, compileMatcher('i', false, false), { id: 1, name: 's' }, 0, {
        matches: 2,
      }),
    ).toHaveLength(2);
  });
  it('a bad regex is a clear error', () => {
    expect(() => compileMatcher('(unclosed', true, false)).toThrow(
      /not a valid regular expression.*regex to false/,
    );
    expect(() => compileMatcher('(?=look)', true, false)).toThrow(/RE2/);
  });
  it('a catastrophic pattern cannot hang: RE2 matches in linear time', () => {
    const matcher = compileMatcher('(a+)+$b', true, false);
    // A backtracking engine would not return from this before the test times out.
    expect(matcher('a'.repeat(100_000) + '!')).toBe(false);
  });
});
