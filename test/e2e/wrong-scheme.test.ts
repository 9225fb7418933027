// A plain-http Woodpecker configured as https:// (a common first mistake): every call used
// to fail with a bare ERR_SSL_WRONG_VERSION_NUMBER. The call's error now says what doctor
// says: the address answers plain HTTP, use http://. Against the real Woodpecker.
import { describe, expect, it } from 'vitest';
import { harnessInfo } from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';

describe('WOODPECKER_URL with https:// to a plain-http Woodpecker', () => {
  it('the call says the address speaks plain HTTP and to use http://, as doctor does', async () => {
    const { url, adminToken } = harnessInfo();
    const wrong = url.replace(/^http:/, 'https:');
    await withSession(
      { revision: REVISIONS[0]!, woodpecker: { url: wrong, token: adminToken } },
      async (session) => {
        const result = await session.call('get_current_user', {});
        expect(result.isError).toBe(true);
        const text = textOf(result);
        expect(text).toContain('answers plain HTTP, not HTTPS');
        expect(text).toContain('Set WOODPECKER_URL to the same address with http://');
        expect(text).toContain('woodpecker-ci-mcp doctor');
        expect(text).not.toContain(adminToken);
      },
    );
  }, 120_000);
});
