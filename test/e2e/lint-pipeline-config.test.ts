// lint_pipeline_config through a real MCP client against the real Woodpecker of the run
// (behind a recording proxy): the release it names is the one that answers, its only
// request is GET /version, a config that Woodpecker itself then runs is found clean, and
// an oversized input is refused by the schema, naming the field, before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  pushWebhook,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import { startFaultProxy, type FaultProxy } from './faultProxy.js';
import { openSession, textOf, type McpSession } from './mcpSession.js';

interface Finding {
  line: number;
  column: number;
  field: string;
  rule: string;
  message: string;
}
interface LintAnswer {
  valid: boolean;
  judged_by: string;
  errors?: Finding[];
  warnings?: Finding[];
}

describe('lint_pipeline_config against the real Woodpecker', () => {
  let proxy: FaultProxy;
  let session: McpSession;
  beforeAll(async () => {
    proxy = await startFaultProxy(harnessInfo().url);
    session = await openSession({
      revision: '2026-07-28',
      woodpecker: { url: proxy.url, token: harnessInfo().adminToken },
    });
  });
  afterAll(async () => {
    await session?.close();
    await proxy?.close();
  });

  async function lint(config: string): Promise<LintAnswer> {
    const before = proxy.forwarded.length;
    const result = await session.call('lint_pipeline_config', { config });
    expect(result.isError, textOf(result)).toBeFalsy();
    const sent = proxy.forwarded.slice(before);
    // The version is read once per call; the text is never part of a request.
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /version']);
    return result.structuredContent as LintAnswer;
  }

  it('finds a config clean that this Woodpecker then runs green, judged by its release', async () => {
    const yaml = offlinePipelineYaml([{ name: 'lint-ok', commands: ['echo linted'] }]);
    const answer = await lint(yaml);
    expect(answer.errors ?? [], JSON.stringify(answer)).toEqual([]);
    expect(answer.valid).toBe(true);
    // 3.17.0 → "Woodpecker 3.17"; 3.18.0-dev+a4cb541 → "Woodpecker 3.18 (main at a4cb541, …)".
    const [major, minor] = harnessInfo().version.split('.');
    expect(answer.judged_by).toMatch(new RegExp(`^Woodpecker ${major}\\.${minor}\\b`));
    expect(answer.judged_by).not.toMatch(/nearest|did not answer/);

    const repo = await createRepo({ files: { '.woodpecker.yaml': yaml } });
    const delivered = await pushWebhook(repo);
    const number = (delivered.body as { number: number }).number;
    expect((await waitForPipelineStatus(repo.repoId, number, ['success', 'failure'])).status).toBe(
      'success',
    );
  });

  it('points at the line and column of what the release does not allow', async () => {
    const answer = await lint(
      [
        'when:',
        '  event: push',
        'steps:',
        '  build:',
        '    image: alpine',
        '    comands: [go build]',
        '',
      ].join('\n'),
    );
    expect(answer.valid).toBe(false);
    expect(answer.errors).toEqual([
      expect.objectContaining({ line: 6, column: 5, field: 'steps.build.comands', rule: 'schema' }),
    ]);
  });

  it('refuses an input over its bound by naming the field, and sends nothing', async () => {
    const before = proxy.forwarded.length;
    const result = await session.call('lint_pipeline_config', { config: 'x'.repeat(200_001) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/config/);
    expect(textOf(result)).toMatch(/200000/);
    expect(proxy.forwarded.slice(before)).toEqual([]);
  });
});
