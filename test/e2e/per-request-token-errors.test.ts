// A per-request-token deployment (HTTP, no WOODPECKER_TOKEN, each client sends its own
// Bearer): when a request's token goes stale mid-session, the error must speak of the
// request's token, not tell the user to set WOODPECKER_TOKEN (and restart), which is no
// fix there (issue 35). Against the real Woodpecker: the token's account is deleted.
import { describe, expect, it } from 'vitest';
import { throwawayUser } from './guardFixtures.js';
import { adminApi, harnessInfo } from '../harness/fixtures.js';
import { loginAndCreateApiToken } from '../harness/woodpecker-login.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';

describe('HTTP with each request bringing its own token', () => {
  it("a Bearer token gone stale mid-session: the error names the request's Authorization header, not WOODPECKER_TOKEN and a restart", async () => {
    const { login } = await throwawayUser();
    const token = await loginAndCreateApiToken(harnessInfo().url, login);
    await withSession({ revision: REVISIONS[0]!, bearer: token }, async (session) => {
      expect((await session.ok('get_current_user')).login).toBe(login);
      // The account is gone: the token this session sends is stale.
      await adminApi().request('DELETE', `/api/users/${login}?forge_id=1`);
      const result = await session.call('get_current_user', {});
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain('Authorization: Bearer');
      expect(text).not.toMatch(/restart/i);
      expect(text).not.toContain(token);
    });
  }, 120_000);
});
