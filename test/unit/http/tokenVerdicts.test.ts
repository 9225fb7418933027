// Whether Woodpecker accepts a bearer token is asked once a minute per credential, so a
// 2026-07-28 client that sends its token on every request costs one /api/user a minute,
// not one a request; an answer Woodpecker could not give is asked again.
import { describe, expect, it } from 'vitest';
import { TokenVerdicts } from '../../../runtime/http/tokenVerdicts.js';

describe('TokenVerdicts', () => {
  it('asks once per credential within a minute, and again after it', async () => {
    let asked = 0;
    let now = 0;
    const verdicts = new TokenVerdicts(
      async () => (asked++, false),
      () => now,
    );
    const credential = Buffer.from('a');
    expect(await verdicts.of('t', credential)).toBe(false);
    expect(await verdicts.of('t', credential)).toBe(false);
    expect(asked).toBe(1);
    await verdicts.of('u', Buffer.from('b'));
    expect(asked).toBe(2);
    now = 60_001;
    await verdicts.of('t', credential);
    expect(asked).toBe(3);
  });

  it('does not remember that Woodpecker could not answer', async () => {
    let asked = 0;
    const verdicts = new TokenVerdicts(async () => (asked++, undefined));
    await verdicts.of('t', Buffer.from('a'));
    await verdicts.of('t', Buffer.from('a'));
    expect(asked).toBe(2);
  });
});
