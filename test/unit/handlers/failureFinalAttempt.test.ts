// get_pipeline_failure judged by the final attempt: a failed step that passed when the
// same commit ran again is named in the summary and on the step, so an agent is not sent
// after a failure that already went green.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();

const pipeline = (number: number, status: string, parent = 0) => ({
  id: 100 + number,
  number,
  parent,
  status,
  commit: 'c0ffee',
  branch: 'main',
  event: 'push',
  workflows: [
    {
      id: 200 + number,
      name: 'ci',
      state: status,
      agent_id: 1,
      children: [
        {
          id: 300 + number,
          pid: 2,
          name: 'test',
          state: status,
          exit_code: status === 'success' ? 0 : 1,
        },
      ],
    },
  ],
});

describe('get_pipeline_failure and a later attempt of the same commit', () => {
  it('names the step that passed on the final attempt, in the summary and on the step', async () => {
    const pool = woodpecker.agent().get(MOCK_ORIGIN);
    const first = pipeline(3, 'failure');
    const restart = pipeline(4, 'success', 3);
    for (const answer of [first, restart])
      pool
        .intercept({ path: `/api/repos/7/pipelines/${answer.number}`, method: 'GET' })
        .reply(200, answer, JSON_HEADERS)
        .persist();
    pool
      .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines?'), method: 'GET' })
      .reply(200, [restart, first], JSON_HEADERS)
      .persist();
    pool
      .intercept({ path: '/api/repos/7/logs/3/303', method: 'GET' })
      .reply(
        200,
        [{ id: 1, step_id: 303, line: 0, type: 0, data: Buffer.from('FAIL').toString('base64') }],
        JSON_HEADERS,
      );
    // This token sees no agents: the per-agent part is left out, not fatal.
    pool
      .intercept({ path: (path) => path.startsWith('/api/agents'), method: 'GET' })
      .reply(403, { message: 'forbidden' }, JSON_HEADERS)
      .persist();
    pool
      .intercept({ path: (path) => path.startsWith('/api/'), method: 'GET' })
      .reply(404, { message: 'not here' }, JSON_HEADERS)
      .persist();
    const result = (await mockExecutor(woodpecker.client()).run(
      toolsByName.get('get_pipeline_failure')!,
      { repo_id: 7, number: 3 },
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const answer = result.structuredContent as {
      summary: string;
      failed_steps: { name: string; passed_later?: number[] }[];
    };
    expect(answer.summary, JSON.stringify(answer)).toMatch(
      /final attempt, pipeline 4, ended success, and step test passed on a later attempt/,
    );
    expect(answer.failed_steps[0]).toMatchObject({ name: 'test', passed_later: [4] });
  });
});
