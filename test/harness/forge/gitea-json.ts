import type { ForgeHook, ForgePullRequest, ForgeRepo, ForgeUser } from './forge-state.js';

// JSON in the shapes the Gitea SDK decodes. Woodpecker dereferences owner, splits
// full_name on "/" and needs commit.id on branches, so those are always present.

export function giteaUser(baseUrl: string, user: ForgeUser): Record<string, unknown> {
  return {
    id: user.id,
    login: user.login,
    username: user.login,
    full_name: user.login,
    email: user.email,
    avatar_url: `${baseUrl}/avatars/${user.login}`,
    is_admin: false,
    visibility: 'public',
  };
}

export function giteaRepo(
  baseUrl: string,
  repo: ForgeRepo,
  viewer: ForgeUser | undefined,
): Record<string, unknown> {
  const fullName = `${repo.owner.login}/${repo.name}`;
  const isOwner = viewer !== undefined && viewer.id === repo.owner.id;
  return {
    id: repo.id,
    owner: giteaUser(baseUrl, repo.owner),
    name: repo.name,
    full_name: fullName,
    description: '',
    private: repo.isPrivate,
    fork: false,
    archived: false,
    empty: false,
    html_url: `${baseUrl}/${fullName}`,
    clone_url: `${baseUrl}/${fullName}.git`,
    ssh_url: '',
    default_branch: repo.defaultBranch,
    has_pull_requests: true,
    // Only the owner may administer a repository; everyone else may read it.
    permissions: { admin: isOwner, push: isOwner, pull: true },
  };
}

export function giteaBranch(
  baseUrl: string,
  repo: ForgeRepo,
  name: string,
  sha: string,
): Record<string, unknown> {
  const fullName = `${repo.owner.login}/${repo.name}`;
  return {
    name,
    commit: {
      id: sha,
      message: `head of ${name}\n`,
      url: `${baseUrl}/${fullName}/commit/${sha}`,
      author: { name: repo.owner.login, email: repo.owner.email, username: repo.owner.login },
      committer: { name: repo.owner.login, email: repo.owner.email, username: repo.owner.login },
      timestamp: new Date().toISOString(),
    },
    protected: false,
  };
}

export function giteaHook(hook: ForgeHook): Record<string, unknown> {
  return {
    id: hook.id,
    type: 'gitea',
    config: { url: hook.url, content_type: hook.contentType },
    events: hook.events,
    active: hook.active,
    created_at: hook.createdAt,
    updated_at: hook.createdAt,
  };
}

export function giteaPullRequest(
  baseUrl: string,
  repo: ForgeRepo,
  pull: ForgePullRequest,
): Record<string, unknown> {
  const fullName = `${repo.owner.login}/${repo.name}`;
  const headRepoId = pull.fromFork ? repo.id + 100_000 : repo.id;
  return {
    id: pull.number,
    number: pull.number,
    title: pull.title,
    body: '',
    state: 'open',
    draft: false,
    labels: [],
    html_url: `${baseUrl}/${fullName}/pulls/${pull.number}`,
    user: { id: 9000 + pull.number, login: pull.author, email: `${pull.author}@example.invalid` },
    head: { label: pull.headBranch, ref: pull.headBranch, sha: pull.headSha, repo_id: headRepoId },
    base: {
      label: pull.baseBranch,
      ref: pull.baseBranch,
      sha: repo.branches.get(pull.baseBranch) ?? '',
      repo_id: repo.id,
    },
  };
}
