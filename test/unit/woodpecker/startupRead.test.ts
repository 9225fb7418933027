// The reads start-up sends before the server has loaded (GET /version, GET /api/user with
// the configured token): the same URL joining and Authorization header as every other
// call, and any answer that is not a 2xx JSON one is a failure the caller falls back from.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, startStartupReads } from '../../../runtime/woodpecker/startupRead.js';

let server: Server;
let baseUrl = '';
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    if (request.url?.endsWith('/version'))
      return void response
        .setHeader('content-type', 'application/json')
        .end('{"version":"3.17.0"}');
    if (request.url?.endsWith('/api/user'))
      return void (request.headers.authorization === 'Bearer good'
        ? response.setHeader('content-type', 'application/json').end('{"login":"alice"}')
        : response.writeHead(401).end('Unauthorized'));
    response.setHeader('content-type', 'text/html').end('<html>the web UI</html>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${address.port}/ci`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const options = () => ({ baseUrl, insecureTls: false, timeoutMs: 10_000 });

describe('start-up reads', () => {
  it('reads /version under the configured path, without a token', async () => {
    seen.length = 0;
    const { version, user } = startStartupReads(options(), undefined);
    expect((await version).body).toEqual({ version: '3.17.0' });
    expect(user).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/ci/version');
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it('reads /api/user with the token as a Bearer', async () => {
    const { user } = startStartupReads(options(), 'good');
    expect((await user!).body).toEqual({ login: 'alice' });
  });

  it('fails on a refused token and on an answer that is not JSON, without the token in the error', async () => {
    const refused = await readJson(options(), '/api/user', 'bad-token-value').catch(
      (error: Error) => error.message,
    );
    expect(refused).toBe('HTTP 401');
    await expect(readJson(options(), '/elsewhere', undefined)).rejects.toThrow('not JSON');
  });

  it('fails, not hangs, when nothing listens', async () => {
    await expect(
      readJson({ ...options(), baseUrl: 'http://127.0.0.1:9' }, '/version', undefined),
    ).rejects.toThrow();
  });
});
