// Every answer carries the same facts in structuredContent and in its text (see
// bothHalves.ts beside this file): the answers of handler tools that add links and
// notes, as the output step and the MCP layer make them, and the rule itself. Every tool's
// answer is held to it in everyToolHalves.test.ts beside this file.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';
import { bothHalves } from '../../../runtime/output/bothHalves.js';
import { halvesDisagree } from './bothHalves.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();

const logEntry = (line: number) => ({
  id: 1000 + line,
  step_id: 31,
  time: line,
  line,
  type: 0,
  data: Buffer.from(`line ${line}\n`).toString('base64'),
});

/** A failed pipeline (step 31) whose log has `lines` lines; other reads find nothing. */
function serveFailedPipeline(lines: number): void {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  pool
    .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
    .reply(
      200,
      {
        id: 30,
        number: 3,
        status: 'failure',
        workflows: [
          {
            id: 20,
            name: 'build',
            state: 'failure',
            children: [{ id: 31, pid: 2, name: 'test', state: 'failure', exit_code: 2 }],
          },
        ],
      },
      JSON_HEADERS,
    )
    .persist();
  pool
    .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
    .reply(
      200,
      Array.from({ length: lines }, (_, line) => logEntry(line)),
      JSON_HEADERS,
    )
    .persist();
  pool
    .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines?'), method: 'GET' })
    .reply(200, [], JSON_HEADERS)
    .persist();
  pool
    .intercept({ path: (path) => path.startsWith('/api/'), method: 'GET' })
    .reply(404, { message: 'not here' }, JSON_HEADERS)
    .persist();
}

async function answer(
  tool: string,
  args: Record<string, unknown>,
  maxResultBytes?: number,
): Promise<CallToolResult> {
  const executor = mockExecutor(woodpecker.client(), maxResultBytes ? { maxResultBytes } : {});
  const result = (await executor.run(
    toolsByName.get(tool)!,
    args,
    TOKEN_PATH_CALL,
  )) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return bothHalves(result);
}

describe('the rule itself', () => {
  it('holds a result without structuredContent to its text: present, and naming every link', () => {
    const uri = 'woodpecker://repos/7/pipelines/3/steps/31/log';
    expect(halvesDisagree({ isError: true, content: [] })).toEqual([
      'no structuredContent and no text',
    ]);
    expect(
      halvesDisagree({
        content: [
          { type: 'text', text: 'The log is longer.' },
          { type: 'resource_link', uri, name: 'log' },
        ],
      }),
    ).toEqual([`${uri} is not in the text`]);
    expect(halvesDisagree({ isError: true, content: [{ type: 'text', text: 'failed' }] })).toEqual(
      [],
    );
  });
});

describe('both halves of a result say the same', () => {
  it('get_step_logs cut short: the whole log’s address is in both, with the untrusted marking', async () => {
    serveFailedPipeline(400);
    const result = await answer('get_step_logs', { repo_id: 7, number: 3, step_id: 31, limit: 20 });
    expect(result.content.some((block) => block.type === 'resource_link')).toBe(true);
    expect(result.structuredContent).toMatchObject({ untrusted: true });
    expect(halvesDisagree(result)).toEqual([]);
  });

  it('get_pipeline_failure with a cut tail: its link is in both', async () => {
    serveFailedPipeline(50);
    const result = await answer('get_pipeline_failure', { repo_id: 7, number: 3, tail_lines: 5 });
    expect(result.content.some((block) => block.type === 'resource_link')).toBe(true);
    expect(halvesDisagree(result)).toEqual([]);
  });

  it('an answer the result limit shortened says so in both', async () => {
    serveFailedPipeline(2000);
    const result = await answer(
      'get_step_logs',
      { repo_id: 7, number: 3, step_id: 31, limit: 2000 },
      8_000,
    );
    expect(result.structuredContent).toHaveProperty('shortened');
    expect(halvesDisagree(result)).toEqual([]);
  });
});
