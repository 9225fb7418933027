// What the generated modules of the real tools.yaml do when called: request building
// (paths, query, nested bodies, omitted arguments, call choice) and guard reasons.
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import { listRepositories } from '../../generated/tools/list_repositories.js';
import { updateRepository } from '../../generated/tools/update_repository.js';
import { updateSecret } from '../../generated/tools/update_secret.js';
import { setLogLevel } from '../../generated/tools/set_log_level.js';
import { deleteSecret } from '../../generated/tools/delete_secret.js';
import { createSecret } from '../../generated/tools/create_secret.js';
import { createRegistry } from '../../generated/tools/create_registry.js';
import type { Looked } from '../../runtime/core/tool.js';
import type { WoodpeckerRequest } from '../../runtime/core/tool.js';

const PULL_REQUEST_EVENTS = [
  'pull_request',
  'pull_request_closed',
  'pull_request_metadata',
] as const;
const PULL_REQUEST_REASON =
  'it adds a pull request event (pull_request, pull_request_closed, pull_request_metadata) to events';
const SHADOW_REASON =
  'pipelines would take it for an entry that exists already (or a level could not be read)';

describe('generated request builders', () => {
  it('lists every tool once, sorted by name', () => {
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('builds a nested body from dotted fields and omits arguments not given', () => {
    const request = updateRepository.request?.({
      repo_id: 7,
      trusted_network: true,
      visibility: 'private',
    });
    // Woodpecker 3.11 answers 500 to some trusted flags: all three go, the others as
    // they are now (the manifest's default when the current object is not known).
    expect(request).toEqual({
      method: 'PATCH',
      path: '/api/repos/7',
      body: { visibility: 'private', trusted: { network: true, volumes: false, security: false } },
    });
    const current = { trusted: { network: false, volumes: true, security: null } };
    expect(
      updateRepository.request?.({ repo_id: 7, trusted_network: true }, current)?.body,
    ).toEqual({ trusted: { network: true, volumes: true, security: false } });
    expect(updateRepository.current?.needed({ repo_id: 7, trusted_network: true })).toBe(true);
    expect(updateRepository.current?.needed({ repo_id: 7, timeout: 5 })).toBe(false);
  });

  it('sends no empty nested object when none of its fields is given', () => {
    const request = updateRepository.request?.({ repo_id: 7, timeout: 30 }, { trusted: {} });
    expect(request?.body).toEqual({ timeout: 30 });
  });

  it('chooses the call by `when` and builds string query values', () => {
    expect(listRepositories.request?.({ scope: 'instance', per_page: 20 })).toMatchObject({
      path: '/api/repos',
      query: { perPage: '20' },
    });
    const mine = listRepositories.request?.({ include_inactive: true });
    expect(mine).toMatchObject({ method: 'GET', path: '/api/user/repos', query: { all: 'true' } });
  });

  it('encodes path segments', () => {
    const request = deleteSecret.request?.({ scope: 'repository', repo_id: 3, name: 'a/b c' });
    expect(request?.path).toBe('/api/repos/3/secrets/a%2Fb%20c');
  });

  it('names the parameter when a chosen call lacks a path argument', () => {
    expect(() => deleteSecret.request?.({ scope: 'repository', name: 'x' })).toThrow(/repo_id/);
  });
});

describe('generated guards', () => {
  it('update_repository asks only for the widening direction', () => {
    const guard = updateRepository.guard;
    const current = {
      trusted: { network: false },
      require_approval: 'forks',
      visibility: 'private',
    };
    expect(guard?.reasons({ repo_id: 1, trusted_network: true }, current)).toEqual([
      'it grants trusted_network',
    ]);
    expect(guard?.reasons({ repo_id: 1, trusted_network: false }, current)).toEqual([]);
    // Pull requests switched on: under require_approval none a fork's pipeline then runs
    // unapproved with the pull request secrets; under any other level it waits.
    const noApproval = { ...current, require_approval: 'none', allow_pr: false };
    expect(guard?.reasons({ repo_id: 1, allow_pr: true }, noApproval)).toEqual([
      'it grants allow_pr',
    ]);
    expect(
      guard?.reasons({ repo_id: 1, allow_pr: true }, { ...noApproval, allow_pr: true }),
    ).toEqual([]);
    expect(
      guard?.reasons({ repo_id: 1, allow_pr: false }, { ...noApproval, allow_pr: true }),
    ).toEqual([]);
    // Deployments switched on: anyone with push access can then start deployment
    // pipelines, which receive the secrets kept for the deployment event.
    const noDeploy = { ...current, allow_deploy: false };
    expect(guard?.reasons({ repo_id: 1, allow_deploy: true }, noDeploy)).toEqual([
      'it grants allow_deploy',
    ]);
    expect(
      guard?.reasons({ repo_id: 1, allow_deploy: true }, { ...noDeploy, allow_deploy: true }),
    ).toEqual([]);
    expect(
      guard?.reasons({ repo_id: 1, allow_deploy: false }, { ...noDeploy, allow_deploy: true }),
    ).toEqual([]);
    expect(guard?.reasons({ repo_id: 1, require_approval: 'none' }, current)).toEqual([
      'it lowers require_approval',
    ]);
    expect(guard?.reasons({ repo_id: 1, require_approval: 'all_events' }, current)).toEqual([]);
    expect(guard?.reasons({ repo_id: 1, visibility: 'public' }, current)).toEqual([
      'it widens visibility',
    ]);
    expect(guard?.reasons({ repo_id: 1, visibility: 'internal' }, current)).toEqual([
      'it widens visibility',
    ]);
    expect(
      guard?.reasons({ repo_id: 1, visibility: 'public' }, { ...current, visibility: 'internal' }),
    ).toEqual(['it widens visibility']);
    expect(
      guard?.reasons({ repo_id: 1, visibility: 'internal' }, { ...current, visibility: 'public' }),
    ).toEqual([]);
    expect(
      guard?.reasons({ repo_id: 1, visibility: 'private' }, { ...current, visibility: 'internal' }),
    ).toEqual([]);
    expect(guard?.read?.({ repo_id: 1 })).toEqual({ method: 'GET', path: '/api/repos/1' });
  });

  it('create_secret asks when its events include any pull request event', () => {
    const base = { scope: 'repository', repo_id: 1, name: 's', value: 'v' } as const;
    const clear = [{ scope: 'global', status: 'clear' }] as const;
    for (const event of PULL_REQUEST_EVENTS)
      expect(
        createSecret.guard?.reasons({ ...base, events: ['push', event] }, undefined, clear),
        event,
      ).toEqual([PULL_REQUEST_REASON]);
    expect(
      createSecret.guard?.reasons({ ...base, events: ['push', 'tag'] }, undefined, clear),
    ).toEqual([]);
  });

  it('update_secret asks for a new value, an added pull_request event, emptied images', () => {
    const guard = updateSecret.guard;
    const current = { events: ['push'], images: ['alpine'] };
    const base = { scope: 'repository', repo_id: 1, name: 's' } as const;
    expect(guard?.reasons({ ...base, note: 'n' }, current)).toEqual([]);
    expect(guard?.reasons({ ...base, value: 'v' }, current)).toEqual(['a new value is given']);
    // Woodpecker's IsPullRequest counts all three, and hands the secret to each.
    for (const event of PULL_REQUEST_EVENTS) {
      expect(guard?.reasons({ ...base, events: ['push', event] }, current), event).toEqual([
        PULL_REQUEST_REASON,
      ]);
      // Already given to that event: nothing new.
      expect(guard?.reasons({ ...base, events: [event] }, { events: [event] }), event).toEqual([]);
    }
    // Another event of the family while one is there already still reaches new pipelines.
    expect(
      guard?.reasons(
        { ...base, events: ['pull_request', 'pull_request_closed'] },
        {
          events: ['pull_request'],
        },
      ),
    ).toEqual([PULL_REQUEST_REASON]);
    expect(guard?.reasons({ ...base, events: ['push', 'tag'] }, current)).toEqual([]);
    expect(guard?.reasons({ ...base, images: [] }, current)).toEqual(['it empties images']);
    expect(guard?.reasons({ ...base, images: ['busybox'] }, current)).toEqual([
      'it adds an entry to images',
    ]);
    expect(guard?.reasons({ ...base, images: ['alpine', 'busybox'] }, current)).toEqual([
      'it adds an entry to images',
    ]);
    expect(
      guard?.reasons(
        { ...base, images: ['alpine'] },
        { ...current, images: ['alpine', 'busybox'] },
      ),
    ).toEqual([]);
    expect(guard?.reasons({ ...base, images: ['alpine'] }, { ...current, images: null })).toEqual(
      [],
    );
  });

  // Woodpecker keeps the first secret of an exact name (repository, organization, global)
  // and then keys them by lower-cased name, so a later (wider) spelling wins; registries
  // match by host, where index.docker.io is docker.io, narrowest first.
  describe('shadows compares names as Woodpecker folds them', () => {
    const seen: string[] = [];
    const lists =
      (answers: Record<string, unknown[] | 'unreadable'>) =>
      async (request: WoodpeckerRequest): Promise<Looked> => {
        seen.push(`${request.path}?page=${request.query?.page ?? ''}`);
        if (request.path === '/api/repos/7') return { status: 'found', body: { id: 7, org_id: 3 } };
        const answer = answers[request.path];
        if (answer === 'unreadable') return { status: 'unreadable' };
        const page = Number(request.query?.page ?? '1');
        // Woodpecker answers an empty level with null (Go's empty list).
        return { status: 'found', body: page === 1 ? (answer ?? null) : null };
      };
    const secretAt = (name: string) => ({ id: 1, name, events: ['push'] });
    const repoLevel = {
      scope: 'repository',
      repo_id: 7,
      name: 'deploy_token',
      value: 'v',
      events: ['push'],
    } as const;
    const reasonsFor = async (
      args: Parameters<NonNullable<typeof createSecret.guard>['reasons']>[0],
      answers: Record<string, unknown[] | 'unreadable'>,
      tool = createSecret,
    ) => {
      const guard = tool.guard!;
      return guard.reasons(args, undefined, await guard.wider!(args, lists(answers)));
    };

    it('a repository secret asks when its own level, its organization or the instance has the name in any letter case', async () => {
      seen.length = 0;
      expect(await reasonsFor(repoLevel, {})).toEqual([]);
      expect(seen).toEqual([
        '/api/repos/7?page=',
        '/api/repos/7/secrets?page=1',
        '/api/orgs/3/secrets?page=1',
        '/api/secrets?page=1',
      ]);
      for (const [path, name] of [
        ['/api/repos/7/secrets', 'DEPLOY_TOKEN'],
        ['/api/orgs/3/secrets', 'Deploy_Token'],
        ['/api/orgs/3/secrets', 'deploy_token'],
        ['/api/secrets', 'DEPLOY_TOKEN'],
        ['/api/secrets', 'deploy_token'],
      ] as const) {
        expect(
          await reasonsFor(repoLevel, { [path]: [secretAt(name)] }),
          `${path} ${name}`,
        ).toEqual([SHADOW_REASON]);
      }
      // The same exact name at its own level is Woodpecker's to refuse; nothing to ask.
      expect(
        await reasonsFor(repoLevel, { '/api/repos/7/secrets': [secretAt('deploy_token')] }),
      ).toEqual([]);
      // Surrounding spaces are not folded: from_secret names the secret exactly.
      expect(await reasonsFor(repoLevel, { '/api/secrets': [secretAt(' deploy_token ')] })).toEqual(
        [],
      );
      expect(await reasonsFor(repoLevel, { '/api/orgs/3/secrets': 'unreadable' })).toEqual([
        SHADOW_REASON,
      ]);
    });

    it('reads a level page by page, and a level longer than it reads counts as unknown', async () => {
      const full = Array.from({ length: 50 }, (_, i) => secretAt(`other_${i}`));
      const pages = async (request: WoodpeckerRequest): Promise<Looked> => {
        if (request.path === '/api/repos/7') return { status: 'found', body: { org_id: 3 } };
        if (request.path !== '/api/secrets') return { status: 'found', body: [] };
        return {
          status: 'found',
          body: request.query?.page === '2' ? [secretAt('Deploy_TOKEN')] : full,
        };
      };
      const guard = createSecret.guard!;
      expect(guard.reasons(repoLevel, undefined, await guard.wider!(repoLevel, pages))).toEqual([
        SHADOW_REASON,
      ]);
      const endless = async (request: WoodpeckerRequest): Promise<Looked> =>
        request.path === '/api/repos/7'
          ? { status: 'found', body: { org_id: 3 } }
          : { status: 'found', body: full };
      expect(guard.reasons(repoLevel, undefined, await guard.wider!(repoLevel, endless))).toEqual([
        SHADOW_REASON,
      ]);
    });

    it('an organization or global secret always asks: it replaces any other spelling below it', async () => {
      for (const level of [{ scope: 'organization', org_id: 3 }, { scope: 'global' }] as const) {
        expect(
          await reasonsFor({ ...level, name: 'deploy_token', value: 'v', events: ['push'] }, {}),
        ).toContain('scope is one of organization, global');
      }
    });

    it('a repository registry asks when a wider level has its host, index.docker.io being docker.io', async () => {
      const registryAt = (address: string) => ({ id: 1, address, username: 'u' });
      const args = {
        scope: 'repository',
        repo_id: 7,
        address: 'docker.io',
        username: 'u',
        password: 'p',
      } as const;
      const ask = (answers: Record<string, unknown[] | 'unreadable'>) =>
        reasonsFor(args as never, answers, createRegistry as never);
      expect(await ask({})).toEqual([]);
      expect(await ask({ '/api/registries': [registryAt('index.docker.io')] })).toHaveLength(1);
      expect(await ask({ '/api/orgs/3/registries': [registryAt('docker.io')] })).toHaveLength(1);
      // Narrowest first: one at its own level already wins over the new one.
      expect(await ask({ '/api/repos/7/registries': [registryAt('index.docker.io')] })).toEqual([]);
      expect(await ask({ '/api/registries': [registryAt('ghcr.io')] })).toEqual([]);
    });
  });

  it('set_log_level asks only when it silences the server, and its dialog shows only the level', () => {
    const guard = setLogLevel.guard;
    expect(guard?.reasons({ level: 'debug' }, undefined)).toEqual([]);
    expect(guard?.reasons({ level: 'disabled' }, undefined)).toEqual([
      'level is one of fatal, panic, disabled',
    ]);
    expect(guard?.condition).toBe('only when level is one of fatal, panic, disabled');
  });

  it('delete_secret always asks', () => {
    expect(deleteSecret.guard?.reasons({ scope: 'global', name: 'x' }, undefined)).toEqual([
      'always asks',
    ]);
    expect(deleteSecret.guard?.condition).toBe('always');
  });
});
