// Conditional guards: each asking condition asks (a dialog, or a token without one) and
// changes nothing until answered; its harmless opposite applies on the first call with
// no dialog and no token. "Grants", "lowers", "adds" and "empties" compare with the
// current value in Woodpecker, so the same argument can ask or not depending on it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { adminApi, createRepo, forgeRepo, serverOlderThan, userApi } from '../harness/fixtures.js';
import type { TestRepo } from '../harness/fixtures.js';
import { logLevel, orgOf, setLogLevel, shadowName, throwawayUser } from './guardFixtures.js';
import type { McpSession } from './mcpSession.js';
import { openSession, textOf } from './mcpSession.js';

const api = adminApi;

interface Case {
  readonly title: string;
  readonly tool: string;
  /** The reason the dialog gives (asking cases only). */
  readonly reason?: string;
  /** Prepares Woodpecker; returns the call's arguments and how to see that it applied. */
  prepare(): Promise<{
    args: Record<string, unknown>;
    applied(): Promise<boolean>;
    cleanup?: () => Promise<void>;
    /** A server-side fact the question shows word for word. */
    shows?: string;
  }>;
}

type RepoView = {
  visibility: string;
  require_approval: string;
  timeout: number;
  allow_deploy: boolean;
  allow_pr: boolean;
  trusted: { network: boolean; volumes: boolean; security: boolean };
};
const repoOf = (repo: TestRepo) => api().get<RepoView>(`/api/repos/${repo.repoId}`);

function repoCase(
  title: string,
  reason: string | undefined,
  initial: Record<string, unknown>,
  change: Record<string, unknown>,
  applied: (view: RepoView) => boolean,
  options: { private?: boolean } = {},
): Case {
  return {
    title,
    tool: 'update_repository',
    ...(reason ? { reason } : {}),
    async prepare() {
      const repo = await createRepo({ private: options.private ?? false });
      if (Object.keys(initial).length > 0) await api().patch(`/api/repos/${repo.repoId}`, initial);
      expect(applied(await repoOf(repo)), `${title}: already applied before the call`).toBe(false);
      return {
        args: { repo_id: repo.repoId, ...change },
        applied: async () => applied(await repoOf(repo)),
      };
    },
  };
}

type SecretView = { events: string[]; images: string[] | null; note: string };
function secretCase(
  title: string,
  reason: string | undefined,
  initial: { events: string[]; images?: string[]; note?: string },
  change: Record<string, unknown>,
  applied: (view: SecretView) => boolean,
): Case {
  return {
    title,
    tool: 'update_secret',
    ...(reason ? { reason } : {}),
    async prepare() {
      const repo = await createRepo();
      await api().post(`/api/repos/${repo.repoId}/secrets`, {
        name: 'cond_secret',
        value: 'v1',
        ...initial,
      });
      const read = () => api().get<SecretView>(`/api/repos/${repo.repoId}/secrets/cond_secret`);
      const before = await read();
      expect(applied(before), `${title}: already applied before the call`).toBe(false);
      return {
        args: { scope: 'repository', repo_id: repo.repoId, name: 'cond_secret', ...change },
        applied: async () => applied(await read()),
        // What the secret is now, from the closed vocabulary: its events, its image count.
        shows: `Today it goes to pipelines of these events: ${before.events.join(', ')}; image filters: ${before.images?.length ?? 0} (0: every step).`,
      };
    },
  };
}

type Level = 'repository' | 'organization' | 'global';
const SHADOW_REASON =
  'pipelines would take it for an entry that exists already (or a level could not be read)';

const SCOPE_REASON = 'scope is one of organization, global';
const PULL_REQUEST_REASON =
  'it adds a pull request event (pull_request, pull_request_closed, pull_request_metadata) to events';

/**
 * create_secret / create_registry at `level`, with an entry at `existing` (or none) under
 * the same name, or (`capitals`) the same name in capital letters. Woodpecker keeps the
 * narrowest entry of an exact name, then compares secret names without letter case and
 * lets the widest spelling win; registries go narrowest first. So a new secret swaps what
 * pipelines receive when its own level or a wider one has the name in another spelling,
 * or a wider one has it exactly; one at organization or global level can swap any
 * repository's below it, so it always asks. A registry swaps only a wider one.
 */
function shadowCase(
  title: string,
  kind: 'secret' | 'registry',
  level: Level,
  existing: Level | undefined,
  spelling: 'same' | 'capitals' = 'same',
): Case {
  const rank = (at: Level) => ['repository', 'organization', 'global'].indexOf(at);
  const reason =
    kind === 'secret' && level !== 'repository'
      ? SCOPE_REASON
      : existing === undefined
        ? undefined
        : rank(existing) > rank(level) ||
            (kind === 'secret' && existing === level && spelling === 'capitals')
          ? SHADOW_REASON
          : undefined;
  return {
    title,
    tool: kind === 'secret' ? 'create_secret' : 'create_registry',
    ...(reason ? { reason } : {}),
    async prepare() {
      const repo = await createRepo();
      const orgId = await orgOf(repo);
      const name = shadowName();
      const key = kind === 'secret' ? name : `${name}.example.invalid`;
      const existingKey = spelling === 'capitals' ? key.toUpperCase() : key;
      const collection = kind === 'secret' ? 'secrets' : 'registries';
      const base = (at: Level) =>
        at === 'repository'
          ? `/api/repos/${repo.repoId}`
          : at === 'organization'
            ? `/api/orgs/${orgId}`
            : '/api';
      const entry =
        kind === 'secret'
          ? { name: existingKey, value: 'old-value', events: ['push'] }
          : { address: existingKey, username: 'old-puller', password: 'old-pw' };
      if (existing) await api().post(`${base(existing)}/${collection}`, entry);
      const where =
        level === 'repository'
          ? { repo_id: repo.repoId }
          : level === 'organization'
            ? { org_id: orgId }
            : {};
      const fields =
        kind === 'secret'
          ? { name: key, value: 'new-value', events: ['push'] }
          : { address: key, username: 'new-puller', password: 'new-pw' };
      const exists = async () =>
        (await api().request('GET', `${base(level)}/${collection}/${encodeURIComponent(key)}`))
          .status === 200;
      expect(await exists(), `${title}: already there before the call`).toBe(
        existing === level && existingKey === key,
      );
      return {
        args: { scope: level, ...where, ...fields },
        applied: exists,
        cleanup: async () => {
          for (const at of ['repository', 'organization', 'global'] as const)
            for (const spelled of new Set([key, existingKey]))
              await api().request(
                'DELETE',
                `${base(at)}/${collection}/${encodeURIComponent(spelled)}`,
              );
        },
      };
    },
  };
}

function registryCase(
  title: string,
  reason: string | undefined,
  change: Record<string, unknown>,
): Case {
  return {
    title,
    tool: 'update_registry',
    ...(reason ? { reason } : {}),
    async prepare() {
      const repo = await createRepo();
      await api().post(`/api/repos/${repo.repoId}/registries`, {
        address: 'cond.example.invalid',
        username: 'puller',
        password: 'pw1',
      });
      return {
        args: {
          scope: 'repository',
          repo_id: repo.repoId,
          address: 'cond.example.invalid',
          ...change,
        },
        applied: async () =>
          (
            await api().get<{ username: string }>(
              `/api/repos/${repo.repoId}/registries/cond.example.invalid`,
            )
          ).username === change.username,
      };
    },
  };
}

async function userView(login: string): Promise<{ email: string; admin: boolean }> {
  const user = await api().get<{ email: string; admin?: boolean }>(
    `/api/users/${login}?forge_id=1`,
  );
  return { email: user.email, admin: user.admin === true };
}

function userCase(
  title: string,
  reason: string | undefined,
  startAdmin: boolean,
  change: (email: string) => Record<string, unknown>,
  applied: (view: { email: string; admin: boolean }, email: string) => boolean,
): Case {
  return {
    title,
    tool: 'update_user',
    ...(reason ? { reason } : {}),
    async prepare() {
      const user = await throwawayUser();
      const { email } = await userView(user.login);
      if (startAdmin) {
        const remoteId = (
          await api().get<{ forge_remote_id: string }>(`/api/users/${user.login}?forge_id=1`)
        ).forge_remote_id;
        await api().patch(`/api/users/${user.login}`, {
          login: user.login,
          forge_id: 1,
          forge_remote_id: remoteId,
          email,
          admin: true,
        });
        expect((await userView(user.login)).admin).toBe(true);
      }
      return {
        args: { login: user.login, forge_id: 1, ...change(email) },
        applied: async () => applied(await userView(user.login), email),
      };
    },
  };
}

function createUserCase(
  title: string,
  reason: string | undefined,
  admin: boolean | undefined,
): Case {
  return {
    title,
    tool: 'create_user',
    ...(reason ? { reason } : {}),
    async prepare() {
      const login = `cond-new-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
      const exists = async () =>
        (await api().request('GET', `/api/users/${login}?forge_id=1`)).status === 200;
      return {
        args: {
          login,
          forge_id: 1,
          email: `${login}@example.invalid`,
          ...(admin === undefined ? {} : { admin }),
        },
        applied: exists,
        // Woodpecker gives API-created accounts forge_remote_id "0", unique per forge.
        cleanup: async () => {
          if (await exists()) await api().delete(`/api/users/${login}?forge_id=1`);
        },
      };
    },
  };
}

function repairCase(
  title: string,
  reason: string | undefined,
  scope: 'instance' | 'repository',
): Case {
  return {
    title,
    tool: 'repair_repository',
    ...(reason ? { reason } : {}),
    async prepare() {
      const repo = await createRepo();
      const hooks = async () => (await forgeRepo(repo)).hooks.map((hook) => hook.id).join(',');
      const before = await hooks();
      return {
        args: scope === 'instance' ? { scope } : { scope, repo_id: repo.repoId },
        applied: async () => (await hooks()) !== before,
      };
    },
  };
}

function levelCase(level: string, asks: boolean): Case {
  return {
    title: `set_log_level ${level}`,
    tool: 'set_log_level',
    ...(asks ? { reason: 'level is one of fatal, panic, disabled' } : {}),
    async prepare() {
      const start = level === 'info' ? 'debug' : 'info';
      await setLogLevel(start);
      return {
        args: { level },
        applied: async () => (await logLevel()) === level,
        cleanup: () => setLogLevel('info'),
      };
    },
  };
}

/** Whether the Woodpecker under test stores a secret's note (3.13 and newer). */
const NOTES = !serverOlderThan('3.13.0');

const ASKING: readonly Case[] = [
  repoCase(
    'update_repository turns allow_pr on while require_approval is none',
    'it grants allow_pr',
    { allow_pr: false, require_approval: 'none' },
    { allow_pr: true },
    (view) => view.allow_pr,
  ),
  repoCase(
    'update_repository turns allow_deploy on',
    'it grants allow_deploy',
    { allow_deploy: false },
    { allow_deploy: true },
    (view) => view.allow_deploy,
  ),
  repoCase(
    'update_repository grants trusted_network',
    'it grants trusted_network',
    {},
    { trusted_network: true },
    (view) => view.trusted.network,
  ),
  repoCase(
    'update_repository grants trusted_volumes',
    'it grants trusted_volumes',
    {},
    { trusted_volumes: true },
    (view) => view.trusted.volumes,
  ),
  repoCase(
    'update_repository grants trusted_security',
    'it grants trusted_security',
    {},
    { trusted_security: true },
    (view) => view.trusted.security,
  ),
  repoCase(
    'update_repository lowers require_approval forks → none',
    'it lowers require_approval',
    { require_approval: 'forks' },
    { require_approval: 'none' },
    (view) => view.require_approval === 'none',
  ),
  repoCase(
    'update_repository lowers require_approval all_events → pull_requests',
    'it lowers require_approval',
    { require_approval: 'all_events' },
    { require_approval: 'pull_requests' },
    (view) => view.require_approval === 'pull_requests',
  ),
  repoCase(
    'update_repository widens visibility private → public',
    'it widens visibility',
    {},
    { visibility: 'public' },
    (view) => view.visibility === 'public',
    { private: true },
  ),
  repoCase(
    'update_repository widens visibility private → internal',
    'it widens visibility',
    {},
    { visibility: 'internal' },
    (view) => view.visibility === 'internal',
    { private: true },
  ),
  repoCase(
    'update_repository widens visibility internal → public',
    'it widens visibility',
    { visibility: 'internal' },
    { visibility: 'public' },
    (view) => view.visibility === 'public',
    { private: true },
  ),
  // The value cannot be read back: a visible change beside it shows the call applied (a
  // note from 3.13 on, which older releases refuse; tag in events before).
  NOTES
    ? secretCase(
        'update_secret with a new value (and a visible note change)',
        'a new value is given',
        { events: ['push'] },
        { value: 'v2', note: 'rotated' },
        (view) => view.note === 'rotated',
      )
    : secretCase(
        'update_secret with a new value (and a visible events change)',
        'a new value is given',
        { events: ['push'] },
        { value: 'v2', events: ['push', 'tag'] },
        (view) => view.events.includes('tag'),
      ),
  // Woodpecker's IsPullRequest counts all three events, and hands the secret to each.
  ...['pull_request', 'pull_request_closed', 'pull_request_metadata'].map((event) =>
    secretCase(
      `update_secret adds ${event} to events`,
      PULL_REQUEST_REASON,
      { events: ['push'] },
      { events: ['push', event] },
      (view) => view.events.includes(event),
    ),
  ),
  secretCase(
    'update_secret adds pull_request_closed beside the pull_request it has',
    PULL_REQUEST_REASON,
    { events: ['push', 'pull_request'] },
    { events: ['push', 'pull_request', 'pull_request_closed'] },
    (view) => view.events.includes('pull_request_closed'),
  ),
  secretCase(
    'update_secret empties images',
    'it empties images',
    { events: ['push'], images: ['alpine'] },
    { images: [] },
    (view) => (view.images ?? []).length === 0,
  ),
  secretCase(
    'update_secret replaces images with other images',
    'it adds an entry to images',
    { events: ['push'], images: ['alpine'] },
    { images: ['busybox'] },
    (view) => view.images?.includes('busybox') === true,
  ),
  secretCase(
    'update_secret adds an image to images',
    'it adds an entry to images',
    { events: ['push'], images: ['alpine'] },
    { images: ['alpine', 'busybox'] },
    (view) => view.images?.includes('busybox') === true,
  ),
  shadowCase(
    'create_secret at repository level over an organization secret',
    'secret',
    'repository',
    'organization',
  ),
  shadowCase(
    'create_secret at repository level over a global secret',
    'secret',
    'repository',
    'global',
  ),
  shadowCase(
    'create_secret at organization level over a global secret',
    'secret',
    'organization',
    'global',
  ),
  shadowCase(
    'create_secret at repository level over an organization secret spelled in capitals',
    'secret',
    'repository',
    'organization',
    'capitals',
  ),
  shadowCase(
    'create_secret at repository level beside its own secret spelled in capitals',
    'secret',
    'repository',
    'repository',
    'capitals',
  ),
  shadowCase(
    'create_secret at global level over a repository secret spelled in capitals',
    'secret',
    'global',
    'repository',
    'capitals',
  ),
  shadowCase(
    'create_secret at global level over an organization secret',
    'secret',
    'global',
    'organization',
  ),
  shadowCase(
    'create_secret at organization level over a repository secret spelled in capitals',
    'secret',
    'organization',
    'repository',
    'capitals',
  ),
  shadowCase(
    'create_registry at repository level over an organization registry',
    'registry',
    'repository',
    'organization',
  ),
  shadowCase(
    'create_registry at repository level over a global registry',
    'registry',
    'repository',
    'global',
  ),
  shadowCase(
    'create_registry at organization level over a global registry',
    'registry',
    'organization',
    'global',
  ),
  registryCase('update_registry with a new password', 'a new password is given', {
    username: 'puller2',
    password: 'pw2',
  }),
  userCase(
    'update_user grants admin',
    'it grants admin',
    false,
    (email) => ({ email, admin: true }),
    (view) => view.admin,
  ),
  createUserCase('create_user of an admin', 'admin is true', true),
  repairCase('repair_repository at scope instance', 'scope is instance', 'instance'),
  levelCase('fatal', true),
  levelCase('panic', true),
  levelCase('disabled', true),
];

const HARMLESS: readonly Case[] = [
  repoCase(
    'update_repository turns allow_pr off',
    undefined,
    { allow_pr: true },
    { allow_pr: false },
    (view) => !view.allow_pr,
  ),
  repoCase(
    'update_repository turns allow_deploy off',
    undefined,
    { allow_deploy: true },
    { allow_deploy: false },
    (view) => !view.allow_deploy,
  ),
  repoCase(
    'update_repository withdraws trusted_network',
    undefined,
    { trusted: { network: true } },
    { trusted_network: false },
    (view) => !view.trusted.network,
  ),
  repoCase(
    'update_repository trusted_network: true when it is already on',
    undefined,
    { trusted: { network: true } },
    { trusted_network: true, timeout: 61 },
    (view) => view.trusted.network && view.timeout === 61,
  ),
  repoCase(
    'update_repository raises require_approval forks → all_events',
    undefined,
    { require_approval: 'forks' },
    { require_approval: 'all_events' },
    (view) => view.require_approval === 'all_events',
  ),
  repoCase(
    'update_repository keeps require_approval at none',
    undefined,
    { require_approval: 'none' },
    { require_approval: 'none', timeout: 62 },
    (view) => view.require_approval === 'none' && view.timeout === 62,
  ),
  repoCase(
    'update_repository narrows visibility public → private',
    undefined,
    {},
    { visibility: 'private' },
    (view) => view.visibility === 'private',
  ),
  repoCase(
    'update_repository narrows visibility public → internal',
    undefined,
    {},
    { visibility: 'internal' },
    (view) => view.visibility === 'internal',
  ),
  repoCase(
    'update_repository narrows visibility internal → private',
    undefined,
    { visibility: 'internal' },
    { visibility: 'private' },
    (view) => view.visibility === 'private',
  ),
  // Before 3.13 a note is refused with the release it needs (tools-secrets-registries).
  ...(NOTES
    ? [
        secretCase(
          'update_secret changes only its note',
          undefined,
          { events: ['push'] },
          { note: 'who owns this' },
          (view) => view.note === 'who owns this',
        ),
      ]
    : []),
  secretCase(
    'update_secret narrows events',
    undefined,
    { events: ['push', 'pull_request'] },
    { events: ['push'] },
    (view) => !view.events.includes('pull_request'),
  ),
  secretCase(
    'update_secret keeps pull_request it already has and adds tag',
    undefined,
    { events: ['push', 'pull_request'] },
    { events: ['push', 'pull_request', 'tag'] },
    (view) => view.events.includes('tag'),
  ),
  secretCase(
    'update_secret narrows images',
    undefined,
    { events: ['push'], images: ['alpine', 'busybox'] },
    { images: ['alpine'] },
    (view) => view.images?.length === 1,
  ),
  // events shows that the call applied (a note would need Woodpecker 3.13).
  secretCase(
    'update_secret keeps the same images in another order',
    undefined,
    { events: ['push'], images: ['alpine', 'busybox'] },
    { images: ['busybox', 'alpine'], events: ['push', 'tag'] },
    (view) => view.events.includes('tag'),
  ),
  secretCase(
    'update_secret limits a secret every step had to some images',
    undefined,
    { events: ['push'] },
    { images: ['alpine'] },
    (view) => view.images?.length === 1,
  ),
  shadowCase(
    'create_secret at repository level with a name no wider level has',
    'secret',
    'repository',
    undefined,
  ),
  shadowCase(
    'create_registry at repository level with an address no wider level has',
    'registry',
    'repository',
    undefined,
  ),
  shadowCase(
    'create_registry at global level over an organization registry',
    'registry',
    'global',
    'organization',
  ),
  registryCase('update_registry changes only the username', undefined, { username: 'puller2' }),
  userCase(
    'update_user changes the email',
    undefined,
    false,
    () => ({ email: 'changed@example.invalid', admin: false }),
    (view) => view.email === 'changed@example.invalid',
  ),
  userCase(
    'update_user removes admin',
    undefined,
    true,
    (email) => ({ email, admin: false }),
    (view) => !view.admin,
  ),
  createUserCase('create_user of a non-admin', undefined, false),
  createUserCase('create_user without admin', undefined, undefined),
  repairCase('repair_repository at scope repository', undefined, 'repository'),
  ...['trace', 'debug', 'info', 'warn', 'error'].map((level) => levelCase(level, false)),
];

describe.each([
  { label: 'a client with dialogs (2025-11-25)', options: { revision: '2025-11-25' as const } },
  {
    label: 'a client with dialogs (2026-07-28, sealed state)',
    options: { revision: '2026-07-28' as const },
  },
  {
    label: 'a client without dialogs (2026-07-28, token)',
    options: { revision: '2026-07-28' as const, canElicit: false },
  },
])('$label', ({ options }) => {
  let session: McpSession;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    session = await openSession(options);
    session.answer = 'decline';
  });
  afterAll(() => session?.close());
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await setLogLevel('info');
  });

  const tokenIn = (result: CallToolResult) =>
    (result.structuredContent as { confirm_token?: unknown } | undefined)?.confirm_token;

  it.each(ASKING.map((one) => [one.title, one] as const))('asks: %s', async (_title, one) => {
    const prepared = await one.prepare();
    if (prepared.cleanup) cleanups.push(prepared.cleanup);
    const shown = session.dialogs.length;
    const result = await session.call(one.tool, prepared.args);
    if (options.canElicit === false) {
      expect(typeof tokenIn(result), textOf(result)).toBe('string');
      expect(textOf(result)).toContain(`This asks because ${one.reason}`);
      if (prepared.shows) expect(textOf(result)).toContain(prepared.shows);
    } else {
      expect(session.dialogs.length).toBe(shown + 1);
      expect(session.dialogs.at(-1)).toContain(`This asks because ${one.reason}`);
      if (prepared.shows) expect(session.dialogs.at(-1)).toContain(prepared.shows);
      expect(textOf(result)).toMatch(/^Nothing was changed: the person declined/);
    }
    expect(await prepared.applied(), 'the asking call applied without an answer').toBe(false);
  });

  it.each(HARMLESS.map((one) => [one.title, one] as const))(
    'applies at once: %s',
    async (_title, one) => {
      const prepared = await one.prepare();
      if (prepared.cleanup) cleanups.push(prepared.cleanup);
      const shown = session.dialogs.length;
      const result = await session.call(one.tool, prepared.args);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(tokenIn(result), textOf(result)).toBeUndefined();
      expect(session.dialogs.length, 'a dialog was shown for the harmless direction').toBe(shown);
      expect(await prepared.applied(), 'the harmless direction did not apply').toBe(true);
    },
  );
});

describe('create_secret when a wider level cannot be read', () => {
  it('asks: a caller who is not an admin of the organization gets 403 there, and unknown is not taken as "nothing to shadow"', async () => {
    // A public repository of wp-admin's namespace, no secret of that name anywhere.
    const repo = await createRepo();
    const orgId = await orgOf(repo);
    const name = shadowName();
    expect((await userApi().request('GET', `/api/orgs/${orgId}/secrets/${name}`)).status).toBe(403);
    expect((await api().request('GET', `/api/orgs/${orgId}/secrets/${name}`)).status).toBe(404);
    expect((await api().request('GET', `/api/secrets/${name}`)).status).toBe(404);

    const session = await openSession({ revision: '2025-11-25', as: 'user' });
    try {
      session.answer = 'decline';
      const result = await session.call('create_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name,
        value: 'v',
        events: ['push'],
      });
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`This asks because ${SHADOW_REASON}`);
      expect(textOf(result)).toMatch(/^Nothing was changed: the person declined/);
    } finally {
      await session.close();
    }
    expect((await api().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status).toBe(
      404,
    );

    // The same call as the admin, who can read every level: nothing to shadow, no dialog.
    const admin = await openSession({ revision: '2025-11-25' });
    try {
      admin.answer = 'decline';
      const created = await admin.call('create_secret', {
        scope: 'repository',
        repo_id: repo.repoId,
        name,
        value: 'v',
        events: ['push'],
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      expect(admin.dialogs).toHaveLength(0);
    } finally {
      await admin.close();
    }
  });
});

describe('a guarded call only an instance admin may make, by an account that is not one', () => {
  it('is refused before anyone is asked: create_secret at global level as a non-admin', async () => {
    const name = shadowName();
    const session = await openSession({ revision: '2025-11-25', as: 'user' });
    try {
      session.answer = 'approve';
      const result = await session.call('create_secret', {
        scope: 'global',
        name,
        value: 'v',
        events: ['push'],
      });
      expect(session.dialogs, 'a person was asked about a call Woodpecker refuses').toHaveLength(0);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/needs an instance admin/);
      expect(textOf(result)).toMatch(/Nobody was asked and nothing was sent/);
    } finally {
      await session.close();
    }
    expect((await api().request('GET', `/api/secrets/${name}`)).status).toBe(404);
  });

  it('update_repository granting trusted_network as a repository admin who is not an instance admin', async () => {
    const repo = await createRepo({ owner: 'user' });
    const session = await openSession({ revision: '2026-07-28', as: 'user' });
    try {
      const result = await session.call('update_repository', {
        repo_id: repo.repoId,
        trusted_network: true,
      });
      expect(session.dialogs).toHaveLength(0);
      expect(textOf(result)).toMatch(/needs an instance admin/);
    } finally {
      await session.close();
    }
    expect((await repoOf(repo)).trusted.network).toBe(false);
  });

  it('delete_agent of a server agent (no org_id) as a non-admin, on both revisions and the token path', async () => {
    const agent = await api().post<{ id: number }>('/api/agents', { name: shadowName() });
    for (const options of [
      { revision: '2025-11-25' },
      { revision: '2026-07-28' },
      { revision: '2025-11-25', canElicit: false },
    ] as const) {
      const session = await openSession({ ...options, as: 'user' });
      try {
        session.answer = 'approve';
        const result = await session.call('delete_agent', { agent_id: agent.id });
        expect(session.dialogs, 'a person was asked about a call Woodpecker refuses').toHaveLength(
          0,
        );
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/needs an instance admin/);
        expect(JSON.stringify(result.structuredContent ?? {})).not.toContain('confirm_token');
      } finally {
        await session.close();
      }
    }
    expect((await api().request('GET', `/api/agents/${agent.id}`)).status).toBe(200);
    await api().request('DELETE', `/api/agents/${agent.id}`);
  });
});
