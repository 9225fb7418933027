// End-to-end: the pipeline view as a person sees it. The real server (stdio) and the
// harness Woodpecker run a pipeline that really fails; a host built on ext-apps' AppBridge
// shows get_pipeline's and get_pipeline_failure's results in Debian's Chromium. The commit
// message and a log line carry <script> and <img onerror>: they must show as text and do
// nothing. Screenshots go to docs/images/, so the pictures in the docs stay true.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import {
  createRepo,
  offlinePipelineYaml,
  pushWebhook,
  waitForPipelineStatus,
  type TestRepo,
} from '../harness/fixtures.js';
import { harnessWoodpecker } from './stdioServer.js';
import { chromiumMissing, startAppHost, type AppHost } from './appHost.js';
import { REVISIONS, withSession } from './mcpSession.js';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';

const IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));

// Markup a pusher controls. If any of it ran, it would set one of these globals.
const MESSAGE_ATTACK =
  'Fix flaky widget test <script>window.__pwned="message-script"</script><img src=x onerror="window.__pwned=\'message-img\'">';
const LOG_SCRIPT = '<script>window.__pwned="log-script"</script>';
const LOG_IMG = '<img src=x onerror="window.__pwned=\'log-img\'">';

const YAML = offlinePipelineYaml([
  { name: 'prepare', commands: ['echo fetching dependencies', 'echo ready'] },
  {
    name: 'unit-tests',
    commands: [
      'echo running 12 tests',
      `echo '${LOG_SCRIPT}'`,
      `echo '${LOG_IMG.replace(/'/g, "'\\''")}'`,
      'echo "FAIL widget_test.go:42: expected 3 widgets, got 2"',
      'exit 3',
    ],
  },
]);

const text = (frame: Frame, selector: string) => frame.locator(selector).allTextContents();
/** The log line the failing step printed (not the shell's trace of the command). */
const failLine = (frame: Frame) =>
  frame.locator('.log pre > div', { hasText: /^\d+FAIL widget_test/ });

describe('the pipeline view in a real browser', () => {
  let repo: TestRepo;
  let number: number;
  let host: AppHost;

  beforeAll(async () => {
    const missing = chromiumMissing();
    if (missing) throw new Error(missing);
    repo = await createRepo({ files: { '.woodpecker.yaml': YAML } });
    const pushed = await pushWebhook(repo, { message: MESSAGE_ATTACK });
    expect(pushed.status).toBe(200);
    number = (pushed.body as { number: number }).number;
    await waitForPipelineStatus(repo.repoId, number, ['failure']);
    host = await startAppHost({ env: harnessWoodpecker() });
    mkdirSync(IMAGES, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await host?.close();
  });

  it('shows workflows and steps with state and exit code, the failing step opened with its log tail', async () => {
    const { frame } = await host.show('get_pipeline', {
      repo_id: repo.repoId,
      number: String(number),
    });
    await failLine(frame).waitFor({ timeout: 60_000 });
    expect((await text(frame, 'h1'))[0]).toContain(`Pipeline #${number}`);
    expect(await text(frame, 'h1 .badge')).toEqual(['failure']);
    const rows = await text(frame, '.step');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^prepare\s*success/);
    expect(rows[1]).toMatch(/^unit-tests\s*failure\s*exit 3/);
    // The failing step is the one opened, with the tail the host fetched through the server.
    expect(await frame.locator('.step.open').textContent()).toContain('unit-tests');
    const log = await text(frame, '.log pre > div');
    expect(log.some((line) => line.endsWith('running 12 tests'))).toBe(true);
    expect(host.viewCalls).toContain('get_step_logs');
    // The view told the host its height (ui/notifications/size-changed), and the frame fits it.
    await expect
      .poll(() => host.page.locator('#view').evaluate((frame) => frame.clientHeight), {
        timeout: 30_000,
      })
      .toBeLessThan(900);
    await host.page.locator('#view').screenshot({ path: `${IMAGES}pipeline-view.png` });
  });

  it('shows a pushed <script> and <img onerror> as text, and runs neither', async () => {
    const frame = host.page.frames().find((candidate) => candidate !== host.page.mainFrame())!;
    const message = await frame.locator('.msg').first().textContent();
    expect(message).toBe(MESSAGE_ATTACK);
    const log = await text(frame, '.log pre > div');
    expect(log.some((line) => line.endsWith(LOG_SCRIPT))).toBe(true);
    expect(log.some((line) => line.endsWith(LOG_IMG))).toBe(true);
    // Give a broken image's onerror every chance to fire before looking.
    await frame.waitForTimeout(500);
    expect(await frame.evaluate('window.__pwned')).toBeUndefined();
    expect(await frame.locator('img').count()).toBe(0);
    expect(await frame.locator('script').count()).toBe(1);
  });

  it('is held by its own CSP: no inline handler runs and nothing reaches the network', async () => {
    const frame = host.page.frames().find((candidate) => candidate !== host.page.mainFrame())!;
    // Even markup that slipped into the page could not act: the CSP admits no inline
    // handler and no connection, whatever the host's own policy is.
    await frame.evaluate(`(() => {
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.__inline = 1');
      img.src = 'data:,broken';
      document.body.appendChild(img);
    })()`);
    const reached = await frame.evaluate(
      `fetch(${JSON.stringify(harnessWoodpecker().WOODPECKER_URL + '/version')}).then(() => 'reached', () => 'blocked')`,
    );
    expect(reached).toBe('blocked');
    expect(await frame.evaluate('window.__inline')).toBeUndefined();
  });

  it('searches the log through search_logs, and opens the Woodpecker page through the host', async () => {
    const frame = host.page.frames().find((candidate) => candidate !== host.page.mainFrame())!;
    await frame.locator('.log input').fill('widget');
    await frame.locator('.log button').click();
    await frame.getByText(/\d+ matching lines?/).waitFor({ timeout: 60_000 });
    const hits = await text(frame, '.log pre > div.hit');
    // The shell's trace of the echo matches too; every hit holds the pattern.
    expect(
      hits.some((hit) => /^\d+FAIL widget_test.go:42: expected 3 widgets, got 2$/.test(hit)),
    ).toBe(true);
    expect(hits.every((hit) => hit.includes('widget'))).toBe(true);
    expect(host.viewCalls).toContain('search_logs');
    await frame.getByText('Open in Woodpecker').click();
    await expect
      .poll(() => host.openedLinks, { timeout: 30_000 })
      .toEqual([`${harnessWoodpecker().WOODPECKER_URL}/repos/${repo.repoId}/pipeline/${number}`]);
  });

  it('shows get_pipeline_failure with each failed step and its log tail', async () => {
    const { frame } = await host.show('get_pipeline_failure', {
      repo_id: repo.repoId,
      number,
    });
    await failLine(frame).waitFor({ timeout: 60_000 });
    expect(await text(frame, '.log header strong')).toEqual(['unit-tests']);
    expect(await frame.evaluate('window.__pwned')).toBeUndefined();
  });

  it.each(REVISIONS)(
    'on %s over HTTP, points a client with the extension at the page',
    async (revision) => {
      await withSession(
        { revision, extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
        async (session) => {
          const listed = await session.client.listTools();
          const withView = listed.tools.filter((tool) => getToolUiResourceUri(tool) !== undefined);
          expect(withView.map((tool) => tool.name).sort()).toEqual([
            'get_pipeline',
            'get_pipeline_failure',
          ]);
          const page = await session.client.readResource({
            uri: getToolUiResourceUri(withView[0]!)!,
          });
          expect(page.contents[0]).toMatchObject({ mimeType: RESOURCE_MIME_TYPE });
        },
      );
    },
  );

  it('gives a client without the extension the same result and no pointer to a view', async () => {
    const withView = await host.client.callTool({
      name: 'get_pipeline',
      arguments: { repo_id: repo.repoId, number: String(number) },
    });
    await withSession({ revision: '2025-11-25' }, async (session) => {
      const listed = await session.client.listTools();
      expect(listed.tools.filter((tool) => tool._meta !== undefined)).toEqual([]);
      const plain = await session.client.callTool({
        name: 'get_pipeline',
        arguments: { repo_id: repo.repoId, number: String(number) },
      });
      expect(plain).toEqual(withView);
    });
  });
});
