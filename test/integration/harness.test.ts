import { describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  forgeRepo,
  forgeUnhandledRequests,
  harnessInfo,
  offlinePipelineYaml,
  pullRequestWebhook,
  pushCommit,
  pushWebhook,
  stepNamed,
  userApi,
  waitForLogLine,
  waitForPipelineStatus,
  woodpeckerApi,
  type WoodpeckerPipeline,
} from '../harness/fixtures.js';
import { startStack } from '../harness/stack.js';
import { pinnedWoodpeckerTag, reportedVersion } from '../harness/woodpecker-binaries.js';

// Proves the harness itself: a real server of the pinned version, two real accounts, a
// forge stand-in Woodpecker accepts, and an agent that really runs pipelines.

describe('woodpecker test harness', () => {
  it('runs the pinned Woodpecker version (or the one WOODPECKER_TEST_VERSION asks for)', async () => {
    const response = await fetch(`${harnessInfo().url}/version`);
    const body = (await response.json()) as { version: string };
    expect(body.version).toBe(
      reportedVersion(process.env.WOODPECKER_TEST_VERSION ?? pinnedWoodpeckerTag()),
    );
    expect(harnessInfo().version).toBe(body.version);
  });

  it('has an instance admin and a normal user, each with a working API token', async () => {
    const admin = await adminApi().get<{ login: string; admin?: boolean }>('/api/user');
    const user = await userApi().get<{ login: string; admin?: boolean }>('/api/user');
    expect(admin.login).toBe(harnessInfo().adminLogin);
    expect(admin.admin).toBe(true);
    expect(user.login).toBe(harnessInfo().userLogin);
    expect(user.admin ?? false).toBe(false);
    // The difference is real: only the admin may list users.
    expect((await adminApi().request('GET', '/api/users')).status).toBe(200);
    expect((await userApi().request('GET', '/api/users')).status).toBe(403);
    expect((await woodpeckerApi(undefined).request('GET', '/api/user')).status).toBe(401);
  });

  it('registers a webhook at the forge when a repository is activated', async () => {
    const repo = await createRepo({ owner: 'user' });
    const atForge = await forgeRepo(repo);
    expect(atForge.hooks).toHaveLength(1);
    const [hook] = atForge.hooks;
    expect(hook?.urlWithoutToken).toBe(`${harnessInfo().url}/api/hook`);
    expect(hook?.hasAccessToken).toBe(true);
    expect(hook?.events).toEqual(expect.arrayContaining(['push', 'pull_request']));
    const inWoodpecker = await userApi().get<{ id: number; full_name: string; active: boolean }>(
      `/api/repos/${repo.repoId}`,
    );
    expect(inWoodpecker).toMatchObject({ id: repo.repoId, full_name: repo.fullName, active: true });
  });

  it('runs a manually triggered pipeline on the agent and stores its log', async () => {
    const marker = `HARNESS_MARKER_${Math.random().toString(36).slice(2)}`;
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([{ name: 'say', commands: [`echo ${marker}`] }]),
      },
    });
    const created = await adminApi().post<WoodpeckerPipeline>(
      `/api/repos/${repo.repoId}/pipelines`,
      { branch: 'main' },
    );
    expect(created.commit).toBe(repo.headSha);
    const finished = await waitForPipelineStatus(repo.repoId, created.number, ['success']);
    const step = stepNamed(finished, 'say');
    expect(step).toMatchObject({ state: 'success', exit_code: 0 });
    const lines = await waitForLogLine(repo.repoId, created.number, step.id, marker);
    expect(lines).toContain(`+ echo ${marker}`);
    // The forge was told how it went.
    const statuses = (await forgeRepo(repo)).statuses.filter(
      (status) => status.sha === repo.headSha,
    );
    expect(statuses.map((status) => status.state)).toContain('success');
  });

  it('reports a failing step with its exit code', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          { name: 'fail-with-3', commands: ['echo about to fail', 'exit 3'] },
        ]),
      },
    });
    const created = await adminApi().post<WoodpeckerPipeline>(
      `/api/repos/${repo.repoId}/pipelines`,
      { branch: 'main' },
    );
    const finished = await waitForPipelineStatus(repo.repoId, created.number, ['failure']);
    expect(stepNamed(finished, 'fail-with-3')).toMatchObject({ state: 'failure', exit_code: 3 });
    await waitForLogLine(
      repo.repoId,
      created.number,
      stepNamed(finished, 'fail-with-3').id,
      'about to fail',
    );
  });

  it('creates a push pipeline from a webhook for the pushed commit', async () => {
    const repo = await createRepo();
    const sha = await pushCommit(repo, 'topic');
    const delivery = await pushWebhook(repo, { branch: 'topic', message: 'a pushed change' });
    expect(delivery.status).toBe(200);
    expect(delivery.body).toMatchObject({ event: 'push', branch: 'topic', commit: sha });
    const number = (delivery.body as WoodpeckerPipeline).number;
    const finished = await waitForPipelineStatus(repo.repoId, number, ['success']);
    await waitForLogLine(repo.repoId, number, stepNamed(finished, 'hello').id, 'hello');
  });

  it('blocks a pull request pipeline that needs approval, and runs it once approved', async () => {
    const marker = `APPROVED_${Math.random().toString(36).slice(2)}`;
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml([
          { name: 'after-approval', commands: [`echo ${marker}`] },
        ]),
      },
    });
    await adminApi().patch(`/api/repos/${repo.repoId}`, { require_approval: 'all_events' });

    const delivery = await pullRequestWebhook(repo, { number: 7, author: 'outside-contributor' });
    expect(delivery.status).toBe(200);
    const hooked = delivery.body as WoodpeckerPipeline;
    expect(hooked).toMatchObject({ status: 'blocked', event: 'pull_request' });

    // Still blocked a moment later: nothing runs without approval.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(
      (
        await adminApi().get<WoodpeckerPipeline>(
          `/api/repos/${repo.repoId}/pipelines/${hooked.number}`,
        )
      ).status,
    ).toBe('blocked');

    await adminApi().post(`/api/repos/${repo.repoId}/pipelines/${hooked.number}/approve`);
    const finished = await waitForPipelineStatus(repo.repoId, hooked.number, ['success']);
    await waitForLogLine(
      repo.repoId,
      hooked.number,
      stepNamed(finished, 'after-approval').id,
      marker,
    );
  });

  it('left no call from Woodpecker to the forge unanswered', async () => {
    expect(await forgeUnhandledRequests()).toEqual([]);
  });

  it('starts a second, independent stack in the same process and stops it cleanly', async () => {
    const second = await startStack();
    try {
      expect(second.url).not.toBe(harnessInfo().url);
      expect(second.forgeUrl).not.toBe(harnessInfo().forgeUrl);
      expect(second.dir).not.toBe(harnessInfo().dir);
      const me = await woodpeckerApi(second.adminToken, second.url).get<{ admin: boolean }>(
        '/api/user',
      );
      expect(me.admin).toBe(true);
      // Tokens are per server: the main stack's token means nothing to the second one.
      expect(
        (await woodpeckerApi(harnessInfo().adminToken, second.url).request('GET', '/api/user'))
          .status,
      ).toBe(401);
    } finally {
      await second.stop();
    }
    const afterStop = await fetch(`${second.url}/healthz`).then(
      () => 'still answering',
      () => 'gone',
    );
    expect(afterStop).toBe('gone');
    // The main stack is untouched.
    expect((await fetch(`${harnessInfo().url}/healthz`)).status).toBe(204);
  }, 120_000);
});
