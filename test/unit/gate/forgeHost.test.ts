// create_forge's dialog shows which forge: the host of the URL the caller gave, accepted
// only with hostname syntax, so what the person reads is the host the forge URL reaches.
import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from '../../../runtime/call/argumentValidator.js';
import { httpUrlHost } from '../../../runtime/core/httpUrl.js';
import type { GuardSpec } from '../../../runtime/core/tool.js';
import { dialogText } from '../../../runtime/gate/gate.js';
import { dialogHost } from '../../../runtime/gate/guardPredicates.js';
import { createForge } from '../../../generated/tools/create_forge.js';
import { updateForge } from '../../../generated/tools/update_forge.js';

const validator = new ArgumentValidator();
const validate = validator.getValidator(createForge.inputSchema as never);
const validateUpdate = validator.getValidator(updateForge.inputSchema as never);

describe('create_forge shows the forge host', () => {
  it('names the type and host in the dialog, and links the forges page', () => {
    const shown = dialogText(
      createForge.guard as GuardSpec,
      { type: 'gitea', url: 'https://Gitea.Example.com:3000/sub', oauth_client_secret: 's3cr3t' },
      ['always asks'],
      undefined,
      undefined,
      'https://ci.example.com',
    );
    expect(shown).toMatch(
      /^This will add a new forge of type gitea at gitea\.example\.com:3000 to this Woodpecker instance\.\s+Login redirect host: not given/,
    );
    const redirected = dialogText(
      createForge.guard as GuardSpec,
      { type: 'gitea', url: 'https://good.example', oauth_host: 'https://evil.example' },
      ['always asks'],
    );
    expect(redirected).toContain('Login redirect host: evil.example');
    expect(shown).toContain(
      'Check it in Woodpecker: the forges of this server, https://ci.example.com/admin/forges',
    );
    expect(shown).not.toContain('s3cr3t');
  });

  it.each([
    ['https://gitea.example.com', 'gitea.example.com'],
    ['http://127.0.0.1:9', '127.0.0.1:9'],
    ['https://git.example.com/path/x', 'git.example.com'],
  ])('accepts %s as host %s', (url, host) => {
    expect(validate({ type: 'gitea', url }).valid).toBe(true);
    expect(httpUrlHost(url)).toBe(host);
  });

  // Each of these would let the dialog print something other than the host reached, or
  // text a person could misread as one.
  it.each([
    ['gitea.example.com'],
    ['ftp://gitea.example.com'],
    ['https://good.example.com@evil.example.net'],
    ['https://user:pw@gitea.example.com'],
    ['https://gitea example.com'],
    ['https://gitea.example.com/ approve this'],
    ['https://-bad.example.com'],
    ['https://gitea_example.com'],
    ['https://[::1]:3000'],
    ['https://gitea.example.com/x@evil.example.net'],
  ])('refuses %j, naming the url field', (url) => {
    const result = validate({ type: 'gitea', url });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(
      /url must be an http:\/\/ or https:\/\/ URL whose host is a hostname or IPv4 address/,
    );
    expect(dialogHost(url)).toBe('(no valid host)');
  });
});

// update_forge points every login and build of a forge somewhere else when it changes the
// url, so it takes the url on the same terms and its dialog shows the same host.
describe('update_forge shows the new forge host', () => {
  const show = (args: Record<string, unknown>): string =>
    dialogText(
      updateForge.guard as GuardSpec,
      { forge_id: 2, ...args },
      ['always asks'],
      undefined,
      undefined,
      'https://ci.example.com',
    );

  it('names the new type and host in the dialog', () => {
    const shown = show({ type: 'forgejo', url: 'https://Code.Example.org/git' });
    expect(shown).toMatch(
      /^This will change the settings of forge 2: type forgejo, host code\.example\.org, login redirect host not given\. A setting not given keeps its current value/,
    );
    expect(shown).toContain('https://ci.example.com/admin/forges/2');
  });

  it('says which settings the call leaves as they are', () => {
    expect(show({ client: 'new-client' })).toContain(
      'type not given, host not given, login redirect host not given.',
    );
  });

  // Outside attack: a new oauth_host sends every login somewhere else while the dialog said
  // that no host changed.
  it('shows a new login redirect host', () => {
    expect(show({ oauth_host: 'https://evil.example/' })).toContain(
      'login redirect host evil.example.',
    );
  });

  it('refuses an oauth_host that is not such a URL, naming the field', () => {
    const result = validateUpdate({ forge_id: 2, oauth_host: 'https://a@evil.example' });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(/^oauth_host must be an http/);
  });

  it.each([
    ['https://good.example.com@evil.example.net'],
    ['https://gitea.example.com/ approve this'],
    ['gitea.example.com'],
  ])('refuses %j, naming the url field', (url) => {
    const result = validateUpdate({ forge_id: 2, url });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(
      /url must be an http:\/\/ or https:\/\/ URL whose host is a hostname or IPv4 address/,
    );
  });
});
