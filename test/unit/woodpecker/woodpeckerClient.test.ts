// The Woodpecker client against undici's MockAgent: the body ceiling, and the decoding
// and error mapping the rest of the runtime relies on, without a Woodpecker server.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  WoodpeckerClient,
  WoodpeckerHttpError,
  WoodpeckerNotApiError,
  WoodpeckerResponseTooLargeError,
  WoodpeckerUnreachableError,
} from '../../../runtime/woodpecker/woodpeckerClient.js';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();
const clientWith = woodpecker.client;
const ORIGIN = MOCK_ORIGIN;
const get = (client: WoodpeckerClient, path: string) =>
  client.send({ method: 'GET', path }, { token: 'secret-token-value' });

describe('the body ceiling (WOODPECKER_MCP_MAX_RESPONSE_BYTES)', () => {
  const tenMegabytes = JSON.stringify(
    Array.from({ length: 20_000 }, (_, index) => ({ id: index, message: 'x'.repeat(500) })),
  );

  it('reads a 10 MB list under the default ceiling (step logs need large bodies)', async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/big', method: 'GET' })
      .reply(200, tenMegabytes, JSON_HEADERS);
    const response = await get(clientWith(), '/api/big');
    expect((response.body as unknown[]).length).toBe(20_000);
  });

  it('stops reading past the ceiling and names the variable, with or without a Content-Length', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/big', method: 'GET' })
      .reply(200, tenMegabytes, JSON_HEADERS);
    const declared = get(clientWith(1_000_000), '/api/big');
    await expect(declared).rejects.toBeInstanceOf(WoodpeckerResponseTooLargeError);
    await expect(declared).rejects.toThrow(
      /larger than 1000000 bytes.*WOODPECKER_MCP_MAX_RESPONSE_BYTES/,
    );

    // A streamed answer (no Content-Length) is cut off by counting.
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/stream', method: 'GET' })
      .reply(200, () => tenMegabytes, {
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
    await expect(get(clientWith(1_000_000), '/api/stream')).rejects.toBeInstanceOf(
      WoodpeckerResponseTooLargeError,
    );
  });

  it('the error never carries the token', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/big', method: 'GET' })
      .reply(200, tenMegabytes, JSON_HEADERS);
    const error = await get(clientWith(2_048), '/api/big').catch(
      (caught: unknown) => caught as Error,
    );
    expect(String((error as Error).message)).not.toContain('secret-token-value');
  });
});

describe('decoding and errors', () => {
  it('sends the bearer token and decodes JSON', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({
        path: '/api/user',
        method: 'GET',
        headers: { authorization: 'Bearer secret-token-value' },
      })
      .reply(200, { login: 'alice' }, JSON_HEADERS);
    expect((await get(clientWith(), '/api/user')).body).toEqual({ login: 'alice' });
  });

  it('an error status becomes WoodpeckerHttpError with Woodpecker’s own message', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/repos/9', method: 'GET' })
      .reply(404, { error: 'repo not found' }, JSON_HEADERS);
    const error = (await get(clientWith(), '/api/repos/9').catch(
      (caught: unknown) => caught,
    )) as WoodpeckerHttpError;
    expect(error).toBeInstanceOf(WoodpeckerHttpError);
    expect(error.status).toBe(404);
    expect(error.detail).toBe('repo not found');
  });

  it('the web UI’s HTML page is never taken for data', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/nope', method: 'GET' })
      .reply(200, '<!doctype html><html></html>', { headers: { 'content-type': 'text/html' } });
    await expect(get(clientWith(), '/api/nope')).rejects.toBeInstanceOf(WoodpeckerNotApiError);
  });
});

describe('a write whose connection broke', () => {
  // The real faults (resets after sending, bodies cut off) are test/e2e/woodpecker-faults.test.ts.
  const failure = async (
    method: 'GET' | 'POST',
    error: Error,
  ): Promise<WoodpeckerUnreachableError> => {
    woodpecker.agent().get(ORIGIN).intercept({ path: '/api/thing', method }).replyWithError(error);
    const sent = clientWith().send(
      { method, path: '/api/thing', body: {} },
      { token: 'secret-token-value' },
    );
    await expect(sent).rejects.toBeInstanceOf(WoodpeckerUnreachableError);
    return (await sent.catch((caught: unknown) => caught)) as WoodpeckerUnreachableError;
  };

  it('after the connection was made: the outcome is unknown', async () => {
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const error = await failure('POST', reset);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.reason).toBe('the connection was closed before Woodpecker answered');
  });

  it('refused before anything was sent, or a read: nothing to be unsure about', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect((await failure('POST', refused)).outcomeUnknown).toBe(false);
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect((await failure('GET', reset)).outcomeUnknown).toBe(false);
  });
});
