import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConfig,
  parseElicitation,
  parseWoodpeckerUrl,
} from '../../../runtime/process/config.js';

describe('WOODPECKER_URL', () => {
  it.each([
    ['https://ci.example.com', 'https://ci.example.com'],
    ['https://ci.example.com/', 'https://ci.example.com'],
    ['https://ci.example.com/api', 'https://ci.example.com'],
    ['https://ci.example.com/api/', 'https://ci.example.com'],
    ['http://127.0.0.1:8000', 'http://127.0.0.1:8000'],
    ['https://example.com/woodpecker/api', 'https://example.com/woodpecker'],
  ])('%s is read as %s', (raw, expected) => {
    expect(parseWoodpeckerUrl(raw)).toBe(expected);
  });

  it.each([
    ['ftp://ci.example.com', /http:\/\/ or https:\/\//],
    ['https://not a url', /not a valid URL/],
    ['not a url', /has no scheme/],
    ['https://alice:s3cret-pass@ci.example.com', /must not contain a user name or password/],
    ['https://ci.example.com/?token=abc', /query or fragment/],
    ['ci.example.com', /has no scheme: put https:\/\/ in front/],
    ['localhost:8000', /has no scheme: put https:\/\/ in front.*http:\/\/localhost:8000/],
    [
      'https://ci.example.com/repos/12/pipeline/34',
      /a page in Woodpecker's web UI \(\/repos\/…\).*Set it to https:\/\/ci\.example\.com$/,
    ],
    ['https://example.com/ci/repos/3', /Set it to https:\/\/example\.com\/ci$/],
    ['http://127.0.0.1:8000/admin/settings', /Set it to http:\/\/127\.0\.0\.1:8000$/],
  ])('%s is refused with a message that names the fix', (raw, message) => {
    expect(() => parseWoodpeckerUrl(raw)).toThrow(message);
  });

  it('never repeats the value it refuses (it may hold credentials)', () => {
    try {
      parseWoodpeckerUrl('https://alice:hunter2-secret@ci.example.com');
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2-secret');
      expect((error as Error).message).toContain('WOODPECKER_URL');
    }
  });
});

describe('ELICITATION', () => {
  it('defaults to on', () => expect(parseElicitation(undefined)).toBe(true));
  it.each([
    ['true', true],
    ['false', false],
  ])('%s is %s', (raw, expected) => expect(parseElicitation(raw)).toBe(expected));
  it.each(['1', '0', 'off', 'on', 'yes', 'no', 'TRUE', 'False', ' false', ''])(
    '%j is refused naming both valid values',
    (raw) => {
      expect(() => parseElicitation(raw)).toThrow(ConfigError);
      expect(() => parseElicitation(raw)).toThrow(/true or false/);
    },
  );
});

describe('loadConfig', () => {
  it('refuses a token pasted with "Bearer " in front, without repeating it', () => {
    expect(() => loadConfig({ WOODPECKER_TOKEN: 'Bearer canary-token-77aa' })).toThrow(
      /WOODPECKER_TOKEN starts with "Bearer ": set it to the token alone/,
    );
    expect(() => loadConfig({ WOODPECKER_TOKEN: 'bearer canary-token-77aa' })).not.toThrow(
      /canary/,
    );
  });

  it('reads the token once and removes it from the environment', () => {
    const env: Record<string, string | undefined> = {
      WOODPECKER_URL: 'https://ci.example.com/api',
      WOODPECKER_TOKEN: 'tok-123',
    };
    const config = loadConfig(env);
    expect(config.woodpeckerToken).toBe('tok-123');
    expect(env.WOODPECKER_TOKEN).toBeUndefined();
    expect(config.woodpeckerUrl).toBe('https://ci.example.com');
    expect(config.elicitation).toBe(true);
  });

  it('starts without a token or URL', () => {
    const config = loadConfig({});
    expect(config.woodpeckerToken).toBeUndefined();
    expect(config.woodpeckerUrl).toBeUndefined();
  });

  it.each([
    [{ WOODPECKER_READ_ONLY: '1' }, /WOODPECKER_READ_ONLY must be exactly true or false/],
    [{ WOODPECKER_INSECURE_TLS: 'yes' }, /WOODPECKER_INSECURE_TLS/],
    [{ WOODPECKER_MCP_SEAL_KEY: 'short' }, /at least 32 bytes/],
    [{ WOODPECKER_REPOS: 'acme' }, /owner\/name or owner\/\*/],
    [{ WOODPECKER_TIMEOUT_SECONDS: '0' }, /1 to 600/],
    [
      { WOODPECKER_MCP_MAX_RESULT_BYTES: '100k' },
      /WOODPECKER_MCP_MAX_RESULT_BYTES must be a whole number of bytes from 1024/,
    ],
    [
      { WOODPECKER_MCP_MAX_RESULT_BYTES: '10' },
      /WOODPECKER_MCP_MAX_RESULT_BYTES must be a whole number of bytes from 1024/,
    ],
    [
      { WOODPECKER_MCP_MAX_RESPONSE_BYTES: '-1' },
      /WOODPECKER_MCP_MAX_RESPONSE_BYTES must be a whole number of bytes/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  // A value pasted into the wrong variable may be a token: errors name the variable
  // and the entry's position, never the value itself.
  it.each([
    [{ WOODPECKER_REPOS: 'acme/*,canary-token-77aa' }, /WOODPECKER_REPOS entry 2 of 2/],
    [{ WOODPECKER_URL: 'canary-token-77aa://ci.example.com' }, /http:\/\/ or https:\/\//],
  ])('refuses %j without repeating the value', (env, message) => {
    let text = '';
    try {
      loadConfig(env);
    } catch (error) {
      text = (error as Error).message;
    }
    expect(text).toMatch(message);
    expect(text).not.toContain('canary');
  });

  it('bounds results at 100 kB and Woodpecker answers at 64 MiB unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({
      maxResultBytes: 100_000,
      maxResponseBytes: 64 * 1024 * 1024,
    });
    expect(
      loadConfig({
        WOODPECKER_MCP_MAX_RESULT_BYTES: '4096',
        WOODPECKER_MCP_MAX_RESPONSE_BYTES: '1048576',
      }),
    ).toMatchObject({
      maxResultBytes: 4096,
      maxResponseBytes: 1_048_576,
    });
  });

  it('reads the family of optional settings', () => {
    const config = loadConfig({
      WOODPECKER_READ_ONLY: 'true',
      WOODPECKER_ALLOW_TOOLS: 'essential, list_*',
      WOODPECKER_DENY_TOOLS: 'trigger_pipeline',
      WOODPECKER_REPOS: 'acme/*,tools/site',
      WOODPECKER_MCP_SEAL_KEY: 'k'.repeat(32),
      WOODPECKER_MCP_AUDIT_LOG: '/tmp/audit.jsonl',
    });
    expect(config.readOnly).toBe(true);
    expect(config.allowTools).toEqual(['essential', 'list_*']);
    expect(config.denyTools).toEqual(['trigger_pipeline']);
    expect(config.repositories).toEqual(['acme/*', 'tools/site']);
    expect(config.sealKey?.length).toBe(32);
    expect(config.auditLogPath).toBe('/tmp/audit.jsonl');
  });

  it('accepts nested groups as owners in WOODPECKER_REPOS, and refuses a wildcard in the middle', () => {
    const config = loadConfig({ WOODPECKER_REPOS: 'group/sub/*, group/sub/deeper/site' });
    expect(config.repositories).toEqual(['group/sub/*', 'group/sub/deeper/site']);
    expect(() => loadConfig({ WOODPECKER_REPOS: 'group/*/site' })).toThrow(
      /entry 1 of 1 is not of the form owner\/name or owner\/\*/,
    );
  });
});
