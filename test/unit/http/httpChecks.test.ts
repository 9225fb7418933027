// The HTTP transport's request checks, table by table: what a forged Host, Origin or
// Authorization looks like, and the configuration that widens them.
import { describe, expect, it } from 'vitest';
import {
  CredentialHasher,
  readAuthorization,
  sameCredential,
} from '../../../runtime/http/authorization.js';
import { loadConfig } from '../../../runtime/process/config.js';
import { hostAllowed, isLoopbackName } from '../../../runtime/http/hostCheck.js';
import { canonicalOrigin, originAllowed } from '../../../runtime/http/originCheck.js';

describe('isLoopbackName', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.255.0.9',
    '::1',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
  ])('%s is loopback', (name) => {
    expect(isLoopbackName(name)).toBe(true);
  });
  it.each([
    '127.attacker.example',
    '127.0.0.1.nip.io',
    '127.1',
    '0x7f000001',
    '2130706433',
    '128.0.0.1',
    'localhost.',
    'localhost.example',
    '::2',
    '[::ffff:127.0.0.1]',
    '',
  ])('%s is not', (name) => expect(isLoopbackName(name)).toBe(false));
});

describe('hostAllowed', () => {
  const loopback = { boundHost: '127.0.0.1', port: 3030, allowedHosts: [] };
  it.each([
    ['127.0.0.1:3030', true],
    ['127.0.0.1', true],
    ['[::1]:3030', true],
    ['localhost:3031', false],
    ['127.0.0.1:3030 ', true],
    ['127.0.0.1:03030', true],
    ['127.0.0.1:99999', false],
    ['user@127.0.0.1:3030', false],
    ['127.0.0.1:3030/x', false],
    [undefined, false],
  ] as const)('on loopback, Host %s → %s', (header, allowed) => {
    expect(hostAllowed(header, loopback)).toBe(allowed);
  });

  it('on another address with no names configured, answers any Host (a proxy chooses names)', () => {
    expect(
      hostAllowed('anything.example', { boundHost: '0.0.0.0', port: 3030, allowedHosts: [] }),
    ).toBe(true);
  });

  it('on another address with names configured, answers only those and loopback', () => {
    const policy = {
      boundHost: '0.0.0.0',
      port: 3030,
      allowedHosts: ['mcp.example.com:443', 'mcp.internal'],
    };
    expect(hostAllowed('mcp.example.com:443', policy)).toBe(true);
    expect(hostAllowed('mcp.example.com', policy)).toBe(false);
    expect(hostAllowed('mcp.internal:3030', policy)).toBe(true);
    expect(hostAllowed('127.0.0.1:3030', policy)).toBe(true);
    expect(hostAllowed('attacker.example', policy)).toBe(false);
  });

  it('a loopback balancer on another port is served only when listed with that port', () => {
    // HAProxy on 127.0.0.1:8080 in front of a replica on 127.0.0.1:3030 forwards Host as the client sent it.
    const policy = { boundHost: '127.0.0.1', port: 3030, allowedHosts: ['127.0.0.1:8080'] };
    expect(hostAllowed('127.0.0.1:8080', policy)).toBe(true);
    expect(hostAllowed('127.0.0.1:8081', policy)).toBe(false);
    expect(hostAllowed('localhost:8080', policy)).toBe(false);
    expect(hostAllowed('127.0.0.1:3030', policy)).toBe(true);
    expect(hostAllowed('127.0.0.1:8080', { ...policy, allowedHosts: [] })).toBe(false);
  });
});

describe('origins', () => {
  it.each([
    ['http://localhost:6274', 'http://localhost:6274'],
    ['HTTPS://Example.COM:443/', 'https://example.com'],
    ['http://[::1]:80', 'http://[::1]'],
  ])('%s is the origin %s', (raw, canonical) => expect(canonicalOrigin(raw)).toBe(canonical));

  it.each([
    'null',
    'file:///tmp/x',
    'http://example.com/path',
    'http://user@example.com',
    'http://example.com?x',
    'example.com',
  ])('%s is not an origin', (raw) => {
    expect(canonicalOrigin(raw)).toBeUndefined();
  });

  it('a request without Origin passes; with one, only a listed origin does', () => {
    expect(originAllowed(undefined, [])).toBe(true);
    expect(originAllowed('http://localhost:6274', [])).toBe(false);
    expect(originAllowed('http://localhost:6274', ['http://localhost:6274'])).toBe(true);
  });
});

describe('Authorization', () => {
  it.each([
    [undefined, { kind: 'none' }],
    ['Bearer abc.DEF-ghi_jk~l+m/n==', { kind: 'bearer', token: 'abc.DEF-ghi_jk~l+m/n==' }],
    ['bearer abc', { kind: 'bearer', token: 'abc' }],
    ['', { kind: 'malformed' }],
    ['Bearer', { kind: 'malformed' }],
    ['Bearer a b', { kind: 'malformed' }],
    ['Bearer  a', { kind: 'malformed' }],
    ['Token a', { kind: 'malformed' }],
    ['Basic dXNlcjpwYXNz', { kind: 'malformed' }],
    ['Bearer a, Bearer b', { kind: 'malformed' }],
  ])('%j reads as %j', (header, expected) => expect(readAuthorization(header)).toEqual(expected));

  it('credentials hash apart, and no token hashes like the absence of one', () => {
    const hasher = new CredentialHasher();
    const none = hasher.hash({ kind: 'none' });
    const alice = hasher.hash({ kind: 'bearer', token: 'alice' });
    expect(sameCredential(alice, hasher.hash({ kind: 'bearer', token: 'alice' }))).toBe(true);
    expect(sameCredential(alice, hasher.hash({ kind: 'bearer', token: 'bob' }))).toBe(false);
    expect(sameCredential(none, hasher.hash({ kind: 'bearer', token: 'no-authorization' }))).toBe(
      false,
    );
    // Another process (another key) gets other hashes: they mean nothing outside it.
    expect(
      sameCredential(alice, new CredentialHasher().hash({ kind: 'bearer', token: 'alice' })),
    ).toBe(false);
  });
});

describe('HTTP configuration', () => {
  it('has safe defaults: no extra names or origins, 10 idle minutes, 20 sessions per token of 1000', () => {
    expect(loadConfig({}).http).toEqual({
      allowedHosts: [],
      allowedOrigins: [],
      sessions: { idleMs: 600_000, maxSessions: 1000, perAccount: 20 },
    });
  });

  it('reads names, origins and limits', () => {
    const http = loadConfig({
      WOODPECKER_MCP_ALLOWED_HOSTS: 'MCP.internal, mcp.example.com:443',
      WOODPECKER_MCP_ALLOWED_ORIGINS: 'http://localhost:6274,https://Tools.example.com',
      WOODPECKER_MCP_SESSION_IDLE_SECONDS: '90',
      WOODPECKER_MCP_MAX_SESSIONS: '50',
      WOODPECKER_MCP_SESSIONS_PER_TOKEN: '5',
    }).http;
    expect(http).toEqual({
      allowedHosts: ['mcp.internal', 'mcp.example.com:443'],
      allowedOrigins: ['http://localhost:6274', 'https://tools.example.com'],
      sessions: { idleMs: 90_000, maxSessions: 50, perAccount: 5 },
    });
  });

  it.each([
    [
      { WOODPECKER_MCP_ALLOWED_HOSTS: 'http://mcp.internal' },
      /WOODPECKER_MCP_ALLOWED_HOSTS entry 1 is not a host name/,
    ],
    [
      { WOODPECKER_MCP_ALLOWED_ORIGINS: 'localhost:6274' },
      /WOODPECKER_MCP_ALLOWED_ORIGINS entry 1 is not an origin.*http:\/\/localhost:6274/,
    ],
    [
      { WOODPECKER_MCP_ALLOWED_ORIGINS: 'http://a.example/path' },
      /WOODPECKER_MCP_ALLOWED_ORIGINS entry/,
    ],
    [
      // A pasted origin with credentials: the error names the entry, never repeats it.
      { WOODPECKER_MCP_ALLOWED_ORIGINS: 'http://ok.example,https://bob:hunter2@ci.example' },
      /^(?!.*hunter2).*WOODPECKER_MCP_ALLOWED_ORIGINS entry 2 is not an origin/s,
    ],
    [
      { WOODPECKER_MCP_ALLOWED_HOSTS: 'ok.example,bob:hunter2@ci.example' },
      /^(?!.*hunter2).*WOODPECKER_MCP_ALLOWED_HOSTS entry 2 is not a host name/s,
    ],
    [
      { WOODPECKER_MCP_SESSION_IDLE_SECONDS: '0' },
      /WOODPECKER_MCP_SESSION_IDLE_SECONDS must be a whole number from 1 to 86400/,
    ],
    [{ WOODPECKER_MCP_MAX_SESSIONS: 'lots' }, /WOODPECKER_MCP_MAX_SESSIONS must be a whole number/],
    [
      { WOODPECKER_MCP_MAX_SESSIONS: '10', WOODPECKER_MCP_SESSIONS_PER_TOKEN: '10' },
      /WOODPECKER_MCP_SESSIONS_PER_TOKEN \(10\) must be below WOODPECKER_MCP_MAX_SESSIONS \(10\)/,
    ],
  ])('%j is refused, naming the variable and the fix', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
