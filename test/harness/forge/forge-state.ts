import { randomBytes } from 'node:crypto';

// The forge's whole world, in memory. Tests declare users and repositories through the
// control API; Woodpecker reads them through the Gitea-compatible API.

export interface ForgeUser {
  id: number;
  login: string;
  email: string;
  /** What Woodpecker sends back as `Authorization: token …` after the OAuth login. */
  accessToken: string;
}

export interface ForgeHook {
  id: number;
  url: string;
  contentType: string;
  events: string[];
  active: boolean;
  createdAt: string;
}

export interface ForgeStatus {
  sha: string;
  state: string;
  context: string;
  description: string;
  targetUrl: string;
}

export interface ForgePullRequest {
  number: number;
  title: string;
  author: string;
  headBranch: string;
  headSha: string;
  baseBranch: string;
  fromFork: boolean;
  changedFiles: string[];
}

export interface ForgeRepo {
  id: number;
  owner: ForgeUser;
  name: string;
  defaultBranch: string;
  isPrivate: boolean;
  /** branch name → head commit sha */
  branches: Map<string, string>;
  /** path → content; served for every ref, since tests change files between pipelines rather than per commit */
  files: Map<string, string>;
  hooks: ForgeHook[];
  statuses: ForgeStatus[];
  pullRequests: Map<number, ForgePullRequest>;
}

export function newCommitSha(): string {
  return randomBytes(20).toString('hex');
}

export class ForgeState {
  readonly users = new Map<string, ForgeUser>();
  readonly repos = new Map<number, ForgeRepo>();
  /** "METHOD path" of requests no route answered; any entry is a gap in the stand-in. */
  readonly unhandledRequests: string[] = [];
  private nextUserId = 1001;
  private nextRepoId = 1;
  private nextHookId = 1;

  constructor(readonly baseUrl: string) {}

  addUser(login: string): ForgeUser {
    const existing = this.users.get(login);
    if (existing) return existing;
    const user: ForgeUser = {
      id: this.nextUserId++,
      login,
      email: `${login}@example.invalid`,
      accessToken: `forge-token-${login}-${randomBytes(8).toString('hex')}`,
    };
    this.users.set(login, user);
    return user;
  }

  userByAccessToken(token: string | undefined): ForgeUser | undefined {
    if (token === undefined) return undefined;
    for (const user of this.users.values()) if (user.accessToken === token) return user;
    return undefined;
  }

  addRepo(input: {
    owner: string;
    name: string;
    defaultBranch: string;
    branches: string[];
    files: Record<string, string>;
    isPrivate: boolean;
  }): ForgeRepo {
    const owner = this.users.get(input.owner);
    if (owner === undefined) throw new Error(`unknown forge user ${input.owner}`);
    if (this.repoByName(input.owner, input.name))
      throw new Error(`repository ${input.owner}/${input.name} exists`);
    const branches = new Map<string, string>();
    for (const branch of new Set([input.defaultBranch, ...input.branches]))
      branches.set(branch, newCommitSha());
    const repo: ForgeRepo = {
      id: this.nextRepoId++,
      owner,
      name: input.name,
      defaultBranch: input.defaultBranch,
      isPrivate: input.isPrivate,
      branches,
      files: new Map(Object.entries(input.files)),
      hooks: [],
      statuses: [],
      pullRequests: new Map(),
    };
    this.repos.set(repo.id, repo);
    return repo;
  }

  repoByName(owner: string, name: string): ForgeRepo | undefined {
    for (const repo of this.repos.values())
      if (repo.owner.login === owner && repo.name === name) return repo;
    return undefined;
  }

  addHook(
    repo: ForgeRepo,
    url: string,
    contentType: string,
    events: string[],
    active: boolean,
  ): ForgeHook {
    const hook: ForgeHook = {
      id: this.nextHookId++,
      url,
      contentType,
      events,
      active,
      createdAt: new Date().toISOString(),
    };
    repo.hooks.push(hook);
    return hook;
  }
}
