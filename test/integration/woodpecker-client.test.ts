// The HTTP client against the real server: what Woodpecker really answers for the traps
// the client exists to handle.
import { describe, expect, it } from 'vitest';
import {
  WoodpeckerClient,
  WoodpeckerHttpError,
  WoodpeckerNotApiError,
  WoodpeckerUnreachableError,
} from '../../runtime/woodpecker/woodpeckerClient.js';
import { freeLoopbackPort } from '../harness/free-port.js';
import { adminApi, harnessInfo } from '../harness/fixtures.js';

const client = () =>
  new WoodpeckerClient({ baseUrl: harnessInfo().url, insecureTls: false, timeoutMs: 10_000 });

describe('WoodpeckerClient against the real server', () => {
  it('decodes JSON and sends the token', async () => {
    const answer = await client().send(
      { method: 'GET', path: '/api/user' },
      { token: harnessInfo().adminToken },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ login: harnessInfo().adminLogin });
  });

  it('treats the web UI’s HTML answer to an unknown API path as an error, not data', async () => {
    await expect(
      client().send(
        { method: 'GET', path: '/api/no-such-route' },
        { token: harnessInfo().adminToken },
      ),
    ).rejects.toBeInstanceOf(WoodpeckerNotApiError);
  });

  it('maps an error status with Woodpecker’s own message', async () => {
    const failure = await client()
      .send({ method: 'GET', path: '/api/users' }, { token: harnessInfo().userToken })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WoodpeckerHttpError);
    expect((failure as WoodpeckerHttpError).status).toBe(403);
  });

  it('sends JSON on writes, so the log level is really set (without it Woodpecker silences logging)', async () => {
    const token = harnessInfo().adminToken;
    try {
      await client().send(
        { method: 'POST', path: '/api/log-level', body: { 'log-level': 'debug' } },
        { token },
      );
      expect(await adminApi().get('/api/log-level')).toEqual({ 'log-level': 'debug' });
    } finally {
      await client().send(
        { method: 'POST', path: '/api/log-level', body: { 'log-level': 'info' } },
        { token },
      );
    }
    expect(await adminApi().get('/api/log-level')).toEqual({ 'log-level': 'info' });
  });

  it('says when the server cannot be reached', async () => {
    const port = await freeLoopbackPort();
    const nowhere = new WoodpeckerClient({
      baseUrl: `http://127.0.0.1:${port}`,
      insecureTls: false,
      timeoutMs: 5_000,
    });
    const failure = await nowhere
      .send({ method: 'GET', path: '/version' }, { token: undefined })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WoodpeckerUnreachableError);
    expect((failure as Error).message).toMatch(/connection refused/);
  });
});
