import { randomBytes } from 'node:crypto';
import type { ForgeRepo, ForgeState, ForgeUser } from './forge-state.js';
import { giteaBranch, giteaHook, giteaPullRequest, giteaRepo, giteaUser } from './gitea-json.js';
import {
  paginate,
  parseJsonObject,
  route,
  sendJson,
  sendNotFound,
  sendText,
  type Route,
  type RouteContext,
} from './http-routing.js';

// The slice of Gitea's API that Woodpecker v3 calls (see docs: woodpecker-server.md §7),
// plus the two OAuth endpoints its login flow uses.

const giteaVersion = '1.22.0';
// Ten years: Woodpecker refreshes a forge token only when it is about to expire, and a
// refresh would need the forge mid-test. This keeps it from ever trying.
const tokenLifetimeSeconds = 10 * 365 * 24 * 3600;

function viewerOf(state: ForgeState, context: RouteContext): ForgeUser | undefined {
  const header = context.request.headers.authorization ?? '';
  const match = /^(?:token|bearer)\s+(.+)$/i.exec(header);
  return state.userByAccessToken(match?.[1]);
}

function visibleRepo(
  state: ForgeState,
  context: RouteContext,
  repo: ForgeRepo | undefined,
): ForgeRepo | undefined {
  if (repo === undefined) return undefined;
  if (repo.isPrivate && viewerOf(state, context)?.id !== repo.owner.id) return undefined;
  return repo;
}

/** Gitea serves files at raw/<path>?ref=… and also raw/<ref>/<path>; accept both. */
function lookupFile(repo: ForgeRepo, path: string): string | undefined {
  const direct = repo.files.get(path);
  if (direct !== undefined) return direct;
  const [first, ...rest] = path.split('/');
  const knownRefs = new Set([...repo.branches.keys(), ...repo.branches.values()]);
  if (first !== undefined && knownRefs.has(first)) return repo.files.get(rest.join('/'));
  return undefined;
}

export function giteaRoutes(state: ForgeState): Route[] {
  const base = state.baseUrl;
  const oauthCodes = new Map<string, string>(); // code → login
  const refreshTokens = new Map<string, string>(); // refresh token → login

  const repoFromPath = (context: RouteContext): ForgeRepo | undefined =>
    visibleRepo(
      state,
      context,
      state.repoByName(context.params.owner ?? '', context.params.name ?? ''),
    );

  const withRepo =
    (handler: (context: RouteContext, repo: ForgeRepo) => void) =>
    (context: RouteContext): void => {
      const repo = repoFromPath(context);
      if (repo === undefined) return sendNotFound(context.response, 'repository not found');
      handler(context, repo);
    };

  const tokenResponse = (context: RouteContext, login: string): void => {
    const user = state.users.get(login);
    if (user === undefined) return sendJson(context.response, 400, { error: 'invalid_grant' });
    const refreshToken = `forge-refresh-${randomBytes(8).toString('hex')}`;
    refreshTokens.set(refreshToken, login);
    sendJson(context.response, 200, {
      access_token: user.accessToken,
      token_type: 'bearer',
      refresh_token: refreshToken,
      expires_in: tokenLifetimeSeconds,
    });
  };

  return [
    // OAuth: the harness adds login_as=<login> to pick who logs in, since there is no login form.
    route('GET', '/login/oauth/authorize', ({ url, response }) => {
      const login = url.searchParams.get('login_as') ?? '';
      const redirectUri = url.searchParams.get('redirect_uri');
      if (!state.users.has(login) || redirectUri === null)
        return sendJson(response, 400, { error: 'unknown login_as or no redirect_uri' });
      const code = randomBytes(12).toString('hex');
      oauthCodes.set(code, login);
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { Location: target.toString() });
      response.end();
    }),
    route('POST', '/login/oauth/access_token', (context) => {
      const form = new URLSearchParams(context.body);
      if (form.get('grant_type') === 'refresh_token') {
        const login = refreshTokens.get(form.get('refresh_token') ?? '');
        return login === undefined
          ? sendJson(context.response, 400, { error: 'invalid_grant' })
          : tokenResponse(context, login);
      }
      const code = form.get('code') ?? '';
      const login = oauthCodes.get(code);
      oauthCodes.delete(code);
      if (login === undefined) return sendJson(context.response, 400, { error: 'invalid_grant' });
      tokenResponse(context, login);
    }),

    route('GET', '/api/v1/version', ({ response }) =>
      sendJson(response, 200, { version: giteaVersion }),
    ),
    route('GET', '/api/v1/settings/api', ({ response }) =>
      sendJson(response, 200, {
        max_response_items: 50,
        default_paging_num: 30,
        default_git_trees_per_page: 1000,
        default_max_blob_size: 10485760,
      }),
    ),

    route('GET', '/api/v1/user', (context) => {
      const viewer = viewerOf(state, context);
      if (viewer === undefined)
        return sendJson(context.response, 401, { message: 'token is required' });
      sendJson(context.response, 200, giteaUser(base, viewer));
    }),
    route('GET', '/api/v1/user/orgs', ({ response }) => sendJson(response, 200, [])),
    route('GET', '/api/v1/user/repos', (context) => {
      const viewer = viewerOf(state, context);
      if (viewer === undefined)
        return sendJson(context.response, 401, { message: 'token is required' });
      const owned = [...state.repos.values()].filter((repo) => repo.owner.id === viewer.id);
      sendJson(
        context.response,
        200,
        paginate(owned, context.url).map((repo) => giteaRepo(base, repo, viewer)),
      );
    }),
    route('GET', '/api/v1/users/:login', ({ params, response }) => {
      const user = state.users.get(params.login ?? '');
      if (user === undefined) return sendNotFound(response, 'user not found');
      sendJson(response, 200, giteaUser(base, user));
    }),
    route('GET', '/api/v1/users/:login/orgs', ({ response }) => sendJson(response, 200, [])),
    // The stand-in has no organisations: every owner is a user.
    route('GET', '/api/v1/orgs/:org', ({ response }) =>
      sendNotFound(response, 'organization not found'),
    ),
    route('GET', '/api/v1/orgs/:org/members/:login', ({ response }) =>
      sendNotFound(response, 'not a member'),
    ),
    route('GET', '/api/v1/users/:login/orgs/:org/permissions', ({ response }) =>
      sendJson(response, 200, {
        is_owner: false,
        is_admin: false,
        can_write: false,
        can_read: false,
        can_create_repository: false,
      }),
    ),

    route('GET', '/api/v1/repositories/:id', (context) => {
      const repo = visibleRepo(state, context, state.repos.get(Number(context.params.id)));
      if (repo === undefined) return sendNotFound(context.response, 'repository not found');
      sendJson(context.response, 200, giteaRepo(base, repo, viewerOf(state, context)));
    }),
    route(
      'GET',
      '/api/v1/repos/:owner/:name',
      withRepo((context, repo) =>
        sendJson(context.response, 200, giteaRepo(base, repo, viewerOf(state, context))),
      ),
    ),

    route(
      'GET',
      '/api/v1/repos/:owner/:name/hooks',
      withRepo(({ response, url }, repo) =>
        sendJson(response, 200, paginate(repo.hooks, url).map(giteaHook)),
      ),
    ),
    route(
      'POST',
      '/api/v1/repos/:owner/:name/hooks',
      withRepo(({ response, body }, repo) => {
        const request = parseJsonObject(body) as {
          config?: { url?: string; content_type?: string };
          events?: string[];
          active?: boolean;
        };
        const hookUrl = request.config?.url;
        if (typeof hookUrl !== 'string' || hookUrl === '')
          return sendJson(response, 422, { message: 'config.url is required' });
        const hook = state.addHook(
          repo,
          hookUrl,
          request.config?.content_type ?? 'json',
          request.events ?? [],
          request.active ?? true,
        );
        sendJson(response, 201, giteaHook(hook));
      }),
    ),
    route(
      'DELETE',
      '/api/v1/repos/:owner/:name/hooks/:hookId',
      withRepo(({ response, params }, repo) => {
        const index = repo.hooks.findIndex((hook) => hook.id === Number(params.hookId));
        if (index === -1) return sendNotFound(response, 'hook not found');
        repo.hooks.splice(index, 1);
        response.writeHead(204).end();
      }),
    ),

    route(
      'GET',
      '/api/v1/repos/:owner/:name/branches',
      withRepo(({ response, url }, repo) => {
        const branches = [...repo.branches].map(([name, sha]) =>
          giteaBranch(base, repo, name, sha),
        );
        sendJson(response, 200, paginate(branches, url));
      }),
    ),
    route(
      'GET',
      '/api/v1/repos/:owner/:name/branches/:branch',
      withRepo(({ response, params }, repo) => {
        const sha = repo.branches.get(params.branch ?? '');
        if (sha === undefined) return sendNotFound(response, 'branch not found');
        sendJson(response, 200, giteaBranch(base, repo, params.branch ?? '', sha));
      }),
    ),
    route('GET', '/api/v1/repos/:owner/:name/tags/:tag', ({ response }) =>
      sendNotFound(response, 'tag not found'),
    ),

    route(
      'GET',
      '/api/v1/repos/:owner/:name/contents/*path',
      withRepo(({ response, params }, repo) => {
        const path = (params.path ?? '').replace(/\/+$/, '');
        const file = repo.files.get(path);
        if (file !== undefined) {
          return sendJson(response, 200, {
            name: path.split('/').pop(),
            path,
            type: 'file',
            size: Buffer.byteLength(file),
            encoding: 'base64',
            content: Buffer.from(file).toString('base64'),
          });
        }
        const children = [...repo.files.keys()].filter(
          (candidate) =>
            candidate.startsWith(`${path}/`) && !candidate.slice(path.length + 1).includes('/'),
        );
        if (children.length === 0) return sendNotFound(response, 'path not found');
        sendJson(
          response,
          200,
          children.sort().map((child) => ({
            name: child.slice(path.length + 1),
            path: child,
            type: 'file',
            size: Buffer.byteLength(repo.files.get(child) ?? ''),
          })),
        );
      }),
    ),
    route(
      'GET',
      '/api/v1/repos/:owner/:name/raw/*path',
      withRepo(({ response, params }, repo) => {
        const content = lookupFile(repo, params.path ?? '');
        if (content === undefined) return sendNotFound(response, 'file not found');
        sendText(response, 200, content, 'application/octet-stream');
      }),
    ),

    route(
      'POST',
      '/api/v1/repos/:owner/:name/statuses/:sha',
      withRepo(({ response, params, body }, repo) => {
        const request = parseJsonObject(body) as {
          state?: string;
          context?: string;
          description?: string;
          target_url?: string;
        };
        const status = {
          sha: params.sha ?? '',
          state: request.state ?? '',
          context: request.context ?? '',
          description: request.description ?? '',
          targetUrl: request.target_url ?? '',
        };
        repo.statuses.push(status);
        sendJson(response, 201, {
          id: repo.statuses.length,
          status: status.state,
          context: status.context,
          description: status.description,
          target_url: status.targetUrl,
        });
      }),
    ),

    route(
      'GET',
      '/api/v1/repos/:owner/:name/pulls',
      withRepo(({ response, url }, repo) =>
        sendJson(
          response,
          200,
          paginate([...repo.pullRequests.values()], url).map((pull) =>
            giteaPullRequest(base, repo, pull),
          ),
        ),
      ),
    ),
    route(
      'GET',
      '/api/v1/repos/:owner/:name/pulls/:number/files',
      withRepo(({ response, params, url }, repo) => {
        const pull = repo.pullRequests.get(Number(params.number));
        if (pull === undefined) return sendNotFound(response, 'pull request not found');
        const files = pull.changedFiles.map((filename) => ({
          filename,
          status: 'changed',
          additions: 1,
          deletions: 0,
          changes: 1,
        }));
        sendJson(response, 200, paginate(files, url));
      }),
    ),
  ];
}
