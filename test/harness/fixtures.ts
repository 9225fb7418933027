import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { stringify } from 'yaml';
import type { RepoSummary, WebhookDelivery } from './forge/control-routes.js';
import './provided-context.js';
import type { HarnessInfo } from './stack.js';
import { GiveUpWaiting, waitUntil } from './wait-until.js';

export type { RepoSummary, WebhookDelivery } from './forge/control-routes.js';

// Helpers for test files. They run in vitest workers and reach the stack started by
// global-setup.ts only over HTTP: Woodpecker's API and the forge's /_harness control API.

let outsideVitest: HarnessInfo | undefined;

/** For scripts that run outside vitest (npm run demo): the stack these helpers talk to. */
export function useStack(info: HarnessInfo): void {
  outsideVitest = info;
}

export function harnessInfo(): HarnessInfo {
  return outsideVitest ?? inject('woodpecker');
}

/**
 * Whether the Woodpecker under test is older than `release` ("3.15.0"). Tests of a field
 * an older release lacks expect the version refusal there and the real behaviour from
 * `release` on; a development build (3.18.0-dev+a4cb541) counts as its release.
 */
export function serverOlderThan(release: string): boolean {
  const parts = (version: string) => version.split(/[.+-]/).slice(0, 3).map(Number);
  const [a = 0, b = 0, c = 0] = parts(harnessInfo().version);
  const [x = 0, y = 0, z = 0] = parts(release);
  return a !== x ? a < x : b !== y ? b < y : c < z;
}

// ---------------------------------------------------------------- Woodpecker API

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, the text otherwise, null when empty. */
  body: T;
}

export interface WoodpeckerApi {
  /** Any method; never throws on an HTTP status. `path` is from the server root, e.g. "/api/user". */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResult<T>>;
  /** These throw unless the status is 2xx, and return the body. */
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body?: unknown): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown): Promise<T>;
  delete<T = unknown>(path: string): Promise<T>;
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A tiny fetch wrapper for Woodpecker's API; anonymous when token is undefined. */
export function woodpeckerApi(
  token: string | undefined,
  baseUrl = harnessInfo().url,
): WoodpeckerApi {
  const request = async <T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ApiResult<T>> => {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    // Woodpecker binds request bodies by Content-Type; without it a JSON body is silently ignored.
    if (method !== 'GET' && method !== 'HEAD') headers['Content-Type'] = 'application/json';
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await parseBody(response)) as T,
    };
  };
  const expectOk = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const result = await request<T>(method, path, body);
    if (result.status < 200 || result.status >= 300) {
      throw new Error(
        `${method} ${path} answered ${result.status}: ${JSON.stringify(result.body)?.slice(0, 300)}`,
      );
    }
    return result.body;
  };
  return {
    request,
    get: (path) => expectOk('GET', path),
    post: (path, body) => expectOk('POST', path, body),
    patch: (path, body) => expectOk('PATCH', path, body),
    delete: (path) => expectOk('DELETE', path),
  };
}

export const adminApi = (): WoodpeckerApi => woodpeckerApi(harnessInfo().adminToken);
export const userApi = (): WoodpeckerApi => woodpeckerApi(harnessInfo().userToken);

// ---------------------------------------------------------------- pipelines YAML

export interface OfflineStep {
  name: string;
  commands: string[];
}

/**
 * A .woodpecker.yaml that runs without network on the local backend: no clone step, and
 * `image: sh` (the local backend treats the image as the shell to run the commands with).
 */
export function offlinePipelineYaml(
  steps: OfflineStep[],
  events: string[] = ['push', 'pull_request', 'manual'],
): string {
  return stringify({
    when: [{ event: events }],
    skip_clone: true,
    steps: steps.map((step) => ({ name: step.name, image: 'sh', commands: step.commands })),
  });
}

// ---------------------------------------------------------------- forge and repositories

async function forgeControl<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${harnessInfo().forgeUrl}/_harness${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const result = (await parseBody(response)) as T;
  if (!response.ok)
    throw new Error(
      `forge ${method} /_harness${path} answered ${response.status}: ${JSON.stringify(result)}`,
    );
  return result;
}

export interface TestRepo {
  /** Woodpecker's repository id (the `repo_id` in API paths). */
  repoId: number;
  /** The forge's repository id (Woodpecker's forge_remote_id). */
  forgeRemoteId: number;
  fullName: string;
  name: string;
  /** Login of the owner at the forge and in Woodpecker. */
  owner: string;
  ownerToken: string;
  defaultBranch: string;
  /** Head commit of the default branch. */
  headSha: string;
}

export interface CreateRepoOptions {
  /** Defaults to a unique name; give one only if you need it, and keep it unique. */
  name?: string;
  owner?: 'admin' | 'user';
  /** Files served at every ref. Defaults to a .woodpecker.yaml with one echo step. */
  files?: Record<string, string>;
  defaultBranch?: string;
  branches?: string[];
  private?: boolean;
  /** Activate in Woodpecker (registers the webhook). Default true. */
  activate?: boolean;
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Creates a repository at the forge and activates it in Woodpecker as its owner. */
export async function createRepo(options: CreateRepoOptions = {}): Promise<TestRepo> {
  const info = harnessInfo();
  const owner = options.owner === 'user' ? info.userLogin : info.adminLogin;
  const ownerToken = options.owner === 'user' ? info.userToken : info.adminToken;
  const defaultBranch = options.defaultBranch ?? 'main';
  const created = await forgeControl<RepoSummary>('POST', '/repos', {
    owner,
    name: options.name ?? uniqueName('repo'),
    defaultBranch,
    branches: options.branches ?? [],
    private: options.private ?? false,
    files: options.files ?? {
      '.woodpecker.yaml': offlinePipelineYaml([{ name: 'hello', commands: ['echo hello'] }]),
    },
  });
  let repoId = 0;
  if (options.activate !== false) {
    const activated = await woodpeckerApi(ownerToken).post<{ id: number }>(
      `/api/repos?forge_remote_id=${created.forgeRemoteId}`,
    );
    repoId = activated.id;
  }
  return {
    repoId,
    forgeRemoteId: created.forgeRemoteId,
    fullName: created.fullName,
    name: created.name,
    owner,
    ownerToken,
    defaultBranch,
    headSha: created.branches[defaultBranch] ?? '',
  };
}

/** What the forge knows about the repository: branches, registered hooks (tokens removed), statuses received. */
export function forgeRepo(repo: Pick<TestRepo, 'forgeRemoteId'>): Promise<RepoSummary> {
  return forgeControl('GET', `/repos/${repo.forgeRemoteId}`);
}

/** Requests to the forge that no route answered, since the stack started ("METHOD path"). */
export function forgeUnhandledRequests(): Promise<string[]> {
  return forgeControl('GET', '/unhandled');
}

/** Moves a branch to a new commit (creating the branch if needed); returns the new sha. */
export async function pushCommit(
  repo: Pick<TestRepo, 'forgeRemoteId'>,
  branch: string,
): Promise<string> {
  return (
    await forgeControl<{ sha: string }>('POST', `/repos/${repo.forgeRemoteId}/commits`, { branch })
  ).sha;
}

/** Replaces the repository's files (served for every ref). */
export async function setRepoFiles(
  repo: Pick<TestRepo, 'forgeRemoteId'>,
  files: Record<string, string>,
): Promise<void> {
  await forgeControl('PUT', `/repos/${repo.forgeRemoteId}/files`, { files });
}

/** Sends a Gitea push webhook to the URL Woodpecker registered; returns Woodpecker's answer. */
export function pushWebhook(
  repo: Pick<TestRepo, 'forgeRemoteId'>,
  push: { branch?: string; sha?: string; message?: string; changedFiles?: string[] } = {},
): Promise<WebhookDelivery> {
  return forgeControl('POST', `/repos/${repo.forgeRemoteId}/webhooks/push`, push);
}

/** Sends a Gitea pull_request webhook (action "opened" unless given); returns Woodpecker's answer. */
export function pullRequestWebhook(
  repo: Pick<TestRepo, 'forgeRemoteId'>,
  pull: {
    number: number;
    fromFork?: boolean;
    author?: string;
    action?: string;
    title?: string;
    headBranch?: string;
    headSha?: string;
    changedFiles?: string[];
  },
): Promise<WebhookDelivery> {
  return forgeControl('POST', `/repos/${repo.forgeRemoteId}/webhooks/pull_request`, pull);
}

// ---------------------------------------------------------------- pipelines and logs

export interface WoodpeckerStep {
  id: number;
  pid: number;
  name: string;
  state: string;
  exit_code: number;
  error?: string;
}

export interface WoodpeckerWorkflow {
  id: number;
  name: string;
  state: string;
  children?: WoodpeckerStep[];
}

export interface WoodpeckerPipeline {
  id: number;
  number: number;
  status: string;
  event: string;
  branch: string;
  commit: string;
  workflows?: WoodpeckerWorkflow[];
}

// A pipeline in one of these states will not change by itself.
const settledStatuses = new Set(['success', 'failure', 'killed', 'error', 'declined', 'skipped']);

/** Polls GET /api/repos/{id}/pipelines/{n} until its status is one of `statuses`. */
export async function waitForPipelineStatus(
  repoId: number,
  number: number,
  statuses: string[],
  timeoutMs = 60_000,
  token = harnessInfo().adminToken,
): Promise<WoodpeckerPipeline> {
  const api = woodpeckerApi(token);
  let last: WoodpeckerPipeline | undefined;
  try {
    return await waitUntil(
      `pipeline ${number} of repo ${repoId} to reach ${statuses.join('|')}`,
      async () => {
        last = await api.get<WoodpeckerPipeline>(`/api/repos/${repoId}/pipelines/${number}`);
        if (statuses.includes(last.status)) return last;
        if (settledStatuses.has(last.status)) throw new SettledElsewhere(last.status);
        return undefined;
      },
      { timeoutMs, intervalMs: 250 },
    );
  } catch (error) {
    const steps = last?.workflows
      ?.flatMap((workflow) => workflow.children ?? [])
      .map(
        (step) =>
          `${step.name}=${step.state}(exit ${step.exit_code}${step.error ? `, ${step.error}` : ''})`,
      );
    throw new Error(
      `${(error as Error).message}; last status ${last?.status ?? 'unknown'}, steps: ${steps?.join(', ') ?? 'none'}`,
    );
  }
}

class SettledElsewhere extends GiveUpWaiting {
  constructor(status: string) {
    super(`pipeline settled as ${status}`);
  }
}

/** Every step of a pipeline, across workflows. */
export function stepsOf(pipeline: WoodpeckerPipeline): WoodpeckerStep[] {
  return pipeline.workflows?.flatMap((workflow) => workflow.children ?? []) ?? [];
}

export function stepNamed(pipeline: WoodpeckerPipeline, name: string): WoodpeckerStep {
  const step = stepsOf(pipeline).find((candidate) => candidate.name === name);
  if (step === undefined)
    throw new Error(
      `pipeline ${pipeline.number} has no step ${name}; it has ${stepsOf(pipeline)
        .map((s) => s.name)
        .join(', ')}`,
    );
  return step;
}

/** The step's log as text lines (the API returns base64 `data` per line). */
export async function stepLogLines(
  repoId: number,
  number: number,
  stepId: number,
  token = harnessInfo().adminToken,
): Promise<string[]> {
  const entries = await woodpeckerApi(token).get<Array<{
    line: number;
    data: string | null;
  }> | null>(`/api/repos/${repoId}/logs/${number}/${stepId}`);
  return (entries ?? [])
    .slice()
    .sort((a, b) => a.line - b.line)
    .map((entry) =>
      Buffer.from(entry.data ?? '', 'base64')
        .toString('utf8')
        .replace(/\r?\n$/, ''),
    );
}

/**
 * Polls the step log until a line equals `line` exactly. The last log batch can reach the
 * server after the step's final status, so reading once right after it finished may miss it.
 */
export function waitForLogLine(
  repoId: number,
  number: number,
  stepId: number,
  line: string,
  timeoutMs = 15_000,
): Promise<string[]> {
  return waitUntil(
    `log line ${JSON.stringify(line)} in step ${stepId} of pipeline ${number}`,
    async () => {
      const lines = await stepLogLines(repoId, number, stepId);
      return lines.includes(line) ? lines : undefined;
    },
    { timeoutMs, intervalMs: 300 },
  );
}
