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
import type { Looked } from '../../runtime/core/tool.js';
import type { WoodpeckerRequest } from '../../runtime/core/tool.js';

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
    expect(request).toEqual({
      method: 'PATCH',
      path: '/api/repos/7',
      body: { visibility: 'private', trusted: { network: true } },
    });
  });

  it('sends no empty nested object when none of its fields is given', () => {
    const request = updateRepository.request?.({ repo_id: 7, timeout: 30 });
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

  it('update_secret asks for a new value, an added pull_request event, emptied images', () => {
    const guard = updateSecret.guard;
    const current = { events: ['push'], images: ['alpine'] };
    const base = { scope: 'repository', repo_id: 1, name: 's' } as const;
    expect(guard?.reasons({ ...base, note: 'n' }, current)).toEqual([]);
    expect(guard?.reasons({ ...base, value: 'v' }, current)).toEqual(['a new value is given']);
    expect(guard?.reasons({ ...base, events: ['push', 'pull_request'] }, current)).toEqual([
      'it adds pull_request to events',
    ]);
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

  it('create_secret reads every wider level and asks when one has the name or cannot be read', async () => {
    const guard = createSecret.guard!;
    const seen: string[] = [];
    const lookFor =
      (answers: Record<string, Looked>) =>
      async (request: WoodpeckerRequest): Promise<Looked> => {
        seen.push(request.path);
        return answers[request.path] ?? { status: 'absent' };
      };
    const repoLevel = {
      scope: 'repository',
      repo_id: 7,
      name: 'TOKEN',
      value: 'v',
      events: ['push'],
    } as const;
    const repository: Looked = { status: 'found', body: { id: 7, org_id: 3 } };

    const none = await guard.wider!(repoLevel, lookFor({ '/api/repos/7': repository }));
    expect(seen).toEqual(['/api/repos/7', '/api/orgs/3/secrets/TOKEN', '/api/secrets/TOKEN']);
    expect(guard.reasons(repoLevel, undefined, none)).toEqual([]);

    const orgHasIt = await guard.wider!(
      repoLevel,
      lookFor({
        '/api/repos/7': repository,
        '/api/orgs/3/secrets/TOKEN': { status: 'found', body: {} },
      }),
    );
    expect(guard.reasons(repoLevel, undefined, orgHasIt)).toHaveLength(1);
    // A caller who may not read the organization's secrets (403): unknown, so it asks.
    const orgRefuses = await guard.wider!(
      repoLevel,
      lookFor({
        '/api/repos/7': repository,
        '/api/orgs/3/secrets/TOKEN': { status: 'unreadable' },
      }),
    );
    expect(guard.reasons(repoLevel, undefined, orgRefuses)).toHaveLength(1);
    const repositoryRefuses = await guard.wider!(
      repoLevel,
      lookFor({ '/api/repos/7': { status: 'unreadable' } }),
    );
    expect(guard.reasons(repoLevel, undefined, repositoryRefuses)).toHaveLength(1);

    seen.length = 0;
    const orgLevel = {
      scope: 'organization',
      org_id: 3,
      name: 'TOKEN',
      value: 'v',
      events: ['push'],
    } as const;
    const globalHasIt = await guard.wider!(
      orgLevel,
      lookFor({ '/api/secrets/TOKEN': { status: 'found', body: {} } }),
    );
    expect(seen).toEqual(['/api/secrets/TOKEN']);
    expect(guard.reasons(orgLevel, undefined, globalHasIt)).toHaveLength(1);

    seen.length = 0;
    const globalLevel = { scope: 'global', name: 'TOKEN', value: 'v', events: ['push'] } as const;
    expect(
      guard.reasons(globalLevel, undefined, await guard.wider!(globalLevel, lookFor({}))),
    ).toEqual([]);
    expect(seen).toEqual([]);
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
