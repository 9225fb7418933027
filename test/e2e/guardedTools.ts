// The guard matrix's table: for each of the 26 guarded tools, how to make a fresh target
// in the real Woodpecker of the harness, the arguments of a call that must ask, and how
// to see (as the admin, through Woodpecker's API) whether the call's effect happened.
//
// Conditional tools use their asking direction. Targets never touch forge 1, the
// harness's own agent or its two accounts. Tools with instance-wide effects
// (pause_queue, set_log_level, repair_repository at scope instance) restore or re-read
// their state in cleanup()/rebase(); call cleanupAll() in afterEach.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import {
  adminApi,
  createRepo,
  serverOlderThan,
  stepLogLines,
  uniqueName,
  userApi,
} from '../harness/fixtures.js';
import {
  FORGE_ID,
  SILENT_LEVELS,
  approvalRepo,
  blockedPipelines,
  finishedPipeline,
  hookIds,
  logLevel,
  orgOf,
  pipelineStatus,
  queuePaused,
  resumeQueue,
  setLogLevel,
  shadowName,
  statusOf,
  storedRegistryId,
  throwawayUser,
  userAdmin,
} from './guardFixtures.js';

/**
 * The 26 guarded tools: the 23 the specification lists (docs: tools.md "Guarded tools"),
 * create_forge (a forge whose accounts log in here widens reach like update_forge does),
 * and create_secret / create_registry (a name that shadows one at a wider level swaps
 * what pipelines receive, like update_secret {value} and update_registry {password}).
 */
export const SPEC_GUARDED_TOOLS = [
  'delete_repository',
  'delete_pipeline',
  'delete_pipeline_logs',
  'delete_step_logs',
  'delete_secret',
  'delete_registry',
  'delete_cron',
  'delete_user',
  'delete_agent',
  'delete_forge',
  'delete_organization',
  'move_repository',
  'chown_repository',
  'repair_repository',
  'update_forge',
  'create_forge',
  'pause_queue',
  'approve_pipeline',
  'update_user',
  'create_user',
  'update_repository',
  'update_secret',
  'update_registry',
  'create_secret',
  'create_registry',
  'set_log_level',
] as const;

export type GuardedToolName = (typeof SPEC_GUARDED_TOOLS)[number];

export interface Target {
  /** Arguments of a call that must ask. */
  readonly args: Record<string, unknown>;
  /** Numbers the dialog must name (the ids of the target). */
  readonly ids: readonly number[];
  /** Server-side facts the dialog must show word for word (a secret's events, a forge's host). */
  readonly shows: readonly string[];
  /** Whether the guarded effect has happened, read from Woodpecker as the admin. */
  changed(): Promise<boolean>;
  /** Undo instance-wide effects (resume the queue, log level back to info). */
  cleanup(): Promise<void>;
  /** Re-read the baseline after another target's instance-wide effect (repair). */
  rebase(): Promise<void>;
  /**
   * An error answer that may come with the effect for reasons outside this target
   * (repair at scope instance reports every other repository it could not repair).
   */
  readonly toleratedError?: RegExp;
}

export interface GuardedTool {
  readonly name: GuardedToolName;
  /** Whether another target exists at all (pause_queue has no target arguments). */
  readonly hasTargets: boolean;
  /** Makes a fresh target; `variant` picks between asking values where only one target exists (log levels). */
  create(variant?: number): Promise<Target>;
}

const api = adminApi;
const noop = async (): Promise<void> => undefined;

function target(
  args: Record<string, unknown>,
  ids: readonly number[],
  changed: () => Promise<boolean>,
  extra: Partial<Pick<Target, 'cleanup' | 'rebase' | 'toleratedError' | 'shows'>> = {},
): Target {
  return {
    args,
    ids,
    shows: extra.shows ?? [],
    changed,
    cleanup: extra.cleanup ?? noop,
    rebase: extra.rebase ?? noop,
    ...(extra.toleratedError ? { toleratedError: extra.toleratedError } : {}),
  };
}

/** Asserts that a call that was let through succeeded (or failed only as the target allows). */
export function expectActed(target: Target, result: CallToolResult): void {
  const text = (result.content ?? [])
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
  if (result.isError && target.toleratedError) expect(text).toMatch(target.toleratedError);
  else expect(result.isError, text).toBeFalsy();
  expect(
    (result.structuredContent as Record<string, unknown> | undefined)?.confirm_token,
    text,
  ).toBeUndefined();
}

export const GUARDED_TOOLS: readonly GuardedTool[] = [
  {
    name: 'delete_repository',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      return target(
        { repo_id: repo.repoId },
        [repo.repoId],
        async () =>
          (await api().get<{ active: boolean }>(`/api/repos/${repo.repoId}`)).active === false,
      );
    },
  },
  {
    name: 'delete_pipeline',
    hasTargets: true,
    async create() {
      const { repo, number } = await finishedPipeline();
      return target(
        { repo_id: repo.repoId, number },
        [repo.repoId, number],
        async () => (await statusOf(`/api/repos/${repo.repoId}/pipelines/${number}`)) === 404,
      );
    },
  },
  {
    name: 'delete_pipeline_logs',
    hasTargets: true,
    async create() {
      const { repo, number, stepId } = await finishedPipeline();
      return target(
        { repo_id: repo.repoId, number },
        [repo.repoId, number],
        async () => (await stepLogLines(repo.repoId, number, stepId)).length === 0,
      );
    },
  },
  {
    name: 'delete_step_logs',
    hasTargets: true,
    async create() {
      const { repo, number, stepId } = await finishedPipeline();
      return target(
        { repo_id: repo.repoId, number, step_id: stepId },
        [repo.repoId, number, stepId],
        async () => (await stepLogLines(repo.repoId, number, stepId)).length === 0,
      );
    },
  },
  {
    name: 'delete_secret',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const name = 'guarded_secret';
      const secret = await api().post<{ id: number }>(`/api/repos/${repo.repoId}/secrets`, {
        name,
        value: 'v1',
        events: ['push', 'tag'],
        images: ['alpine', 'golang:1'],
      });
      // The dialog names the secret by its own id (and no secret by its name), and tells it
      // from its neighbours by its events and how many image filters it has.
      return target(
        { scope: 'repository', repo_id: repo.repoId, name },
        [secret.id],
        async () => (await statusOf(`/api/repos/${repo.repoId}/secrets/${name}`)) === 404,
        { shows: ['It goes to pipelines of these events: push, tag; image filters: 2 '] },
      );
    },
  },
  {
    name: 'delete_registry',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const address = 'registry.example.invalid';
      await api().post(`/api/repos/${repo.repoId}/registries`, {
        address,
        username: 'puller',
        password: 'pw1',
      });
      const registryId = await storedRegistryId(repo, address);
      return target(
        { scope: 'repository', repo_id: repo.repoId, address },
        [registryId],
        async () => (await statusOf(`/api/repos/${repo.repoId}/registries/${address}`)) === 404,
      );
    },
  },
  {
    name: 'delete_cron',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const cron = await api().post<{ id: number }>(`/api/repos/${repo.repoId}/cron`, {
        name: 'nightly',
        schedule: '@daily',
        branch: 'main',
      });
      return target(
        { repo_id: repo.repoId, cron_id: cron.id },
        [repo.repoId, cron.id],
        async () => (await statusOf(`/api/repos/${repo.repoId}/cron/${cron.id}`)) === 404,
      );
    },
  },
  {
    name: 'delete_user',
    hasTargets: true,
    async create() {
      const user = await throwawayUser();
      return target(
        { login: user.login, forge_id: FORGE_ID },
        [FORGE_ID, user.id],
        async () => (await statusOf(`/api/users/${user.login}?forge_id=${FORGE_ID}`)) === 404,
      );
    },
  },
  {
    name: 'delete_agent',
    hasTargets: true,
    async create() {
      const agent = await api().post<{ id: number }>('/api/agents', {
        name: uniqueName('guard-agent'),
        no_schedule: true,
      });
      return target(
        { agent_id: agent.id },
        [agent.id],
        async () => (await statusOf(`/api/agents/${agent.id}`)) === 404,
      );
    },
  },
  {
    name: 'delete_forge',
    hasTargets: true,
    async create() {
      const forge = await api().post<{ id: number }>('/api/forges', {
        type: 'gitea',
        url: 'http://127.0.0.1:9',
        client: uniqueName('guard-forge'),
        oauth_client_secret: 's',
      });
      expect(forge.id).not.toBe(FORGE_ID);
      return target(
        { forge_id: forge.id },
        [forge.id],
        async () => (await statusOf(`/api/forges/${forge.id}`)) === 404,
      );
    },
  },
  {
    name: 'delete_organization',
    hasTargets: true,
    async create() {
      const user = await throwawayUser();
      return target({ org_id: user.orgId }, [user.orgId], async () => {
        const answer = await api().request<{ id?: number; name?: string }>(
          'GET',
          `/api/orgs/${user.orgId}`,
        );
        // Woodpecker 3.17 answers a deleted org with 200 and an empty record.
        return answer.status === 404 || answer.body?.id !== user.orgId;
      });
    },
  },
  {
    name: 'move_repository',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const destination = await createRepo({ activate: false });
      return target(
        { repo_id: repo.repoId, to: destination.fullName },
        [repo.repoId],
        async () =>
          (await api().get<{ full_name: string }>(`/api/repos/${repo.repoId}`)).full_name ===
          destination.fullName,
      );
    },
  },
  {
    name: 'chown_repository',
    hasTargets: true,
    async create() {
      // A private repository of wp-user: the forge shows it only to its owner, so its
      // branches can be listed only while Woodpecker still uses the owner's forge token.
      const repo = await createRepo({ owner: 'user', private: true });
      const branches = async () => api().request('GET', `/api/repos/${repo.repoId}/branches`);
      expect((await branches()).status).toBe(200);
      return target(
        { repo_id: repo.repoId },
        [repo.repoId],
        async () => {
          const answer = await branches();
          if (answer.status === 200) return false;
          expect(String(answer.body)).toContain('repository not found');
          return true;
        },
        // Give it back to wp-user, so that an instance-wide repair can reach it again.
        { cleanup: async () => void (await userApi().post(`/api/repos/${repo.repoId}/chown`)) },
      );
    },
  },
  {
    name: 'repair_repository',
    hasTargets: true,
    async create(variant = 0) {
      const repo = await createRepo();
      let baseline = await hookIds(repo);
      // repo_id is one of the tool's targets even at scope instance: a second, different target.
      const args =
        variant === 0 ? { scope: 'instance' } : { scope: 'instance', repo_id: repo.repoId };
      return target(args, [], async () => (await hookIds(repo)) !== baseline, {
        toleratedError: /failed_repos/,
        rebase: async () => {
          baseline = await hookIds(repo);
        },
      });
    },
  },
  {
    name: 'update_forge',
    hasTargets: true,
    async create() {
      const forge = await api().post<{ id: number }>('/api/forges', {
        type: 'gitea',
        url: 'http://127.0.0.1:9',
        client: uniqueName('guard-forge'),
        oauth_client_secret: 's',
      });
      expect(forge.id).not.toBe(FORGE_ID);
      const url = 'http://127.0.0.1:10';
      return target(
        { forge_id: forge.id, url },
        [forge.id],
        async () => (await api().get<{ url: string }>(`/api/forges/${forge.id}`)).url === url,
        {
          shows: [
            `forge ${forge.id}: type not given, host 127.0.0.1:10, login redirect host not given.`,
          ],
        },
      );
    },
  },
  {
    name: 'create_forge',
    hasTargets: true,
    async create() {
      // A forge the caller runs: once added, its accounts can log in to this instance.
      const client = uniqueName('guard-new-forge');
      const exists = async () =>
        (await api().get<Array<{ client?: string }>>('/api/forges')).some(
          (forge) => forge.client === client,
        );
      // The OAuth secret has a body field from 3.17 on; before, create_forge refuses it.
      const secret = serverOlderThan('3.17.0') ? {} : { oauth_client_secret: 'not-a-real-secret' };
      return target({ type: 'gitea', url: 'http://127.0.0.1:9', client, ...secret }, [], exists);
    },
  },
  {
    name: 'pause_queue',
    hasTargets: false,
    async create() {
      await resumeQueue();
      return target({}, [], queuePaused, { cleanup: resumeQueue });
    },
  },
  {
    name: 'approve_pipeline',
    hasTargets: true,
    async create() {
      const repo = await approvalRepo();
      const [number] = await blockedPipelines(repo, 1);
      return target(
        { repo_id: repo.repoId, number: number! },
        [repo.repoId, number!],
        async () => (await pipelineStatus(repo.repoId, number!)) !== 'blocked',
      );
    },
  },
  {
    name: 'update_user',
    hasTargets: true,
    async create() {
      const user = await throwawayUser();
      const { email } = await api().get<{ email: string }>(
        `/api/users/${user.login}?forge_id=${FORGE_ID}`,
      );
      return target(
        { login: user.login, forge_id: FORGE_ID, email, admin: true },
        [FORGE_ID, user.id],
        () => userAdmin(user.login),
      );
    },
  },
  {
    name: 'create_user',
    hasTargets: true,
    async create() {
      const login = uniqueName('guard-new');
      const exists = async () =>
        (await statusOf(`/api/users/${login}?forge_id=${FORGE_ID}`)) === 200;
      // Woodpecker gives every account it creates this way forge_remote_id "0", and that
      // pair is unique: remove the account again so the next create_user can succeed.
      return target(
        { login, forge_id: FORGE_ID, email: `${login}@example.invalid`, admin: true },
        [],
        exists,
        {
          cleanup: async () => {
            if (await exists()) await api().delete(`/api/users/${login}?forge_id=${FORGE_ID}`);
          },
        },
      );
    },
  },
  {
    name: 'update_repository',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      return target(
        { repo_id: repo.repoId, trusted_network: true },
        [repo.repoId],
        async () =>
          (await api().get<{ trusted: { network: boolean } }>(`/api/repos/${repo.repoId}`)).trusted
            .network === true,
      );
    },
  },
  {
    name: 'update_secret',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const name = 'guarded_secret';
      const secret = await api().post<{ id: number }>(`/api/repos/${repo.repoId}/secrets`, {
        name,
        value: 'v1',
        events: ['push'],
      });
      return target(
        { scope: 'repository', repo_id: repo.repoId, name, events: ['push', 'pull_request'] },
        [secret.id],
        async () =>
          (
            await api().get<{ events: string[] }>(`/api/repos/${repo.repoId}/secrets/${name}`)
          ).events.includes('pull_request'),
        { shows: ['Today it goes to pipelines of these events: push; image filters: 0 '] },
      );
    },
  },
  {
    name: 'update_registry',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const address = 'registry.example.invalid';
      await api().post(`/api/repos/${repo.repoId}/registries`, {
        address,
        username: 'puller',
        password: 'pw1',
      });
      const registryId = await storedRegistryId(repo, address);
      // The password cannot be read back; the username sent with it can.
      return target(
        {
          scope: 'repository',
          repo_id: repo.repoId,
          address,
          username: 'puller2',
          password: 'pw2',
        },
        [registryId],
        async () =>
          (await api().get<{ username: string }>(`/api/repos/${repo.repoId}/registries/${address}`))
            .username === 'puller2',
      );
    },
  },
  {
    name: 'create_secret',
    hasTargets: true,
    async create() {
      // An organization secret the repository's pipelines receive today; a repository
      // secret of the same name would replace it for them.
      const repo = await createRepo();
      const orgId = await orgOf(repo);
      const name = shadowName();
      await api().post(`/api/orgs/${orgId}/secrets`, {
        name,
        value: 'org-value',
        events: ['push'],
      });
      return target(
        { scope: 'repository', repo_id: repo.repoId, name, value: 'repo-value', events: ['push'] },
        [repo.repoId],
        async () => (await statusOf(`/api/repos/${repo.repoId}/secrets/${name}`)) === 200,
        {
          cleanup: async () =>
            void (await api().request('DELETE', `/api/orgs/${orgId}/secrets/${name}`)),
        },
      );
    },
  },
  {
    name: 'create_registry',
    hasTargets: true,
    async create() {
      const repo = await createRepo();
      const orgId = await orgOf(repo);
      const address = `${shadowName()}.example.invalid`;
      await api().post(`/api/orgs/${orgId}/registries`, {
        address,
        username: 'org-puller',
        password: 'org-pw',
      });
      return target(
        {
          scope: 'repository',
          repo_id: repo.repoId,
          address,
          username: 'repo-puller',
          password: 'repo-pw',
        },
        [repo.repoId],
        async () => (await statusOf(`/api/repos/${repo.repoId}/registries/${address}`)) === 200,
        {
          cleanup: async () =>
            void (await api().request('DELETE', `/api/orgs/${orgId}/registries/${address}`)),
        },
      );
    },
  },
  {
    name: 'set_log_level',
    hasTargets: true,
    async create(variant = 0) {
      await setLogLevel('info');
      const level = SILENT_LEVELS[variant % SILENT_LEVELS.length]!;
      return target({ level }, [], async () => (await logLevel()) === level, {
        cleanup: () => setLogLevel('info'),
      });
    },
  },
];

export function guardedTool(name: GuardedToolName): GuardedTool {
  const found = GUARDED_TOOLS.find((tool) => tool.name === name);
  if (!found) throw new Error(`no guarded tool ${name}`);
  return found;
}

/** Keeps every target a test made, so afterEach can restore instance-wide state. */
export class Targets {
  private readonly made: Target[] = [];

  async create(tool: GuardedTool, variant?: number): Promise<Target> {
    const made = await tool.create(variant);
    this.made.push(made);
    return made;
  }

  async createMany(tool: GuardedTool, count: number): Promise<Target[]> {
    // Instance-wide targets reset shared state on creation: make them one after another.
    const made: Target[] = [];
    for (let index = 0; index < count; index++) made.push(await this.create(tool, index));
    return made;
  }

  async cleanupAll(): Promise<void> {
    const made = this.made.splice(0);
    const errors: unknown[] = [];
    for (const one of made.reverse()) {
      await one.cleanup().catch((error: unknown) => errors.push(error));
    }
    // Belt and braces: the queue must never stay paused, the server never stay silent.
    await resumeQueue().catch((error: unknown) => errors.push(error));
    if (SILENT_LEVELS.includes(await logLevel())) await setLogLevel('info');
    if (errors.length > 0) throw errors[0];
  }
}

// ---------------------------------------------------------------- 2026-07-28 by hand
