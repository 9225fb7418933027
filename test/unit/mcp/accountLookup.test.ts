// The account behind a token, as the tool list uses it: one Woodpecker lookup per token
// per minute, a failed lookup is "unknown" (nothing hidden), and Woodpecker's habit of
// leaving `admin` out when it is false reads as not an admin.
import { describe, expect, it } from 'vitest';
import { AccountLookup, accountFrom } from '../../../runtime/mcp/accountLookup.js';

describe('AccountLookup', () => {
  it('asks once per token within a minute, again after it, and never for no token', async () => {
    let now = 0;
    const asked: string[] = [];
    const lookup = new AccountLookup(
      async (token) => {
        asked.push(token);
        return { login: token === 'a' ? 'alice' : 'bob', admin: token === 'a' };
      },
      () => now,
    );
    expect(await lookup.of('a')).toEqual({ login: 'alice', admin: true });
    expect(await lookup.of('a')).toEqual({ login: 'alice', admin: true });
    expect(await lookup.of('b')).toEqual({ login: 'bob', admin: false });
    expect(await lookup.of(undefined)).toBeUndefined();
    expect(asked).toEqual(['a', 'b']);
    now = 60_001;
    await lookup.of('a');
    expect(asked).toEqual(['a', 'b', 'a']);
  });

  it('uses an answer start-up already asked for; a failed one is unknown, as a failed lookup', async () => {
    const asked: string[] = [];
    const whoIs = async (token: string) => {
      asked.push(token);
      return { login: 'asked', admin: false };
    };
    const primed = new AccountLookup(whoIs);
    primed.prime('a', Promise.resolve({ login: 'alice', admin: true }));
    expect(await primed.of('a')).toEqual({ login: 'alice', admin: true });
    const failed = new AccountLookup(whoIs);
    failed.prime('a', Promise.reject(new Error('HTTP 401')));
    expect(await failed.of('a')).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('a lookup that fails is unknown, not an error', async () => {
    const lookup = new AccountLookup(async () => {
      throw new Error('connection refused');
    });
    expect(await lookup.of('t')).toBeUndefined();
  });
});

describe('accountFrom', () => {
  it('reads login and admin; a missing admin is false; no login is unknown', () => {
    expect(accountFrom({ login: 'alice', admin: true })).toEqual({ login: 'alice', admin: true });
    expect(accountFrom({ login: 'bob' })).toEqual({ login: 'bob', admin: false });
    expect(accountFrom({ admin: true })).toBeUndefined();
    expect(accountFrom(null)).toBeUndefined();
  });
});
