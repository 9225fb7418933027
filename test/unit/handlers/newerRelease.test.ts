// What a release after the newest we test may send (3.19 added generalized log output
// groups, server-enforced agent labels and stored step dependencies; its sources are not
// here): log entries of types we do not know, fields we do not know, pipeline and step
// states and event names we do not know. They pass through the answers as data: no
// crash, no line lost, the unknown value shown as Woodpecker sent it where a view shows
// that field, never taken for a failure or for stderr, and never shown in a dialog (a
// dialog prints "other" for any value outside its vocabulary: test/unit/gate/secretFacts).
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';
import { dialogChoices } from '../../../runtime/gate/guardPredicates.js';
import { WEBHOOK_EVENTS } from '../../../runtime/core/woodpeckerEvents.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();

// A 3.19-shaped pipeline: an event, states and fields no tested release has.
const PIPELINE = {
  id: 30,
  number: 3,
  status: 'waiting_on_dependencies',
  event: 'merge_group',
  branch: 'main',
  commit: 'abc123',
  created: 1_790_000_000,
  started: 1_790_000_010,
  required_labels: { gpu: 'true' },
  workflows: [
    {
      id: 20,
      pid: 1,
      name: 'ci',
      state: 'queued_for_label',
      agent_labels: { gpu: 'true' },
      children: [
        { id: 31, pid: 2, name: 'build', state: 'success', exit_code: 0, depends_on: [] },
        {
          id: 32,
          pid: 3,
          name: 'test',
          state: 'skipped_by_dependency',
          depends_on: ['build'],
          group: { id: 'g1' },
        },
      ],
    },
  ],
};

const entry = (line: number, type: number, text: string | null, extra: object = {}) => ({
  id: 1000 + line,
  step_id: 31,
  line,
  type,
  data: text === null ? null : Buffer.from(text).toString('base64'),
  ...extra,
});
// Types 5 and 6 and a group field: what "generalized log output groups" might send.
const LOG = [
  entry(0, 5, 'group: compile', { group: { id: 'g1', title: 'compile' } }),
  entry(1, 0, 'gcc -c main.c'),
  entry(2, 1, 'warning: unused variable'),
  entry(3, 6, null, { group: { id: 'g1', end: true } }),
  entry(4, 9, 'done'),
];

function serve(): void {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  pool
    .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
    .reply(200, PIPELINE, JSON_HEADERS)
    .persist();
  pool
    .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
    .reply(200, LOG, JSON_HEADERS)
    .persist();
  pool
    .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines?'), method: 'GET' })
    .reply(200, [PIPELINE], JSON_HEADERS)
    .persist();
}

async function call(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await mockExecutor(woodpecker.client()).run(
    toolsByName.get(tool)!,
    args,
    TOKEN_PATH_CALL,
  )) as CallToolResult;
  expect(result.isError, `${tool}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

describe('answers shaped like a newer release', () => {
  it('get_step_logs keeps every line of unknown entry types, as text, none of them stderr but the stderr one', async () => {
    serve();
    const logs = await call('get_step_logs', { repo_id: 7, number: 3, step_id: 31, from: 'head' });
    expect(logs.lines).toEqual([
      'group: compile',
      'gcc -c main.c',
      'warning: unused variable',
      '',
      'done',
    ]);
    expect(logs.stderr_lines).toEqual([2]);
    expect(logs).toMatchObject({ total_lines: 5, first_line: 0, last_line: 4, next_line: 5 });
    // The unknown types stay visible, by the number Woodpecker sent: not passed off as stdout.
    expect(logs.other_type_lines).toEqual({ '5': [0], '6': [3], '9': [4] });
  });

  it('search_logs says which unknown type a matched line had', async () => {
    serve();
    const found = await call('search_logs', {
      repo_id: 7,
      number: 3,
      step_id: 31,
      pattern: 'compile|gcc',
      regex: true,
    });
    const matches = found.matches as Record<string, unknown>[];
    expect(matches.map((match) => [match.line, match.type, match.stream])).toEqual([
      [0, 5, undefined],
      [1, undefined, undefined],
    ]);
  });

  it('search_logs finds text in an unknown entry type', async () => {
    serve();
    const found = await call('search_logs', {
      repo_id: 7,
      number: 3,
      step_id: 31,
      pattern: 'done',
    });
    expect(found.matches).toEqual([expect.objectContaining({ line: 4, text: 'done' })]);
  });

  it('get_pipeline shows unknown states and events as Woodpecker sent them, and drops unknown fields', async () => {
    serve();
    const shown = await call('get_pipeline', { repo_id: 7, number: '3' });
    expect(shown).toMatchObject({ status: 'waiting_on_dependencies', event: 'merge_group' });
    const workflow = (shown.workflows as Record<string, unknown>[])[0]!;
    expect(workflow.state).toBe('queued_for_label');
    expect((workflow.children as Record<string, unknown>[]).map((step) => step.state)).toEqual([
      'success',
      'skipped_by_dependency',
    ]);
    expect(JSON.stringify(shown)).not.toContain('agent_labels');
  });

  it('get_pipeline_failure takes an unknown status for what it is: not a failure', async () => {
    serve();
    const failure = await call('get_pipeline_failure', { repo_id: 7, number: 3 });
    expect(failure).toMatchObject({ failed: false, status: 'waiting_on_dependencies' });
    expect(String(failure.summary)).toBe(
      'Pipeline 3 has status waiting_on_dependencies, which none of the Woodpecker releases this server was checked against uses (a newer release?): it is not counted as failed. get_pipeline shows its workflows and steps.',
    );
  });

  it('wait_for_pipeline stops at an unknown status and says it does not know it', async () => {
    serve();
    const waited = await call('wait_for_pipeline', { repo_id: 7, number: 3, timeout_seconds: 1 });
    expect(waited).toMatchObject({ status: 'waiting_on_dependencies' });
    expect(String(waited.note)).toMatch(/does not know status waiting_on_dependencies/);
  });

  it('a dialog shows an unknown event as "other", never its text', () => {
    expect(dialogChoices(['push', 'merge_group'], WEBHOOK_EVENTS)).toBe('push, other');
  });
});
