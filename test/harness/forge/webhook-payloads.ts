import type { ForgePullRequest, ForgeRepo } from './forge-state.js';
import { giteaPullRequest, giteaRepo } from './gitea-json.js';

// Gitea webhook bodies. `repository` is the same JSON the API serves for the repo, because
// Woodpecker overwrites its stored repo from the payload and would rename it otherwise.

export function pushPayload(
  baseUrl: string,
  repo: ForgeRepo,
  push: { branch: string; sha: string; message: string; changedFiles: string[] },
): Record<string, unknown> {
  const fullName = `${repo.owner.login}/${repo.name}`;
  const before = '0'.repeat(40);
  const commit = {
    id: push.sha,
    message: `${push.message}\n`,
    url: `${baseUrl}/${fullName}/commit/${push.sha}`,
    added: push.changedFiles,
    removed: [],
    modified: [],
  };
  const sender = { id: repo.owner.id, login: repo.owner.login, email: repo.owner.email };
  return {
    ref: `refs/heads/${push.branch}`,
    before,
    after: push.sha,
    compare_url: `${baseUrl}/${fullName}/compare/${before}...${push.sha}`,
    commits: [commit],
    head_commit: { id: commit.id, message: commit.message, url: commit.url },
    repository: giteaRepo(baseUrl, repo, repo.owner),
    pusher: sender,
    sender,
  };
}

export function pullRequestPayload(
  baseUrl: string,
  repo: ForgeRepo,
  pull: ForgePullRequest,
  action: string,
): Record<string, unknown> {
  return {
    action,
    number: pull.number,
    pull_request: giteaPullRequest(baseUrl, repo, pull),
    repository: giteaRepo(baseUrl, repo, repo.owner),
    sender: { id: 9000 + pull.number, login: pull.author, email: `${pull.author}@example.invalid` },
  };
}
