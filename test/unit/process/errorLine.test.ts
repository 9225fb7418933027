// A serving error's message can quote a client's request: it reaches stderr as one bounded
// line, so a client cannot write lines of its own into the operator's log or flood it.
import { describe, expect, it } from 'vitest';
import { errorLine } from '../../../runtime/process/errorLine.js';

describe('errorLine', () => {
  it('keeps a plain message as it is, on one line', () => {
    expect(errorLine('Woodpecker is unreachable')).toBe(
      'woodpecker-ci-mcp: Woodpecker is unreachable\n',
    );
  });

  it('writes line breaks and other control characters as escapes', () => {
    const line = errorLine(
      'Rejected method tools/list\nwoodpecker-ci-mcp: FORGED token=abc\r\u2028\u0007',
    );
    expect(line.split('\n')).toEqual([
      'woodpecker-ci-mcp: Rejected method tools/list\\u000awoodpecker-ci-mcp: FORGED token=abc\\u000d\\u2028\\u0007',
      '',
    ]);
  });

  it('cuts a huge message and says how much was left out', () => {
    const line = errorLine(`method ${'m'.repeat(3_000_000)}`);
    expect(line.length).toBeLessThan(600);
    expect(line).toMatch(/… \(2999507 more characters\)\n$/);
  });
});
