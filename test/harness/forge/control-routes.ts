import { newCommitSha, type ForgeHook, type ForgeRepo, type ForgeState } from './forge-state.js';
import {
  parseJsonObject,
  route,
  sendJson,
  sendNotFound,
  type Route,
  type RouteContext,
} from './http-routing.js';
import { pullRequestPayload, pushPayload } from './webhook-payloads.js';

// The control API under /_harness. Test files run in vitest workers while the forge lives
// in the global-setup process, so tests declare repositories and trigger webhooks over HTTP.

export interface HookSummary {
  id: number;
  /** The hook URL without its access_token, which is a credential. */
  urlWithoutToken: string;
  hasAccessToken: boolean;
  events: string[];
  active: boolean;
}

export interface RepoSummary {
  forgeRemoteId: number;
  owner: string;
  name: string;
  fullName: string;
  defaultBranch: string;
  branches: Record<string, string>;
  hooks: HookSummary[];
  statuses: Array<{ sha: string; state: string; context: string }>;
}

export interface WebhookDelivery {
  status: number;
  pipelineFiltered: boolean;
  /** Woodpecker's answer: parsed JSON when it is JSON, otherwise the text. */
  body: unknown;
}

function summarizeHook(hook: ForgeHook): HookSummary {
  const url = new URL(hook.url);
  const hasAccessToken = url.searchParams.has('access_token');
  url.searchParams.delete('access_token');
  return {
    id: hook.id,
    urlWithoutToken: url.toString(),
    hasAccessToken,
    events: hook.events,
    active: hook.active,
  };
}

function summarizeRepo(repo: ForgeRepo): RepoSummary {
  return {
    forgeRemoteId: repo.id,
    owner: repo.owner.login,
    name: repo.name,
    fullName: `${repo.owner.login}/${repo.name}`,
    defaultBranch: repo.defaultBranch,
    branches: Object.fromEntries(repo.branches),
    hooks: repo.hooks.map(summarizeHook),
    statuses: repo.statuses.map(({ sha, state, context }) => ({ sha, state, context })),
  };
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new Error(`${field} must be a list of strings`);
  return value;
}

function fileMap(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (
    typeof value !== 'object' ||
    value === null ||
    !Object.values(value).every((item) => typeof item === 'string')
  ) {
    throw new Error('files must map paths to strings');
  }
  return value as Record<string, string>;
}

/** Posts a webhook to the URL Woodpecker registered, as Gitea would. */
async function deliver(repo: ForgeRepo, event: string, payload: unknown): Promise<WebhookDelivery> {
  const hook = [...repo.hooks]
    .reverse()
    .find((candidate) => candidate.active && candidate.events.includes(event));
  if (hook === undefined)
    throw new NoWebhookError(
      `${repo.owner.login}/${repo.name} has no active webhook for ${event}; activate it in Woodpecker first`,
    );
  const response = await fetch(hook.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Gitea-Event': event },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Woodpecker answers some outcomes with plain text.
  }
  return {
    status: response.status,
    pipelineFiltered: response.headers.get('pipeline-filtered') === 'true',
    body,
  };
}

class NoWebhookError extends Error {}

export function controlRoutes(state: ForgeState): Route[] {
  const withRepo =
    (handler: (context: RouteContext, repo: ForgeRepo) => void | Promise<void>) =>
    async (context: RouteContext): Promise<void> => {
      const repo = state.repos.get(Number(context.params.id));
      if (repo === undefined)
        return sendNotFound(context.response, `no forge repository ${context.params.id}`);
      try {
        await handler(context, repo);
      } catch (error) {
        sendJson(context.response, error instanceof NoWebhookError ? 409 : 400, {
          error: (error as Error).message,
        });
      }
    };

  return [
    route('GET', '/_harness/unhandled', ({ response }) =>
      sendJson(response, 200, state.unhandledRequests),
    ),
    route('POST', '/_harness/users', ({ body, response }) => {
      const { login } = parseJsonObject(body);
      if (typeof login !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(login))
        return sendJson(response, 400, {
          error: 'login must be lowercase letters, digits and dashes',
        });
      const user = state.addUser(login);
      sendJson(response, 201, { id: user.id, login: user.login });
    }),
    route('POST', '/_harness/repos', ({ body, response }) => {
      const request = parseJsonObject(body);
      try {
        const repo = state.addRepo({
          owner: String(request.owner ?? ''),
          name: String(request.name ?? ''),
          defaultBranch: typeof request.defaultBranch === 'string' ? request.defaultBranch : 'main',
          branches: stringList(request.branches, 'branches'),
          files: fileMap(request.files),
          isPrivate: request.private === true,
        });
        sendJson(response, 201, summarizeRepo(repo));
      } catch (error) {
        sendJson(response, 400, { error: (error as Error).message });
      }
    }),
    route(
      'GET',
      '/_harness/repos/:id',
      withRepo(({ response }, repo) => sendJson(response, 200, summarizeRepo(repo))),
    ),
    route(
      'PUT',
      '/_harness/repos/:id/files',
      withRepo(({ body, response }, repo) => {
        const files = fileMap(parseJsonObject(body).files);
        repo.files = new Map(Object.entries(files));
        sendJson(response, 200, summarizeRepo(repo));
      }),
    ),
    // Moves a branch to a new commit (creating the branch if needed), as a push would.
    route(
      'POST',
      '/_harness/repos/:id/commits',
      withRepo(({ body, response }, repo) => {
        const request = parseJsonObject(body);
        const branch = typeof request.branch === 'string' ? request.branch : repo.defaultBranch;
        const sha = typeof request.sha === 'string' ? request.sha : newCommitSha();
        repo.branches.set(branch, sha);
        sendJson(response, 201, { branch, sha });
      }),
    ),
    route(
      'POST',
      '/_harness/repos/:id/webhooks/push',
      withRepo(async ({ body, response }, repo) => {
        const request = parseJsonObject(body);
        const branch = typeof request.branch === 'string' ? request.branch : repo.defaultBranch;
        const sha = typeof request.sha === 'string' ? request.sha : repo.branches.get(branch);
        if (sha === undefined)
          throw new Error(`branch ${branch} does not exist; give a sha or create it with /commits`);
        repo.branches.set(branch, sha);
        const payload = pushPayload(state.baseUrl, repo, {
          branch,
          sha,
          message: typeof request.message === 'string' ? request.message : `push to ${branch}`,
          changedFiles: stringList(request.changedFiles, 'changedFiles'),
        });
        sendJson(response, 200, await deliver(repo, 'push', payload));
      }),
    ),
    route(
      'POST',
      '/_harness/repos/:id/webhooks/pull_request',
      withRepo(async ({ body, response }, repo) => {
        const request = parseJsonObject(body);
        const number = Number(request.number);
        if (!Number.isInteger(number) || number < 1)
          throw new Error('number must be a positive integer');
        const headBranch =
          typeof request.headBranch === 'string' ? request.headBranch : `feature-${number}`;
        const pull = {
          number,
          title: typeof request.title === 'string' ? request.title : `Pull request ${number}`,
          author: typeof request.author === 'string' ? request.author : repo.owner.login,
          headBranch,
          headSha:
            typeof request.headSha === 'string'
              ? request.headSha
              : (repo.pullRequests.get(number)?.headSha ?? newCommitSha()),
          baseBranch:
            typeof request.baseBranch === 'string' ? request.baseBranch : repo.defaultBranch,
          fromFork: request.fromFork === true,
          changedFiles: stringList(request.changedFiles, 'changedFiles'),
        };
        repo.pullRequests.set(number, pull);
        // The head commit exists in the repo, so a manual pipeline on the branch finds the same sha.
        if (!pull.fromFork) repo.branches.set(headBranch, pull.headSha);
        const action = typeof request.action === 'string' ? request.action : 'opened';
        sendJson(
          response,
          200,
          await deliver(
            repo,
            'pull_request',
            pullRequestPayload(state.baseUrl, repo, pull, action),
          ),
        );
      }),
    ),
  ];
}
