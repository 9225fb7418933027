// The view a model reads: fields in the view's order, times and durations it can read,
// nothing empty; and the output step's promises (allowlist on whole entries, redaction,
// untrusted marking, result limit, `detail: "full"`) hold for the view.
import { describe, expect, it } from 'vitest';
import { getPipeline } from '../../../generated/tools/get_pipeline.js';
import { getCron } from '../../../generated/tools/get_cron.js';
import { getRegistry } from '../../../generated/tools/get_registry.js';
import { listPipelines } from '../../../generated/tools/list_pipelines.js';
import { listRepositories } from '../../../generated/tools/list_repositories.js';
import type { ToolArgs, ToolDefinition, View } from '../../../runtime/core/tool.js';
import { answerOf, REDACTED } from '../../../runtime/output/answer.js';
import { finishAnswer, type AnswerFilter } from '../../../runtime/output/outputStep.js';
import {
  applyView,
  durationOf,
  shortEnvelope,
  timeOf,
  tookOf,
} from '../../../runtime/output/view.js';
import type { Send } from '../../../runtime/woodpecker/woodpeckerClient.js';

const send: Send = () => Promise.reject(new Error('no call expected'));
const STARTED = 1796113833; // 2026-12-01T08:30:33Z

function step(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 41,
    uuid: '01JD...',
    pipeline_id: 9,
    pid: 3,
    ppid: 1,
    name: 'test',
    state: 'failure',
    error: '',
    failure: '',
    exit_code: 2,
    started: STARTED + 5,
    finished: STARTED + 100,
    type: 'commands',
    ...overrides,
  };
}

const PIPELINE = {
  id: 9,
  repo_id: 1,
  number: 7,
  author: 'alice',
  parent: 0,
  event: 'push',
  event_reason: null,
  status: 'failure',
  errors: null,
  created: STARTED - 2,
  updated: STARTED + 100,
  started: STARTED,
  finished: STARTED + 100,
  deploy_to: '',
  commit: 'a'.repeat(40),
  branch: 'main',
  ref: 'refs/heads/main',
  message: 'Fix the parser\n',
  author_avatar: 'https://forge.example/avatar/alice',
  forge_url: 'https://forge.example/alice/app/commit/aaaa',
  reviewed_by: '',
  changed_files: ['parser.go'],
  workflows: [
    {
      id: 20,
      pipeline_id: 9,
      pid: 1,
      name: 'woodpecker',
      state: 'failure',
      environ: {},
      started: STARTED,
      finished: STARTED + 100,
      agent_id: 1,
      platform: 'linux/amd64',
      children: [
        step({
          id: 40,
          pid: 2,
          name: 'build',
          state: 'success',
          exit_code: 0,
          finished: STARTED + 10,
        }),
        step({}),
        step({
          id: 42,
          pid: 4,
          name: 'deploy',
          state: 'skipped',
          exit_code: 0,
          started: 0,
          finished: 0,
        }),
      ],
    },
  ],
};

const run = (tool: ToolDefinition, body: unknown, args: ToolArgs = {}, filter?: AnswerFilter) =>
  finishAnswer(
    tool,
    answerOf(tool, args, { status: 200, headers: {}, body }),
    { maxResultBytes: 100_000, repositoryScope: filter },
    send,
  );

describe('readable values', () => {
  it('shows Unix seconds as ISO 8601 UTC to the second, and 0 as nothing', () => {
    expect(timeOf(1796113833)).toBe('2026-12-01T08:30:33Z');
    // A whole minute keeps its seconds: RFC 3339 needs them, and times sort as text.
    expect(timeOf(1796180400)).toBe('2026-12-02T03:00:00Z');
    expect([timeOf(1796180405)!, timeOf(1796180400)!].sort()).toEqual([
      '2026-12-02T03:00:00Z',
      '2026-12-02T03:00:05Z',
    ]);
    expect(timeOf(0)).toBeUndefined();
    expect(timeOf('x')).toBeUndefined();
  });
  it('says how long something ran, or that it is running', () => {
    expect(durationOf(95)).toBe('95 s');
    expect(durationOf(725)).toBe('12 min 5 s');
    expect(durationOf(7500)).toBe('2 h 5 min');
    expect(tookOf({ started: 10, finished: 105 })).toBe('95 s');
    expect(tookOf({ started: 10, finished: 0, state: 'running' })).toBe('running');
    expect(tookOf({ started: 0, finished: 0, state: 'pending' })).toBeUndefined();
    // A step killed before Woodpecker wrote its end did not "run" for ever.
    expect(tookOf({ started: 10, finished: 0, state: 'killed' })).toBeUndefined();
  });
});

describe('applyView', () => {
  const view: View = [
    { name: 'name', show: 'copy' },
    { name: 'id', show: 'copy' },
    { name: 'started', show: 'time' },
    { name: 'took', show: 'took' },
    { name: 'nested', show: 'view', view: [{ name: 'b', show: 'copy' }] },
  ];
  it('keeps the view’s fields in its order and drops empty, zero and false ones', () => {
    const shown = applyView(
      {
        id: 3,
        name: 'x',
        started: 100,
        finished: 195,
        extra: 'hidden',
        nested: [{ a: 1, b: '' }, { b: 'y' }],
      },
      view,
      'object',
    );
    expect(shown).toEqual({
      name: 'x',
      id: 3,
      started: '1970-01-01T00:01:40Z',
      took: '95 s',
      nested: [{}, { b: 'y' }],
    });
    expect(Object.keys(shown)).toEqual(['name', 'id', 'started', 'took', 'nested']);
    expect(applyView({ id: 0, name: '', nested: [], flag: false }, view, 'object')).toEqual({});
  });
  it('shapes each item of a list; the envelope speaks only when there is more or a later page', () => {
    const envelope = (page: number, more: boolean) => ({
      items: [{ id: 1, extra: 2 }],
      page,
      per_page: 50,
      may_have_more: more,
    });
    const shown = (data: Record<string, unknown>) => shortEnvelope(applyView(data, view, 'list'));
    expect(shown(envelope(1, false))).toEqual({ items: [{ id: 1 }] });
    expect(shown(envelope(3, false))).toEqual({ items: [{ id: 1 }], page: 3 });
    expect(shown({ ...envelope(1, true), note: 'ask for page 2' })).toEqual({
      items: [{ id: 1 }],
      page: 1,
      per_page: 50,
      may_have_more: true,
      note: 'ask for page 2',
    });
  });

  it('leaves out a time equal to another (created = started), and shows it when they differ', () => {
    const times: View = [
      { name: 'created', show: 'time', unlessSameAs: 'started' },
      { name: 'started', show: 'time' },
    ];
    expect(applyView({ created: STARTED, started: STARTED }, times, 'object')).toEqual({
      started: '2026-12-01T08:30:33Z',
    });
    expect(applyView({ created: STARTED - 60, started: STARTED }, times, 'object')).toEqual({
      created: '2026-12-01T08:29:33Z',
      started: '2026-12-01T08:30:33Z',
    });
    // Still pending: nothing started, so the creation is the news.
    expect(applyView({ created: STARTED, started: 0 }, times, 'object')).toEqual({
      created: '2026-12-01T08:30:33Z',
    });
  });

  it('leaves out the named keys of a map, and the map when nothing is left', () => {
    const labels: View = [
      { name: 'labels', show: 'without', keys: ['woodpecker-ci.org/repo-id', 'org-id'] },
    ];
    const task = {
      labels: {
        repo: 'a/b',
        'woodpecker-ci.org/repo-id': '2',
        'woodpecker-ci.org/branch': 'main',
        'org-id': '1',
        x: '',
      },
    };
    expect(applyView(task, labels, 'object')).toEqual({
      labels: { repo: 'a/b', 'woodpecker-ci.org/branch': 'main' },
    });
    expect(applyView({ labels: { 'org-id': '1' } }, labels, 'object')).toEqual({});
    expect(applyView({ labels: null }, labels, 'object')).toEqual({});
  });

  it('reads a default written from other fields: a ref that only repeats the branch goes', () => {
    const refView: View = [
      { name: 'branch', show: 'copy' },
      { name: 'ref', show: 'unless', absentMeans: 'refs/heads/{branch}' },
    ];
    expect(applyView({ branch: 'main', ref: 'refs/heads/main' }, refView, 'object')).toEqual({
      branch: 'main',
    });
    expect(applyView({ branch: 'main', ref: 'refs/pull/7/head' }, refView, 'object')).toEqual({
      branch: 'main',
      ref: 'refs/pull/7/head',
    });
    // Another branch's ref, or no branch to fill the default with: the ref is news.
    expect(applyView({ branch: 'dev', ref: 'refs/heads/main' }, refView, 'object')).toEqual({
      branch: 'dev',
      ref: 'refs/heads/main',
    });
    expect(applyView({ ref: 'refs/heads/{branch}' }, refView, 'object')).toEqual({
      ref: 'refs/heads/{branch}',
    });
  });

  it('drops the newline a commit message ends with, and keeps the ones inside it', () => {
    const message: View = [{ name: 'message', show: 'copy' }];
    expect(
      applyView({ message: 'Fix the parser\n\nIt rejected blank lines.\n' }, message, 'object'),
    ).toEqual({ message: 'Fix the parser\n\nIt rejected blank lines.' });
  });
});

describe('a field whose absence means its default (a cron’s timezone and enabled)', () => {
  const cron = (fields: Record<string, unknown>) => ({
    id: 4,
    name: 'nightly',
    repo_id: 1,
    creator_id: 1,
    next_exec: 1796180400,
    schedule: '0 3 * * *',
    created: 1796169556,
    branch: 'main',
    ...fields,
  });
  const shown = async (fields: Record<string, unknown>) =>
    (
      await finishAnswer(
        getCron as unknown as ToolDefinition,
        answerOf(
          getCron as unknown as ToolDefinition,
          { repo_id: 1, cron_id: 4 },
          {
            status: 200,
            headers: {},
            body: cron(fields),
          },
        ),
        { maxResultBytes: 100_000, repositoryScope: undefined },
        send,
      )
    ).structuredContent;

  it('leaves out the timezone UTC and enabled true (3.15 and later)', async () => {
    const answer = await shown({ timezone: 'UTC', enabled: true, variables: null });
    expect(answer).toEqual({
      untrusted: true,
      source: 'woodpecker',
      id: 4,
      name: 'nightly',
      schedule: '0 3 * * *',
      branch: 'main',
      next_exec: '2026-12-02T03:00:00Z',
    });
  });

  it('shows another timezone, and enabled false, which absence would otherwise hide', async () => {
    expect(await shown({ timezone: 'Europe/Berlin', enabled: false })).toMatchObject({
      timezone: 'Europe/Berlin',
      enabled: false,
    });
  });

  it('reads the same for a release without the fields (3.11: every cron runs, in UTC)', async () => {
    const before315 = await shown({});
    expect(before315).toEqual(await shown({ timezone: 'UTC', enabled: true, variables: null }));
    expect(before315).not.toHaveProperty('enabled');
  });

  it('applies to any value type, and keeps the view’s order', () => {
    const view: View = [
      { name: 'a', show: 'unless', absentMeans: 0 },
      { name: 'b', show: 'copy' },
      { name: 'c', show: 'unless', absentMeans: 'x' },
    ];
    const shownView = applyView({ c: '', b: 1, a: 7 }, view, 'object');
    expect(shownView).toEqual({ a: 7, b: 1, c: '' });
    expect(Object.keys(shownView)).toEqual(['a', 'b', 'c']);
    expect(applyView({ a: 0, b: 1, c: 'x' }, view, 'object')).toEqual({ b: 1 });
  });
});

describe('the output step with a view', () => {
  it('get_pipeline: a pipeline as a reader wants it, every id and state a next call needs kept', async () => {
    const result = await run(getPipeline, PIPELINE, { repo_id: 1, number: '7' });
    expect(result.structuredContent).toEqual({
      untrusted: true,
      source: 'woodpecker',
      number: 7,
      id: 9,
      status: 'failure',
      event: 'push',
      branch: 'main',
      // ref refs/heads/main only repeats the branch: left out.
      commit: 'a'.repeat(40),
      author: 'alice',
      message: 'Fix the parser',
      changed_files: ['parser.go'],
      created: '2026-12-01T08:30:31Z',
      started: '2026-12-01T08:30:33Z',
      took: '100 s',
      workflows: [
        {
          id: 20,
          pid: 1,
          name: 'woodpecker',
          state: 'failure',
          took: '100 s',
          agent_id: 1,
          children: [
            { id: 40, pid: 2, name: 'build', state: 'success', took: '5 s' },
            { id: 41, pid: 3, name: 'test', state: 'failure', exit_code: 2, took: '95 s' },
            { id: 42, pid: 4, name: 'deploy', state: 'skipped' },
          ],
        },
      ],
    });
    // The text block is the same view, compact.
    const text = (result.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual(result.structuredContent);
    expect(text).not.toMatch(/\n\s/);
  });

  it('detail "full" returns Woodpecker’s whole object, still marked untrusted', async () => {
    const result = await run(getPipeline, PIPELINE, { repo_id: 1, number: '7', detail: 'full' });
    expect(result.structuredContent).toMatchObject({
      untrusted: true,
      author_avatar: PIPELINE.author_avatar,
      parent: 0,
    });
  });

  it('a credential stays redacted in a view and in the full object', async () => {
    const registry = {
      id: 2,
      address: 'r.example',
      username: 'bot',
      password: 'hunter2',
      repo_id: 1,
    };
    const viewed = await run(getRegistry, registry, {
      scope: 'repository',
      repo_id: 1,
      address: 'r.example',
    });
    const full = await run(getRegistry, registry, {
      scope: 'repository',
      repo_id: 1,
      address: 'r.example',
      detail: 'full',
    });
    expect(JSON.stringify(viewed)).not.toContain('hunter2');
    expect(JSON.stringify(full)).not.toContain('hunter2');
    expect(full.structuredContent).toMatchObject({ password: REDACTED });
  });

  it('the repository allowlist judges whole entries, before the view drops fields', async () => {
    const seen: unknown[] = [];
    const filter: AnswerFilter = {
      filterAnswer: async (_tool, data) => {
        seen.push(...(data.items as unknown[]));
        return {
          data: {
            ...data,
            items: (data.items as { full_name: string }[]).filter((r) => r.full_name === 'a/ok'),
          },
        };
      },
    };
    const repos = [
      { id: 1, full_name: 'a/ok', avatar_url: 'https://x/1', clone_url: 'https://x/a/ok.git' },
      {
        id: 2,
        full_name: 'a/hidden',
        avatar_url: 'https://x/2',
        clone_url: 'https://x/a/hidden.git',
      },
    ];
    const result = await run(listRepositories, repos, {}, filter);
    expect(seen).toEqual(repos);
    expect(result.structuredContent).toMatchObject({ items: [{ id: 1, full_name: 'a/ok' }] });
    expect(JSON.stringify(result)).not.toContain('hidden');
  });

  it('the result limit shortens the viewed list and says so', async () => {
    const pipelines = Array.from({ length: 50 }, (_, i) => ({
      ...PIPELINE,
      number: i + 1,
      workflows: undefined,
    }));
    const tool = listPipelines;
    const result = await finishAnswer(
      tool,
      answerOf(tool, { repo_id: 1 }, { status: 200, headers: {}, body: pipelines }),
      { maxResultBytes: 4000, repositoryScope: undefined },
      send,
    );
    const data = result.structuredContent as { items: unknown[]; shortened: { dropped: number } };
    expect(data.items.length).toBeGreaterThan(1);
    expect(data.items.length + data.shortened.dropped).toBe(50);
    expect(data.items[0]).not.toHaveProperty('author_avatar');
  });
});

describe('pushed text too long to read', () => {
  // Issue 34: a 150 KB pull-request title made get_pipeline, list_pipelines, the approval
  // review and review-approval refuse their whole answer as too big.
  const title = `Fix the build ${'A'.repeat(150_000)}`;
  const pushed = {
    id: 9,
    number: 4,
    status: 'blocked',
    event: 'pull_request',
    branch: 'main',
    title,
    message: title,
    changed_files: Array.from({ length: 5_000 }, (_, index) => `src/file-${index}.ts`),
  };

  it('get_pipeline answers, with the title shortened and saying so', async () => {
    const result = await run(getPipeline, pushed, { repo_id: 1, number: '4' });
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const shown = result.structuredContent as { title: string; changed_files: string[] };
    expect(shown.title.length).toBeLessThan(3_000);
    expect(shown.title.startsWith('Fix the build AAAA')).toBe(true);
    expect(shown.title).toMatch(/148,\d{3} more characters; detail full has the whole text/);
    expect(shown.changed_files.length).toBeLessThanOrEqual(101);
    expect(shown.changed_files.at(-1)).toMatch(/4,900 more; detail full lists them all/);
  });

  it('list_pipelines answers a page of such pipelines', async () => {
    const page = Array.from({ length: 20 }, (_, index) => ({ ...pushed, number: index + 1 }));
    const result = await run(listPipelines, page, { repo_id: 1 });
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
  });

  it('never splits a character made of two UTF-16 units', () => {
    const emoji = '😀'.repeat(5_000);
    const shaped = applyView({ title: emoji }, [{ name: 'title', show: 'copy' }], 'object');
    expect(String(shaped.title)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
