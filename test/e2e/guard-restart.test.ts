// restart_pipeline has no dialog (the specification keeps it unguarded), so it must not be
// a way around the one that approve_pipeline has. Woodpecker's restart copies the old
// pipeline, checks only allow_deploy for a deployment, and never asks for approval
// again: a declined fork pipeline, one that ended in an error before anybody approved
// it, or a pull request's code re-run as a deployment would all run with the
// repository's secrets while nobody was asked. These tests run against the real
// Woodpecker of the harness; each refusal must leave the pipeline list unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  offlinePipelineYaml,
  pullRequestWebhook,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import type { TestRepo } from '../harness/fixtures.js';
import { approvalRepo, blockedPipelines } from './guardFixtures.js';
import type { McpSession } from './mcpSession.js';
import { openSession, textOf } from './mcpSession.js';

const api = adminApi;
const EVENTS = ['push', 'pull_request', 'manual', 'deployment'];
const plainYaml = offlinePipelineYaml([{ name: 'say', commands: ['echo restarted'] }], EVENTS);

async function newestNumber(repo: TestRepo): Promise<number> {
  const list = await api().get<Array<{ number: number }> | null>(
    `/api/repos/${repo.repoId}/pipelines?perPage=1`,
  );
  return list?.[0]?.number ?? 0;
}

async function forkPullRequest(repo: TestRepo): Promise<{ number: number; status: string }> {
  const delivery = await pullRequestWebhook(repo, {
    number: 2000 + Math.floor(Math.random() * 100_000),
    fromFork: true,
  });
  const body = delivery.body as { number?: number; status?: string };
  if (delivery.status !== 200 || typeof body.number !== 'number')
    throw new Error(
      `pull request webhook: ${delivery.status} ${JSON.stringify(delivery.body).slice(0, 300)}`,
    );
  return { number: body.number, status: String(body.status) };
}

describe('restart_pipeline does not run what no person approved', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await openSession({ revision: '2025-11-25' });
  });
  afterAll(() => session?.close());

  /** Asserts a refusal that names the reason and what a person can do, and that nothing new runs. */
  async function expectRefused(
    repo: TestRepo,
    args: Record<string, unknown>,
    says: RegExp[],
  ): Promise<string> {
    const before = await newestNumber(repo);
    // The session is shared: count only the dialogs this restart would have added (a
    // create_secret for pull requests earlier in the file asks, as it should).
    const asked = session.dialogs.length;
    const result = await session.call('restart_pipeline', { repo_id: repo.repoId, ...args });
    const text = textOf(result);
    expect(result.isError, `restart was not refused: ${text}`).toBe(true);
    for (const pattern of says) expect(text).toMatch(pattern);
    expect(text).not.toMatch(/unexpectedly/);
    expect(await newestNumber(repo), 'a refused restart still created a pipeline').toBe(before);
    expect(session.dialogs, 'restart_pipeline must not ask').toHaveLength(asked);
    return text;
  }

  it('a declined fork pipeline: decline_pipeline then restart_pipeline is refused and points to approve_pipeline', async () => {
    const repo = await approvalRepo({ files: { '.woodpecker.yaml': plainYaml } });
    const [number] = await blockedPipelines(repo, 1);
    const declined = await session.call('decline_pipeline', {
      repo_id: repo.repoId,
      number: number!,
    });
    expect(declined.isError, textOf(declined)).toBeFalsy();
    expect(
      (await api().get<{ status: string }>(`/api/repos/${repo.repoId}/pipelines/${number}`)).status,
    ).toBe('declined');

    await expectRefused(repo, { number }, [/declined/, /approve_pipeline/]);
  });

  it('a pipeline still waiting for approval: the refusal says so and points to approve_pipeline', async () => {
    const repo = await approvalRepo({ files: { '.woodpecker.yaml': plainYaml } });
    const [number] = await blockedPipelines(repo, 1);
    await expectRefused(repo, { number }, [/waiting for approval|blocked/, /approve_pipeline/]);
    expect(
      (await api().get<{ status: string }>(`/api/repos/${repo.repoId}/pipelines/${number}`)).status,
    ).toBe('blocked');
  });

  it('a fork pipeline that ended in an error before any approval (a missing secret) is refused after create_secret', async () => {
    const yaml = offlinePipelineYaml(
      [{ name: 'leak', commands: ['echo "$DEPLOY_KEY"'] }],
      EVENTS,
    ).replace(
      '    commands:',
      '    environment:\n      DEPLOY_KEY:\n        from_secret: deploy_key\n    commands:',
    );
    expect(yaml).toContain('from_secret: deploy_key');
    const repo = await createRepo({ files: { '.woodpecker.yaml': yaml } });
    await api().patch(`/api/repos/${repo.repoId}`, { require_approval: 'forks' });
    const pull = await forkPullRequest(repo);
    const ended = await waitForPipelineStatus(repo.repoId, pull.number, ['error', 'blocked']);
    // Woodpecker 3.17 reports the missing secret before it decides about approval.
    expect(ended.status).toBe('error');

    const created = await session.call('create_secret', {
      scope: 'repository',
      repo_id: repo.repoId,
      name: 'deploy_key',
      value: 'fork-must-not-see-this',
      events: ['pull_request'],
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    await expectRefused(repo, { number: pull.number }, [
      /fork/,
      /never approved|not approved/,
      /person/,
    ]);
  });

  it('a pull request pipeline is not re-run as a deployment (event or deploy_to), even once approved', async () => {
    const repo = await createRepo({ files: { '.woodpecker.yaml': plainYaml } });
    const allowed = await session.call('update_repository', {
      repo_id: repo.repoId,
      allow_deploy: true,
    });
    expect(allowed.isError, textOf(allowed)).toBeFalsy();
    await api().patch(`/api/repos/${repo.repoId}`, { require_approval: 'forks' });
    const pull = await forkPullRequest(repo);
    expect(pull.status).toBe('blocked');
    // A person approved the pull request's own run; that is not an approval to deploy it.
    await api().post(`/api/repos/${repo.repoId}/pipelines/${pull.number}/approve`);
    await waitForPipelineStatus(repo.repoId, pull.number, ['success']);

    await expectRefused(
      repo,
      { number: pull.number, event: 'deployment', deploy_to: 'production' },
      [/pull request/, /deployment/],
    );
    // deploy_to alone is refused before anything is read: Woodpecker ignores it without event.
    await expectRefused(repo, { number: pull.number, deploy_to: 'production' }, [
      /deploy_to is given without event/,
      /give event too/,
    ]);

    // Not only forks: a same-repository pull request's code is not a deployment either.
    const own = (
      await pullRequestWebhook(repo, { number: 9000 + Math.floor(Math.random() * 100_000) })
    ).body as { number: number };
    await waitForPipelineStatus(repo.repoId, own.number, ['success']);
    await expectRefused(repo, { number: own.number, event: 'deployment' }, [
      /pull request/,
      /deployment/,
    ]);
  });

  it('ordinary restarts keep working: a manual pipeline, a branch pipeline as a deployment, an approved fork pipeline', async () => {
    const repo = await createRepo({ files: { '.woodpecker.yaml': plainYaml } });
    await api().patch(`/api/repos/${repo.repoId}`, {
      allow_deploy: true,
      require_approval: 'forks',
    });
    const manual = await api().post<{ number: number }>(`/api/repos/${repo.repoId}/pipelines`, {
      branch: 'main',
    });
    await waitForPipelineStatus(repo.repoId, manual.number, ['success']);

    const asked = session.dialogs.length;
    const again = await session.ok<{ number: number; event: string }>('restart_pipeline', {
      repo_id: repo.repoId,
      number: manual.number,
    });
    expect(again.number).toBeGreaterThan(manual.number);
    const deployed = await session.ok<{ number: number; event: string }>('restart_pipeline', {
      repo_id: repo.repoId,
      number: manual.number,
      event: 'deployment',
      deploy_to: 'staging',
    });
    expect(deployed.event).toBe('deployment');

    const pull = await forkPullRequest(repo);
    await api().post(`/api/repos/${repo.repoId}/pipelines/${pull.number}/approve`);
    await waitForPipelineStatus(repo.repoId, pull.number, ['success']);
    const rerun = await session.ok<{ number: number; event: string }>('restart_pipeline', {
      repo_id: repo.repoId,
      number: pull.number,
    });
    expect(rerun.event).toBe('pull_request');
    expect(session.dialogs, 'restart_pipeline must not ask').toHaveLength(asked);
  });
});
