// One entry per plain-call tool (plainCalls.test.ts runs them): representative arguments,
// the one request Woodpecker must receive for them, Woodpecker's answer and what the
// result must hold. Written by hand from Woodpecker's API, never from the request
// builders, so a generator change that alters a call shows up here.
import { expect } from 'vitest';
import { loadCaptured } from '../../../bench/answerCost.js';

export interface PlainCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The request, with the path as sent (encoded) and the query as decoded pairs. */
  readonly sends: {
    readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    readonly path: string;
    readonly query?: Record<string, string>;
    readonly body?: unknown;
  };
  /** Woodpecker's body: a key of test/answers/captured.json, or one written here. None: empty. */
  readonly answer?: { readonly captured: string } | { readonly body: unknown };
  /** The answer's status; 200 unless given. */
  readonly status?: number;
  /** What the result's structuredContent must hold (toMatchObject). */
  readonly gives: Record<string, unknown>;
  /**
   * Guarded: these arguments make the tool ask. `reads` answers the GETs the gate makes
   * first (a path → its body, or 404).
   */
  readonly asks?: { readonly reads?: Record<string, unknown> };
}

/** The captured repository's name (a fresh one each time the answers are captured). */
const REPO = (
  loadCaptured().answers.find((answer) => answer.key === 'get_repository')!.woodpecker as {
    full_name: string;
  }
).full_name;
const REPO_NAME = REPO.split('/')[1]!;
/** An ISO 8601 UTC time as the views write it; captured times change with each capture. */
const UTC_TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z$/);

/** A pipeline as a write answers it (an approval, a manual or cron start). */
const pipeline = (status: string, event: string) => ({
  id: 12,
  number: 5,
  status,
  event,
  branch: 'main',
  ref: 'refs/heads/main',
  commit: '58cba1d9cff7165131726c381f460c24db31d69a',
  author: 'wp-admin',
  message: 'Reject blank lines\n',
  created: 1796159571,
  started: 0,
  finished: 0,
  workflows: [],
});

const secret = { id: 3, org_id: 0, repo_id: 1, name: 'deploy_key', images: null, note: '' };
const registry = {
  id: 2,
  org_id: 0,
  repo_id: 1,
  address: 'registry.example.com',
  username: 'ci-bot',
  password: '',
  readonly: false,
};
const agent = {
  id: 6,
  name: 'builder',
  platform: 'linux/amd64',
  backend: 'local',
  capacity: 2,
  version: '3.17.0',
  no_schedule: false,
  last_contact: 1796159565,
  custom_labels: { zone: 'eu' },
  token: 'agent-token-not-shown',
  owner_id: 1,
  org_id: 1,
};
const cron = {
  id: 4,
  name: 'nightly',
  repo_id: 1,
  creator_id: 1,
  next_exec: 1796180400,
  schedule: '0 3 * * *',
  timezone: 'UTC',
  created: 1796159571,
  branch: 'main',
  enabled: true,
  variables: null,
};
const user = {
  id: 2,
  forge_id: 1,
  forge_remote_id: '1002',
  login: 'wp-user',
  email: 'wp-user@example.invalid',
  avatar_url: 'http://forge.example.com/avatars/wp-user',
  admin: false,
  org_id: 2,
};
const forge = {
  id: 1,
  type: 'gitea',
  url: 'https://forge.example.com',
  client: 'woodpecker',
  oauth_host: '',
  skip_verify: false,
  additional_options: null,
};
const feedEntry = {
  full_name: REPO,
  repo_id: 1,
  id: 12,
  number: 5,
  status: 'running',
  event: 'push',
  branch: 'main',
  commit: '58cba1d9cff7165131726c381f460c24db31d69a',
  author: 'wp-admin',
  message: 'Reject blank lines\n',
  created: 1796159571,
  started: 1796159572,
  finished: 0,
  ref: 'refs/heads/main',
};
const repository = {
  id: 9,
  forge_id: 1,
  forge_remote_id: '4242',
  org_id: 1,
  owner: 'wp-admin',
  name: 'tools',
  full_name: 'wp-admin/tools',
  default_branch: 'main',
  active: true,
  visibility: 'private',
  clone_url: 'https://forge.example.com/wp-admin/tools.git',
};

export const PLAIN_CALLS: readonly PlainCall[] = [
  // Repositories
  {
    tool: 'activate_repository',
    args: { forge_remote_id: '4242' },
    sends: { method: 'POST', path: '/api/repos', query: { forge_remote_id: '4242' } },
    answer: { body: repository },
    gives: { id: 9, full_name: 'wp-admin/tools', active: true, forge_remote_id: '4242' },
  },
  {
    tool: 'chown_repository',
    args: { repo_id: 9 },
    sends: { method: 'POST', path: '/api/repos/9/chown' },
    answer: { body: repository },
    gives: { id: 9, full_name: 'wp-admin/tools' },
    asks: {},
  },
  {
    tool: 'delete_repository',
    args: { repo_id: 9 },
    sends: { method: 'DELETE', path: '/api/repos/9' },
    answer: { body: { ...repository, active: false } },
    gives: { id: 9, full_name: 'wp-admin/tools', forge_remote_id: '4242' },
    asks: {},
  },
  {
    tool: 'get_repository',
    args: { repo_id: 1 },
    sends: { method: 'GET', path: '/api/repos/1' },
    answer: { captured: 'get_repository' },
    gives: { id: 1, full_name: REPO, default_branch: 'main', require_approval: 'forks' },
  },
  {
    tool: 'get_repository_permissions',
    args: { repo_id: 1 },
    sends: { method: 'GET', path: '/api/repos/1/permissions' },
    answer: { body: { pull: true, push: true, admin: false, synced: 1796159571 } },
    // A right the account lacks is left out; the sync time reads in UTC.
    gives: { pull: true, push: true, synced: '2026-12-01T21:12:51Z' },
  },
  {
    tool: 'list_repositories',
    args: { name: REPO_NAME, include_inactive: true },
    sends: {
      method: 'GET',
      path: '/api/user/repos',
      query: { name: REPO_NAME, all: 'true' },
    },
    answer: { captured: 'list_repositories' },
    gives: {
      items: [{ id: 1, full_name: REPO, active: true, last_pipeline: { number: 4 } }],
      untrusted: true,
    },
  },
  {
    tool: 'list_repository_branches',
    args: { repo_id: 1, page: 2, per_page: 10 },
    sends: {
      method: 'GET',
      path: '/api/repos/1/branches',
      query: { page: '2', perPage: '10' },
    },
    answer: { body: ['main', 'release/1.x'] },
    // Not the first page, and not a full one: the page is said, the rest of the envelope not.
    gives: { items: ['main', 'release/1.x'], page: 2 },
  },
  {
    tool: 'list_pull_requests',
    args: { repo_id: 1 },
    sends: { method: 'GET', path: '/api/repos/1/pull_requests' },
    answer: { body: [{ index: '7', title: 'Parse blank lines' }] },
    gives: { items: [{ index: '7', title: 'Parse blank lines' }], untrusted: true },
  },
  {
    tool: 'lookup_repository',
    args: { full_name: REPO },
    sends: { method: 'GET', path: `/api/repos/lookup/${encodeURIComponent(REPO)}` },
    answer: { captured: 'lookup_repository' },
    gives: { id: 1, full_name: REPO },
  },
  {
    // Widening visibility asks; withdrawing one trusted flag sends all three (3.11 wants
    // them together), the others from the gate's read of the repository.
    tool: 'update_repository',
    args: { repo_id: 9, visibility: 'public', trusted_network: false },
    sends: {
      method: 'PATCH',
      path: '/api/repos/9',
      body: {
        visibility: 'public',
        trusted: { network: false, volumes: false, security: true },
      },
    },
    answer: { body: { ...repository, visibility: 'public' } },
    gives: { id: 9, full_name: 'wp-admin/tools' },
    asks: {
      reads: {
        '/api/repos/9': {
          ...repository,
          trusted: { network: true, volumes: false, security: true },
        },
        '/api/user': { id: 1, login: 'wp-admin', admin: true },
      },
    },
  },
  {
    tool: 'repair_repository',
    args: { scope: 'instance' },
    sends: { method: 'POST', path: '/api/repos/repair' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: { reads: { '/api/user': { id: 1, login: 'wp-admin', admin: true } } },
  },

  // Pipelines
  {
    tool: 'approve_pipeline',
    args: { repo_id: 1, number: 5 },
    sends: { method: 'POST', path: '/api/repos/1/pipelines/5/approve' },
    answer: { body: pipeline('pending', 'pull_request') },
    gives: { number: 5, status: 'pending', event: 'pull_request', untrusted: true },
    asks: { reads: { '/api/repos/1/pipelines/5': pipeline('blocked', 'pull_request') } },
  },
  {
    tool: 'cancel_pipeline',
    args: { repo_id: 1, number: 5 },
    sends: { method: 'POST', path: '/api/repos/1/pipelines/5/cancel' },
    gives: { done: true, status: 200 },
  },
  {
    tool: 'decline_pipeline',
    args: { repo_id: 1, number: 5 },
    sends: { method: 'POST', path: '/api/repos/1/pipelines/5/decline' },
    answer: { body: pipeline('declined', 'pull_request') },
    gives: { number: 5, status: 'declined' },
  },
  {
    tool: 'delete_pipeline',
    args: { repo_id: 1, number: 5 },
    sends: { method: 'DELETE', path: '/api/repos/1/pipelines/5' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: { reads: { '/api/repos/1/pipelines/5': pipeline('success', 'push') } },
  },
  {
    tool: 'delete_pipeline_logs',
    args: { repo_id: 1, number: 5 },
    sends: { method: 'DELETE', path: '/api/repos/1/logs/5' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: { reads: { '/api/repos/1/pipelines/5': pipeline('success', 'push') } },
  },
  {
    tool: 'delete_step_logs',
    args: { repo_id: 1, number: 5, step_id: 8 },
    sends: { method: 'DELETE', path: '/api/repos/1/logs/5/8' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: { reads: { '/api/repos/1/pipelines/5': pipeline('success', 'push') } },
  },
  {
    tool: 'get_pipeline',
    args: { repo_id: 1, number: '4' },
    sends: { method: 'GET', path: '/api/repos/1/pipelines/4' },
    answer: { captured: 'get_pipeline:failed' },
    gives: {
      number: 4,
      status: 'failure',
      branch: 'main',
      started: UTC_TIME,
      workflows: [{ name: 'woodpecker', state: 'failure' }],
      untrusted: true,
    },
  },
  {
    tool: 'get_pipeline_metadata',
    args: { repo_id: 1, number: 4 },
    sends: { method: 'GET', path: '/api/repos/1/pipelines/4/metadata' },
    answer: {
      body: {
        repo: { id: 1, name: 'repo-mx5715v9-e41b9a', owner: 'wp-admin', default_branch: 'main' },
        curr: { number: 4, event: 'push', status: 'failure', commit: { sha: 'abc', ref: 'main' } },
      },
    },
    gives: { repo: { id: 1, owner: 'wp-admin' }, curr: { number: 4, event: 'push' } },
  },
  {
    tool: 'get_pipeline_feed',
    args: {},
    sends: { method: 'GET', path: '/api/user/feed' },
    answer: { body: [feedEntry] },
    gives: {
      items: [{ full_name: REPO, repo_id: 1, number: 5, status: 'running', took: 'running' }],
    },
  },
  {
    tool: 'list_pipelines',
    args: { repo_id: 1, branch: 'main', status: 'failure', event: 'push,tag', per_page: 4 },
    sends: {
      method: 'GET',
      path: '/api/repos/1/pipelines',
      query: { branch: 'main', status: 'failure', event: 'push,tag', perPage: '4' },
    },
    answer: { captured: 'list_pipelines' },
    gives: { page: 1, per_page: 4, may_have_more: true, untrusted: true },
  },
  {
    tool: 'list_queued_pipelines',
    args: {},
    sends: { method: 'GET', path: '/api/pipelines' },
    answer: { body: [{ ...feedEntry, status: 'pending' }] },
    gives: { items: [{ full_name: REPO, number: 5, status: 'pending' }] },
  },
  {
    tool: 'trigger_pipeline',
    args: { repo_id: 1, branch: 'main', variables: { DEPLOY: 'no' } },
    sends: {
      method: 'POST',
      path: '/api/repos/1/pipelines',
      body: { branch: 'main', variables: { DEPLOY: 'no' } },
    },
    answer: { body: pipeline('pending', 'manual') },
    gives: { number: 5, status: 'pending', event: 'manual' },
  },

  // Crons
  {
    tool: 'create_cron',
    args: { repo_id: 1, name: 'nightly', schedule: '0 3 * * *', branch: 'main', enabled: true },
    sends: {
      method: 'POST',
      path: '/api/repos/1/cron',
      body: { name: 'nightly', schedule: '0 3 * * *', branch: 'main', enabled: true },
    },
    answer: { body: cron },
    // timezone UTC and enabled true go without saying: the view leaves them out.
    gives: { id: 4, name: 'nightly', next_exec: '2026-12-02T03:00:00Z' },
  },
  {
    tool: 'delete_cron',
    args: { repo_id: 1, cron_id: 4 },
    sends: { method: 'DELETE', path: '/api/repos/1/cron/4' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: {},
  },
  {
    tool: 'get_cron',
    args: { repo_id: 1, cron_id: 1 },
    sends: { method: 'GET', path: '/api/repos/1/cron/1' },
    answer: { captured: 'get_cron' },
    // The captured cron runs in UTC and is enabled: both are left out as defaults.
    gives: { id: 1, name: 'nightly', schedule: '0 3 * * *', branch: 'main' },
  },
  {
    tool: 'list_crons',
    args: { repo_id: 1 },
    sends: { method: 'GET', path: '/api/repos/1/cron' },
    answer: { captured: 'list_crons' },
    gives: { items: [{ id: 1, name: 'nightly', branch: 'main' }] },
  },
  {
    tool: 'run_cron',
    args: { repo_id: 1, cron_id: 4 },
    sends: { method: 'POST', path: '/api/repos/1/cron/4' },
    answer: { body: pipeline('pending', 'cron') },
    gives: { number: 5, event: 'cron' },
  },
  {
    tool: 'update_cron',
    args: { repo_id: 1, cron_id: 4, schedule: '@hourly', enabled: false },
    sends: {
      method: 'PATCH',
      path: '/api/repos/1/cron/4',
      body: { schedule: '@hourly', enabled: false },
    },
    answer: { body: { ...cron, schedule: '@hourly', enabled: false } },
    gives: { id: 4, schedule: '@hourly' },
  },

  // Secrets
  {
    tool: 'create_secret',
    args: {
      scope: 'repository',
      repo_id: 1,
      name: 'deploy_key',
      value: 'hunter2-secret-value',
      events: ['push', 'pull_request'],
    },
    sends: {
      method: 'POST',
      path: '/api/repos/1/secrets',
      body: { name: 'deploy_key', value: 'hunter2-secret-value', events: ['push', 'pull_request'] },
    },
    answer: { body: { ...secret, events: ['push', 'pull_request'] } },
    gives: { id: 3, name: 'deploy_key', events: ['push', 'pull_request'] },
    asks: {
      reads: {
        '/api/repos/1/secrets': [],
        '/api/repos/1': { id: 1, org_id: 1, full_name: REPO },
        '/api/orgs/1/secrets': [],
        '/api/secrets': [],
      },
    },
  },
  {
    tool: 'delete_secret',
    args: { scope: 'repository', repo_id: 1, name: 'deploy_key' },
    sends: { method: 'DELETE', path: '/api/repos/1/secrets/deploy_key' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: { reads: { '/api/repos/1/secrets/deploy_key': { ...secret, events: ['push'] } } },
  },
  {
    tool: 'get_secret',
    args: { scope: 'repository', repo_id: 1, name: 'deploy_key' },
    sends: { method: 'GET', path: '/api/repos/1/secrets/deploy_key' },
    answer: { captured: 'get_secret' },
    gives: { id: 1, name: 'deploy_key', events: ['push', 'tag'], untrusted: true },
  },
  {
    tool: 'list_secrets',
    args: { scope: 'organization', org_id: 3, page: 1, per_page: 20 },
    sends: {
      method: 'GET',
      path: '/api/orgs/3/secrets',
      query: { page: '1', perPage: '20' },
    },
    answer: { captured: 'list_secrets' },
    gives: { items: [{ id: 1, name: 'deploy_key', events: ['push', 'tag'] }], untrusted: true },
  },
  {
    tool: 'update_secret',
    args: { scope: 'global', name: 'deploy_key', value: 'rotated-secret-value' },
    sends: {
      method: 'PATCH',
      path: '/api/secrets/deploy_key',
      body: { value: 'rotated-secret-value' },
    },
    answer: { body: { ...secret, repo_id: 0, events: ['push'] } },
    gives: { id: 3, name: 'deploy_key', untrusted: true },
    asks: {
      reads: {
        '/api/secrets/deploy_key': { ...secret, repo_id: 0, events: ['push'] },
        '/api/user': { id: 1, login: 'wp-admin', admin: true },
      },
    },
  },

  // Registries
  {
    tool: 'create_registry',
    args: {
      scope: 'repository',
      repo_id: 1,
      address: 'registry.example.com',
      username: 'ci-bot',
      password: 'registry-password-value',
    },
    sends: {
      method: 'POST',
      path: '/api/repos/1/registries',
      body: {
        address: 'registry.example.com',
        username: 'ci-bot',
        password: 'registry-password-value',
      },
    },
    answer: { body: registry },
    gives: { id: 2, address: 'registry.example.com', username: 'ci-bot' },
    // A registry of that address already at the organization's level: pipelines would take this one.
    asks: {
      reads: {
        '/api/repos/1/registries': [],
        '/api/repos/1': { id: 1, org_id: 1, full_name: REPO },
        '/api/orgs/1/registries': [{ ...registry, repo_id: 0, org_id: 1 }],
        '/api/registries': [],
      },
    },
  },
  {
    tool: 'delete_registry',
    args: { scope: 'organization', org_id: 1, address: 'registry.example.com' },
    sends: { method: 'DELETE', path: '/api/orgs/1/registries/registry.example.com' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: {
      reads: {
        '/api/orgs/1/registries/registry.example.com': { ...registry, repo_id: 0, org_id: 1 },
      },
    },
  },
  {
    tool: 'get_registry',
    args: { scope: 'repository', repo_id: 1, address: 'registry.example.com' },
    sends: { method: 'GET', path: '/api/repos/1/registries/registry.example.com' },
    answer: { captured: 'get_registry' },
    gives: { id: 1, address: 'registry.example.com', username: 'ci-bot', untrusted: true },
  },
  {
    tool: 'list_registries',
    args: { scope: 'repository', repo_id: 1 },
    sends: { method: 'GET', path: '/api/repos/1/registries' },
    answer: { captured: 'list_registries' },
    gives: { items: [{ id: 1, address: 'registry.example.com' }], untrusted: true },
  },
  {
    tool: 'update_registry',
    args: {
      scope: 'repository',
      repo_id: 1,
      address: 'registry.example.com',
      password: 'new-registry-password',
    },
    sends: {
      method: 'PATCH',
      path: '/api/repos/1/registries/registry.example.com',
      body: { password: 'new-registry-password' },
    },
    answer: { body: registry },
    gives: { id: 2, username: 'ci-bot', untrusted: true },
    asks: { reads: { '/api/repos/1/registries/registry.example.com': registry } },
  },

  // Agents
  {
    tool: 'create_agent',
    args: { name: 'builder', no_schedule: true },
    sends: { method: 'POST', path: '/api/agents', body: { name: 'builder', no_schedule: true } },
    answer: { body: { ...agent, no_schedule: true } },
    // create_agent returns the token once: it is the only way to connect the agent.
    gives: { id: 6, name: 'builder', token: 'agent-token-not-shown' },
  },
  {
    tool: 'delete_agent',
    args: { agent_id: 6 },
    sends: { method: 'DELETE', path: '/api/agents/6' },
    gives: { done: true, status: 200 },
    asks: { reads: { '/api/user': { id: 1, login: 'wp-admin', admin: true } } },
  },
  {
    tool: 'get_agent',
    args: { agent_id: 1 },
    sends: { method: 'GET', path: '/api/agents/1' },
    answer: { captured: 'get_agent' },
    gives: { id: 1, backend: 'local', capacity: 2, last_contact: UTC_TIME },
  },
  {
    tool: 'list_agent_tasks',
    args: { agent_id: 1 },
    sends: { method: 'GET', path: '/api/agents/1/tasks' },
    answer: {
      body: [
        {
          id: '41',
          name: 'woodpecker',
          pid: 1,
          pipeline_id: 4,
          repo_id: 1,
          agent_id: 1,
          labels: { platform: 'linux/amd64' },
          dependencies: null,
          dep_status: null,
          run_on: null,
          created: 1796159571,
        },
      ],
    },
    gives: { items: [{ id: '41', pipeline_id: 4, agent_id: 1 }] },
  },
  {
    tool: 'list_agents',
    args: { org_id: 1 },
    sends: { method: 'GET', path: '/api/orgs/1/agents' },
    answer: { body: [agent] },
    gives: { items: [{ id: 6, name: 'builder', custom_labels: { zone: 'eu' } }] },
  },
  {
    tool: 'update_agent',
    args: { agent_id: 6, org_id: 1, no_schedule: true },
    sends: { method: 'PATCH', path: '/api/orgs/1/agents/6', body: { no_schedule: true } },
    answer: { body: { ...agent, no_schedule: true } },
    gives: { id: 6, no_schedule: true },
  },

  // Queue and server
  {
    tool: 'get_queue_info',
    args: {},
    sends: { method: 'GET', path: '/api/queue/info' },
    answer: {
      body: {
        paused: false,
        pending: null,
        running: [
          {
            id: '41',
            name: 'woodpecker',
            pid: 1,
            pipeline_id: 4,
            pipeline_number: 4,
            repo_id: 1,
            agent_id: 1,
            agent_name: 'builder',
          },
        ],
        waiting_on_deps: null,
        stats: { worker_count: 2, pending_count: 0, waiting_on_deps_count: 0, running_count: 1 },
      },
    },
    gives: {
      stats: { worker_count: 2, running_count: 1 },
      running: [{ id: '41', pipeline_number: 4, agent_name: 'builder' }],
    },
  },
  {
    tool: 'pause_queue',
    args: {},
    sends: { method: 'POST', path: '/api/queue/pause' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: {},
  },
  {
    tool: 'resume_queue',
    args: {},
    sends: { method: 'POST', path: '/api/queue/resume' },
    status: 204,
    gives: { done: true, status: 204 },
  },
  {
    tool: 'get_log_level',
    args: {},
    sends: { method: 'GET', path: '/api/log-level' },
    answer: { body: { 'log-level': 'info' } },
    gives: { 'log-level': 'info' },
  },
  {
    tool: 'set_log_level',
    args: { level: 'disabled' },
    sends: { method: 'POST', path: '/api/log-level', body: { 'log-level': 'disabled' } },
    answer: { body: { 'log-level': 'disabled' } },
    gives: { 'log-level': 'disabled' },
    asks: {},
  },

  // Forges
  {
    tool: 'delete_forge',
    args: { forge_id: 2 },
    sends: { method: 'DELETE', path: '/api/forges/2' },
    gives: { done: true, status: 200 },
    asks: {},
  },
  {
    // Woodpecker's PATCH overwrites every field: what is not given goes as it is now (read
    // after the approval), a null additional_options as {}, and no secret unless given.
    tool: 'update_forge',
    args: { forge_id: 1, client: 'ci-2' },
    sends: {
      method: 'PATCH',
      path: '/api/forges/1',
      body: {
        type: 'gitea',
        url: 'https://forge.example.com',
        client: 'ci-2',
        oauth_host: '',
        skip_verify: false,
        additional_options: {},
      },
    },
    answer: { body: { ...forge, client: 'ci-2' } },
    gives: { id: 1, client: 'ci-2' },
    asks: { reads: { '/api/forges/1': forge } },
  },
  {
    tool: 'get_forge',
    args: { forge_id: 1 },
    sends: { method: 'GET', path: '/api/forges/1' },
    answer: { body: forge },
    gives: { id: 1, type: 'gitea', url: 'https://forge.example.com' },
  },
  {
    tool: 'list_forges',
    args: { per_page: 5 },
    sends: { method: 'GET', path: '/api/forges', query: { perPage: '5' } },
    answer: { body: [forge] },
    gives: { items: [{ id: 1, type: 'gitea', url: 'https://forge.example.com' }] },
  },

  // Users and organizations
  {
    tool: 'create_user',
    args: { login: 'wp-user', email: 'wp-user@example.invalid', admin: true },
    sends: {
      method: 'POST',
      path: '/api/users',
      body: { login: 'wp-user', email: 'wp-user@example.invalid', admin: true },
    },
    answer: { body: { ...user, admin: true } },
    gives: { id: 2, login: 'wp-user', admin: true },
    asks: {},
  },
  {
    tool: 'delete_user',
    args: { login: 'wp-user' },
    sends: { method: 'DELETE', path: '/api/users/wp-user' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: { reads: { '/api/users/wp-user': user } },
  },
  {
    // The account's own forge_remote_id goes along: without it Woodpecker updates nothing.
    tool: 'update_user',
    args: { login: 'wp-user', forge_id: 1, email: 'new@example.invalid', admin: true },
    sends: {
      method: 'PATCH',
      path: '/api/users/wp-user',
      body: {
        login: 'wp-user',
        forge_id: 1,
        email: 'new@example.invalid',
        admin: true,
        forge_remote_id: '1002',
      },
    },
    answer: { body: { ...user, email: 'new@example.invalid', admin: true } },
    gives: { id: 2, admin: true },
    asks: { reads: { '/api/users/wp-user': user } },
  },
  {
    tool: 'get_current_user',
    args: {},
    sends: { method: 'GET', path: '/api/user' },
    answer: { captured: 'get_current_user' },
    gives: { id: 1, login: 'wp-admin', admin: true },
  },
  {
    tool: 'get_user',
    args: { login: 'wp-user', forge_id: 1 },
    sends: { method: 'GET', path: '/api/users/wp-user', query: { forge_id: '1' } },
    answer: { body: user },
    gives: { id: 2, login: 'wp-user', email: 'wp-user@example.invalid' },
  },
  {
    tool: 'list_users',
    args: { page: 3 },
    sends: { method: 'GET', path: '/api/users', query: { page: '3' } },
    answer: { body: [user] },
    gives: { items: [{ login: 'wp-user' }], page: 3 },
  },
  {
    tool: 'delete_organization',
    args: { org_id: 2 },
    sends: { method: 'DELETE', path: '/api/orgs/2' },
    status: 204,
    gives: { done: true, status: 204 },
    asks: {},
  },
  {
    tool: 'get_organization',
    args: { org_id: 1 },
    sends: { method: 'GET', path: '/api/orgs/1' },
    answer: { body: { id: 1, forge_id: 1, name: 'wp-admin', is_user: true } },
    gives: { id: 1, name: 'wp-admin', is_user: true },
  },
  {
    tool: 'get_organization_permissions',
    args: { org_id: 1 },
    sends: { method: 'GET', path: '/api/orgs/1/permissions' },
    answer: { body: { member: true, admin: true } },
    gives: { member: true, admin: true },
  },
  {
    tool: 'list_organizations',
    args: {},
    sends: { method: 'GET', path: '/api/orgs' },
    answer: { body: [{ id: 1, forge_id: 1, name: 'wp-admin', is_user: true }] },
    gives: { items: [{ id: 1, name: 'wp-admin' }] },
  },
  {
    tool: 'lookup_organization',
    args: { name: 'wp-admin' },
    sends: { method: 'GET', path: '/api/orgs/lookup/wp-admin' },
    answer: { captured: 'lookup_organization' },
    gives: { id: 1, name: 'wp-admin', is_user: true },
  },
];
