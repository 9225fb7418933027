// Objects the guard tests act on, made in the real Woodpecker of the harness through the
// admin API: finished and blocked pipelines, throwaway accounts, the queue and log level
// the instance-wide tools change. guardedTools.ts builds its targets from these.
import {
  adminApi,
  createRepo,
  forgeRepo,
  harnessInfo,
  offlinePipelineYaml,
  pullRequestWebhook,
  stepNamed,
  uniqueName,
  waitForLogLine,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import type { TestRepo } from '../harness/fixtures.js';
import { loginAndCreateApiToken } from '../harness/woodpecker-login.js';

const api = adminApi;
/** The harness's own forge: targets never touch it. */
export const FORGE_ID = 1;

export async function statusOf(path: string): Promise<number> {
  return (await api().request('GET', path)).status;
}

/** A repository whose one step prints a known line, and a finished pipeline of it with that line in its log. */
export async function finishedPipeline(): Promise<{
  repo: TestRepo;
  number: number;
  stepId: number;
}> {
  const repo = await createRepo({
    files: {
      '.woodpecker.yaml': offlinePipelineYaml([
        { name: 'say', commands: ['echo guarded-log-line'] },
      ]),
    },
  });
  const started = await api().post<{ number: number }>(`/api/repos/${repo.repoId}/pipelines`, {
    branch: 'main',
  });
  const done = await waitForPipelineStatus(repo.repoId, started.number, ['success']);
  const stepId = stepNamed(done, 'say').id;
  await waitForLogLine(repo.repoId, started.number, stepId, 'guarded-log-line');
  return { repo, number: started.number, stepId };
}

/** Pull-request pipelines of a repository that needs approval for every event: all blocked. */
export async function blockedPipelines(
  repo: TestRepo,
  count: number,
  pull: { title?: string; headBranch?: string } = {},
): Promise<number[]> {
  const numbers: number[] = [];
  for (let index = 0; index < count; index++) {
    const delivery = await pullRequestWebhook(repo, {
      number: 1000 + index + Math.floor(Math.random() * 100_000),
      fromFork: true,
      ...pull,
    });
    const body = delivery.body as { number?: number; status?: string };
    if (delivery.status !== 200 || body.status !== 'blocked' || typeof body.number !== 'number') {
      throw new Error(
        `pull request webhook did not create a blocked pipeline: ${delivery.status} ${JSON.stringify(delivery.body).slice(0, 300)}`,
      );
    }
    numbers.push(body.number);
  }
  return numbers;
}

export async function approvalRepo(
  options: { files?: Record<string, string>; name?: string } = {},
): Promise<TestRepo> {
  const repo = await createRepo(options);
  await api().patch(`/api/repos/${repo.repoId}`, { require_approval: 'all_events' });
  return repo;
}

export async function pipelineStatus(repoId: number, number: number): Promise<string> {
  return (await api().get<{ status: string }>(`/api/repos/${repoId}/pipelines/${number}`)).status;
}

/** Woodpecker's create answer for a registry login carries id 0; the stored one has its id. */
export async function storedRegistryId(repo: TestRepo, address: string): Promise<number> {
  return (await api().get<{ id: number }>(`/api/repos/${repo.repoId}/registries/${address}`)).id;
}

export async function hookIds(repo: TestRepo): Promise<string> {
  return (await forgeRepo(repo)).hooks.map((hook) => hook.id).join(',');
}

/**
 * A throwaway Woodpecker account: a new forge user who logs in once (OAuth, like a
 * person). Accounts made with POST /api/users all get forge_remote_id "0", so only one
 * of those can exist at a time; logged-in accounts have their own remote ids.
 */
export async function throwawayUser(): Promise<{ login: string; id: number; orgId: number }> {
  const info = harnessInfo();
  const login = uniqueName('guard-user');
  const created = await fetch(`${info.forgeUrl}/_harness/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!created.ok) throw new Error(`forge stand-in refused user ${login}: ${created.status}`);
  await loginAndCreateApiToken(info.url, login);
  const user = await api().get<{ id: number; org_id: number }>(
    `/api/users/${login}?forge_id=${FORGE_ID}`,
  );
  return { login, id: user.id, orgId: user.org_id };
}

export async function userAdmin(login: string): Promise<boolean> {
  return (
    (await api().get<{ admin?: boolean }>(`/api/users/${login}?forge_id=${FORGE_ID}`)).admin ===
    true
  );
}

export async function queuePaused(): Promise<boolean> {
  return (await api().get<{ paused: boolean }>('/api/queue/info')).paused;
}

export async function resumeQueue(): Promise<void> {
  await api().post('/api/queue/resume');
}

export async function logLevel(): Promise<string> {
  return (await api().get<{ 'log-level': string }>('/api/log-level'))['log-level'];
}

export async function setLogLevel(level: string): Promise<void> {
  await api().post('/api/log-level', { 'log-level': level });
}

export const SILENT_LEVELS = ['disabled', 'fatal', 'panic'];

/** The organization a repository belongs to (its owner's, for the harness's repositories). */
export async function orgOf(repo: TestRepo): Promise<number> {
  return (await api().get<{ org_id: number }>(`/api/repos/${repo.repoId}`)).org_id;
}

/** A secret name (or registry host part) no other test uses. */
export function shadowName(): string {
  return `shadow_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
}
