// get_pipeline_failure on a step that finished a moment ago: the agent sends a step's last
// log lines up to a second after reporting it done, so an empty log then is read again
// (bounded) and, if it stays empty, the answer says the log may still be on its way
// instead of passing off `total_lines: 0` as the step's output. A blocked pipeline points
// to the approval, not to wait_for_pipeline (which returns at once for it). Woodpecker is
// played by undici's MockAgent, through the real executor.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../../../runtime/core/tool.js';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();
const named = (name: string): ToolDefinition => toolsByName.get(name)!;
const entry = (line: number, text: string) => ({
  id: 1000 + line,
  step_id: 31,
  line,
  type: 0,
  data: Buffer.from(`${text}\n`).toString('base64'),
});

/** Pipeline 3 of repository 7 with one failed step (id 31) that finished `finishedAgo` s ago. */
function servePipeline(
  status: string,
  finishedAgo: number,
): ReturnType<ReturnType<typeof woodpecker.agent>['get']> {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  const finished = Math.floor(Date.now() / 1000) - finishedAgo;
  pool
    .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
    .reply(
      200,
      {
        id: 30,
        number: 3,
        status,
        workflows: [
          {
            id: 20,
            name: 'build',
            state: status,
            children: [
              {
                id: 31,
                pid: 2,
                name: 'test',
                state: status,
                exit_code: 2,
                started: finished - 2,
                finished,
              },
            ],
          },
        ],
      },
      JSON_HEADERS,
    )
    .persist();
  pool
    .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines?'), method: 'GET' })
    .reply(200, [], JSON_HEADERS)
    .persist();
  return pool;
}

async function failure(): Promise<
  Record<string, unknown> & { failed_steps: Record<string, unknown>[] }
> {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  pool
    .intercept({ path: (path) => path.startsWith('/api/'), method: 'GET' })
    .reply(404, { message: 'not here' }, JSON_HEADERS)
    .persist();
  const result = (await mockExecutor(woodpecker.client()).run(
    named('get_pipeline_failure'),
    { repo_id: 7, number: 3 },
    TOKEN_PATH_CALL,
  )) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as never;
}

describe('get_pipeline_failure and a log still on its way', () => {
  it('reads the log of a step that just finished again while it is empty, and returns the lines once they are stored', async () => {
    const pool = servePipeline('failure', 0);
    const logs = pool.intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' });
    logs.reply(200, [], JSON_HEADERS).times(2);
    pool
      .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
      .reply(200, [entry(0, 'connecting'), entry(1, 'ECONNREFUSED')], JSON_HEADERS)
      .persist();
    const answer = await failure();
    expect(answer.failed_steps[0]).toMatchObject({
      total_lines: 2,
      log_tail: ['connecting', 'ECONNREFUSED'],
    });
    expect(answer.failed_steps[0]!.log_note).toBeUndefined();
  });

  it('says the log may still be stored when it stays empty, rather than passing it off as empty output', async () => {
    const pool = servePipeline('failure', 1);
    pool
      .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
      .reply(200, [], JSON_HEADERS)
      .persist();
    const step = (await failure()).failed_steps[0]!;
    expect(step.total_lines).toBe(0);
    expect(step.log_note).toMatch(
      /^The log reads empty: the step finished \d+ s ago and Woodpecker may still be storing its last lines .* Call again shortly/,
    );
  });

  it('takes an empty log of a step that finished long ago as it is, without waiting or a note', async () => {
    const pool = servePipeline('failure', 3600);
    pool
      .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
      .reply(200, [], JSON_HEADERS)
      .times(1);
    const step = (await failure()).failed_steps[0]!;
    expect(step.total_lines).toBe(0);
    expect(step.log_note).toBeUndefined();
  });

  it('on a blocked pipeline, points to the approval, not to wait_for_pipeline', async () => {
    servePipeline('blocked', 0);
    const answer = await failure();
    expect(answer.failed).toBe(false);
    expect(answer.summary).toContain('blocked, waiting for approval. approve_pipeline lets it run');
    expect(answer.summary).not.toContain('wait_for_pipeline');
  });
});
