// End-to-end: the approval review a person sees in the pipeline view for a blocked fork
// pull request, in Debian's Chromium through a host built on ext-apps' AppBridge. The
// view's Approve button goes through the host to approve_pipeline, and the server still
// asks the person in its own dialog: declined there, the pipeline stays blocked. The PR
// title carries <script> and <img onerror>; both must show as text and do nothing.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  offlinePipelineYaml,
  pullRequestWebhook,
  waitForPipelineStatus,
  type TestRepo,
} from '../harness/fixtures.js';
import { harnessWoodpecker } from './stdioServer.js';
import { chromiumMissing, startAppHost, type AppHost } from './appHost.js';

const IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));
const TITLE_ATTACK =
  'Speed up CI <script>window.__pwned="title-script"</script><img src=x onerror="window.__pwned=\'title-img\'">';
const YAML = offlinePipelineYaml([
  { name: 'build', commands: ['echo building', 'echo "$${DEPLOY_KEY:-no key}"'] },
]);

describe('the approval review in a real browser', () => {
  let repo: TestRepo;
  let number: number;
  let host: AppHost;

  beforeAll(async () => {
    const missing = chromiumMissing();
    if (missing) throw new Error(missing);
    repo = await createRepo({ files: { '.woodpecker.yaml': YAML } });
    await adminApi().patch(`/api/repos/${repo.repoId}`, { require_approval: 'forks' });
    await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
      name: 'deploy_key',
      value: 'never-shown-in-the-view',
      events: ['pull_request'],
    });
    await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
      name: 'release_token',
      value: 'never-shown-either',
      events: ['tag'],
    });
    const delivered = await pullRequestWebhook(repo, {
      number: 7,
      fromFork: true,
      author: 'stranger',
      title: TITLE_ATTACK,
      changedFiles: ['.woodpecker.yaml', 'scripts/deploy.sh'],
    });
    expect(delivered.status).toBe(200);
    number = (delivered.body as { number: number }).number;
    await waitForPipelineStatus(repo.repoId, number, ['blocked']);
    host = await startAppHost({ env: harnessWoodpecker(), answer: 'decline' });
    mkdirSync(IMAGES, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await host?.close();
  });

  it('shows fork, author, changed files, the config and the reachable secret names', async () => {
    const { frame } = await host.show('get_pipeline', {
      repo_id: repo.repoId,
      number: String(number),
    });
    await frame.locator('.review').waitFor({ timeout: 60_000 });
    await frame.getByText('deploy_key (repository)').waitFor({ timeout: 60_000 });
    await frame.locator('.config', { hasText: 'echo building' }).waitFor({ timeout: 60_000 });
    const facts = await frame.locator('.review dd').allTextContents();
    expect(facts[0]).toMatch(/^yes/);
    expect(facts[1]).toContain('stranger');
    expect(facts[3]).toBe('.woodpecker.yaml\nscripts/deploy.sh');
    // Names whose events include pull_request only; never a value.
    expect(facts[4]).toContain('deploy_key (repository)');
    expect(facts[4]).not.toContain('release_token');
    expect(await frame.locator('body').textContent()).not.toMatch(/never-shown/);
    expect(host.viewCalls).toEqual(
      expect.arrayContaining(['get_pipeline_config', 'get_repository', 'list_secrets']),
    );
    await host.page.locator('#view').screenshot({ path: `${IMAGES}approval-review.png` });
  });

  it('shows a pushed <script> and <img onerror> in the PR title as text, and runs neither', async () => {
    const frame = host.page.frames().find((candidate) => candidate !== host.page.mainFrame())!;
    expect(await frame.locator('.msg').first().textContent()).toBe(TITLE_ATTACK);
    await frame.waitForTimeout(500);
    expect(await frame.evaluate('window.__pwned')).toBeUndefined();
    expect(await frame.locator('img').count()).toBe(0);
  });

  it('approves nothing on a click: the server asks the person, who declines, and it stays blocked', async () => {
    const frame = host.page.frames().find((candidate) => candidate !== host.page.mainFrame())!;
    await frame.getByRole('button', { name: 'Approve…' }).click();
    await frame.getByText(/^Not approved: /).waitFor({ timeout: 60_000 });
    expect(host.viewCalls).toContain('approve_pipeline');
    // The server's own dialog, with its ids, reached the person through the client.
    expect(host.dialogs).toHaveLength(1);
    expect(host.dialogs[0]).toContain(String(number));
    const pipeline = await adminApi().get<{ status: string }>(
      `/api/repos/${repo.repoId}/pipelines/${number}`,
    );
    expect(pipeline.status).toBe('blocked');
  });
});
