// Names that steer a call (a deployment target, a branch, a secret name, a registry
// address or user name) must reach Woodpecker as the operator and a shell read them:
// "production " or "production\n" deploys to production while an operator's rule on
// "production" does not see it. Such arguments are refused outright, before any request,
// when they hold control or invisible characters or surrounding whitespace.
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { ArgumentValidator } from '../../../runtime/call/argumentValidator.js';
import type { ToolArgs } from '../../../runtime/core/tool.js';

const validator = new ArgumentValidator();
function check(toolName: string, args: ToolArgs) {
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  return validator.getValidator(tool.inputSchema as never)(args);
}

const restart = { repo_id: 1, number: 3, event: 'deployment' };

describe('names are refused when they would not be read as written', () => {
  it.each([
    ['a trailing space', 'production '],
    ['a trailing newline', 'production\n'],
    ['a leading space', ' production'],
    ['a zero-width space', 'produ\u200bction'],
    ['a right-to-left override', 'noitcudorp\u202e'],
    ['a carriage return and a header', 'production\r\nX-Injected: 1'],
    ['a tab', 'prod\tuction'],
    ['a no-break space at the end', 'production\u00a0'],
    ['a byte order mark', '\ufeffproduction'],
    ['a line separator', 'production\u2028'],
    ['NUL', 'production\u0000'],
  ])('deploy_to with %s', (_, deployTo) => {
    const result = check('restart_pipeline', { ...restart, deploy_to: deployTo });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(/^deploy_to /);
    expect(result.errorMessage).toMatch(/U\+[0-9A-F]{4}|whitespace/);
  });

  it('says which character and where, never echoing the value', () => {
    const result = check('restart_pipeline', { ...restart, deploy_to: 'produ\u200bction' });
    expect(result.errorMessage).toContain('U+200B');
    expect(result.errorMessage).toContain('position 6');
    expect(result.errorMessage).not.toContain('produ');
  });

  it.each([
    [
      'create_registry',
      {
        scope: 'repository',
        repo_id: 1,
        address: '\r\nX-Injected: 1',
        username: 'u',
        password: 'p',
      },
      'address',
    ],
    [
      'create_registry',
      {
        scope: 'repository',
        repo_id: 1,
        address: 'docker.io',
        username: 'bot\u202e',
        password: 'p',
      },
      'username',
    ],
    [
      'create_secret',
      { scope: 'repository', repo_id: 1, name: 'deploy_key ', value: 'v', events: ['push'] },
      'name',
    ],
    ['delete_secret', { scope: 'repository', repo_id: 1, name: 'deploy\u200dkey' }, 'name'],
    [
      'create_secret',
      {
        scope: 'repository',
        repo_id: 1,
        name: 'k',
        value: 'v',
        events: ['push'],
        images: ['alpine\n'],
      },
      'images[0]',
    ],
    [
      'trigger_pipeline',
      { repo_id: 1, branch: 'main', variables: { 'DEPLOY\n': 'x' } },
      'variables',
    ],
    ['create_user', { login: 'x', email: 'a@b.c\u0007' }, 'email'],
  ] as const)('%s refuses a bad %s', (tool, args, field) => {
    const result = check(tool, args as ToolArgs);
    expect(result.valid).toBe(false);
    expect(result.errorMessage?.startsWith(field)).toBe(true);
  });

  it('leaves credentials, notes, variable values and search patterns alone', () => {
    expect(
      check('create_secret', {
        scope: 'repository',
        repo_id: 1,
        name: 'ssh_key',
        value: '-----BEGIN KEY-----\nabc\n-----END KEY-----\n',
        events: ['push'],
        note: 'Rotated by ops.\nAsk #infra.',
      }).valid,
    ).toBe(true);
    expect(
      check('create_registry', {
        scope: 'repository',
        repo_id: 1,
        address: 'docker.io',
        username: 'bot',
        password: ' pass\u202eword\t',
      }).valid,
    ).toBe(true);
    expect(
      check('trigger_pipeline', {
        repo_id: 1,
        branch: 'main',
        variables: { MESSAGE: ' two\nlines ' },
      }).valid,
    ).toBe(true);
    expect(check('search_logs', { repo_id: 1, number: 2, pattern: '  error: ' }).valid).toBe(true);
  });

  it('keeps ordinary names, spaces inside them and non-Latin letters', () => {
    expect(check('restart_pipeline', { ...restart, deploy_to: 'prod-eu' }).valid).toBe(true);
    expect(
      check('create_cron', {
        repo_id: 1,
        name: 'Nightly build',
        schedule: '@daily',
        branch: 'main',
        enabled: true,
      }).valid,
    ).toBe(true);
    expect(
      check('create_cron', {
        repo_id: 1,
        name: 'Nächtlich',
        schedule: '@daily',
        branch: 'release/1.x',
        enabled: true,
      }).valid,
    ).toBe(true);
  });
});

describe('characters Unicode says to show as nothing are refused', () => {
  // Default_Ignorable_Code_Point: not control or format characters, so \p{Cc}/\p{Cf} let
  // them through, yet a reader sees "production" where the value is "production\u3164".
  const ignorable = [
    ['U+3164 (Hangul filler)', '\u3164'],
    ['U+115F (Hangul choseong filler)', '\u115f'],
    ['U+FFA0 (half-width Hangul filler)', '\uffa0'],
    ['U+034F (combining grapheme joiner)', '\u034f'],
    ['U+FE0F (variation selector 16)', '\ufe0f'],
  ] as const;
  const callsWith = (name: string): [string, ToolArgs, string][] => [
    ['restart_pipeline', { ...restart, deploy_to: `production${name}` }, 'deploy_to'],
    ['trigger_pipeline', { repo_id: 1, branch: `main${name}` }, 'branch'],
    [
      'create_cron',
      { repo_id: 1, name: 'n', schedule: '@daily', branch: `main${name}`, enabled: true },
      'branch',
    ],
    ['update_cron', { repo_id: 1, cron_id: 2, branch: `main${name}` }, 'branch'],
  ];
  it.each(ignorable)('%s', (label, char) => {
    for (const [tool, args, field] of callsWith(char)) {
      const result = check(tool, args);
      expect(result.valid, `${tool} ${field}`).toBe(false);
      expect(result.errorMessage).toMatch(new RegExp(`^${field} `));
      expect(result.errorMessage).toContain(label.slice(0, 6));
    }
  });
});

describe('branch names are refused where git would not take them', () => {
  it.each([
    './main',
    '/main',
    'main/',
    'feature//x',
    'main.',
    'main.lock',
    '..',
    'a..b',
    '.hidden',
    'a/.b',
    '-main',
    '@',
    'a@{1}',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[1]',
    'a\\b',
  ])('%j', (branch) => {
    const calls = {
      trigger_pipeline: { repo_id: 1, branch },
      create_cron: { repo_id: 1, branch, name: 'n', schedule: '@daily', enabled: true },
    };
    for (const [tool, args] of Object.entries(calls)) {
      const result = check(tool, args);
      expect(result.valid, `${tool} ${branch}`).toBe(false);
      expect(result.errorMessage).toMatch(/^branch /);
    }
  });

  it.each(['main', 'release/1.2', 'feature/JIRA-12_x', 'v1.0', 'refs/heads/main', 'a@b'])(
    'takes %j',
    (branch) => {
      expect(check('trigger_pipeline', { repo_id: 1, branch }).valid).toBe(true);
    },
  );
});

describe('an http_url is one a URL parser takes', () => {
  it.each(['https://xn--abc.example.com', 'https://xn--zz.example', 'http://gitea.example:65536'])(
    'create_forge refuses %j naming url, instead of failing unexpectedly',
    (url) => {
      const result = check('create_forge', {
        type: 'gitea',
        url,
        client: 'c',
        oauth_client_secret: 's',
      });
      expect(result.valid).toBe(false);
      expect(result.errorMessage).toMatch(/^url /);
      expect(result.errorMessage).not.toMatch(/unexpectedly/);
    },
  );

  it.each(['http://gitea.example:0', 'https://gitea.example:00/', 'http://127.0.0.1:0/login'])(
    'create_forge and update_forge refuse port 0 in %j, naming url',
    (url) => {
      for (const [tool, args] of [
        ['create_forge', { type: 'gitea', url, client: 'c', oauth_client_secret: 's' }],
        ['update_forge', { forge_id: 1, url }],
      ] as const) {
        const result = check(tool, args);
        expect(result.valid, tool).toBe(false);
        expect(result.errorMessage).toMatch(/^url .*port 0/);
      }
    },
  );

  it.each([
    'http://0x7f.1',
    'http://2130706433',
    'http://127.1:3000',
    'http://0177.0.0.1/',
    'https://0x7F000001',
  ])('create_forge refuses %j, whose host a URL parser reads as another address', (url) => {
    const result = check('create_forge', {
      type: 'gitea',
      url,
      client: 'c',
      oauth_client_secret: 's',
    });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(/^url writes its host as a number/);
  });

  it.each([
    'http://127.0.0.1:3000',
    'https://Gitea.Example.com/sub',
    'https://xn--bcher-kva.example',
    'https://deadbeef.example.com',
    'https://10.0.0.12',
  ])('takes %j, whose host is read as written', (url) => {
    const result = check('create_forge', {
      type: 'gitea',
      url,
      client: 'c',
      oauth_client_secret: 's',
    });
    expect(result.valid, result.errorMessage).toBe(true);
  });

  it('takes an ordinary forge address with a port', () => {
    expect(
      check('create_forge', {
        type: 'gitea',
        url: 'https://gitea.example.com:3000',
        client: 'c',
        oauth_client_secret: 's',
      }).valid,
    ).toBe(true);
  });
});

// Woodpecker stores a registry only if Go's url.Parse takes its address; the fuzz found
// "%c" and "./%#" (seeds 1008910311, 1009411345) answered 400 by Woodpecker. Each refused
// case below was checked against Go 1.26's url.Parse, which refuses it too (or, for the
// stricter rules, takes it but no registry address needs it).
describe('a registry address is one Woodpecker stores', () => {
  const registry = (address: string) =>
    check('create_registry', { scope: 'global', address, username: 'bot', password: 'p' });

  it.each([
    ['%c', /character/],
    ['./%#', /character/],
    ['127.0.0.1:5000', /colon in its first part/],
    ['[::1]:5000', /colon in its first part/],
    ['a@b:c', /colon in its first part/],
    [':5000', /starts with ":"/],
    ['http://h:x', /port that is not a number/],
    ['http://::1/', /more than one colon/],
    ['//a:b:c', /more than one colon/],
    ['http://a[b]', /\[ or \] inside its host/],
    ['http://[::1/x', /does not close it/],
    ['docker.io/a b', /character/],
    ['dócker.io', /character/],
    ['ghcr.io?x', /character/],
  ])('create_registry refuses %j naming address, before any request', (address, why) => {
    const result = registry(address);
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(/^address /);
    expect(result.errorMessage).toMatch(why);
    expect(result.errorMessage).toMatch(/docker\.io, ghcr\.io or registry\.example\.com:5000/);
  });

  it.each([
    'docker.io',
    'ghcr.io',
    'localhost:5000',
    'registry.example.com:5000',
    'registry.example.com:5000/team',
    'https://index.docker.io/v1/',
    'http://[::1]:5000/x',
    'http://user@registry.example.com:5000',
    'host:5000',
  ])('create_registry takes %j', (address) => {
    expect(registry(address).valid).toBe(true);
  });
});

describe('a parameter Woodpecker ignores without another is refused without it', () => {
  // Outside attack (third round) B1: restart_pipeline with deploy_to "staging" and no event
  // passed a deny on production, and Woodpecker re-ran the production deployment.
  it('restart_pipeline: deploy_to without event deployment', () => {
    const result = check('restart_pipeline', { repo_id: 1, number: 8, deploy_to: 'staging' });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(/^deploy_to is given without event/);
    expect(
      check('restart_pipeline', { repo_id: 1, number: 8, deploy_to: '', event: 'deployment' })
        .valid,
    ).toBe(true);
    expect(check('restart_pipeline', { repo_id: 1, number: 8 }).valid).toBe(true);
  });
});
