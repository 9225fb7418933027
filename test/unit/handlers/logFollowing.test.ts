// get_step_logs from any line, and following a running step: `from` a line number gives
// the lines from there (so lines 5,000-6,000 of a long log can be read), every answer says
// whether the step still runs and which line to ask for next, and a poll from next_line
// returns only what was written since. The step's state is read before its log, so an
// answer that says "not running" has every line the step wrote.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();

const entry = (line: number) => ({
  id: 1000 + line,
  step_id: 31,
  time: line,
  line,
  type: 0,
  data: Buffer.from(`line ${line}\n`).toString('base64'),
});

interface LogAnswer {
  running?: boolean;
  log_may_grow?: boolean;
  next_line?: number;
  first_line?: number;
  last_line?: number;
  total_lines?: number;
  more?: boolean;
  lines: string[];
}

/** Woodpecker with step 31 in `state`, its log `lines` long; records the order of reads. */
function serve(
  state: string,
  lines: number,
  order: string[] = [],
  timing: { finished?: number; date?: string } = {},
): void {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  pool.intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' }).reply(() => {
    order.push('pipeline');
    return {
      statusCode: 200,
      data: JSON.stringify({
        id: 30,
        number: 3,
        status: state,
        workflows: [
          {
            id: 20,
            name: 'ci',
            state,
            children: [{ id: 31, pid: 2, name: 'test', state, finished: timing.finished ?? 0 }],
          },
        ],
      }),
      responseOptions: {
        headers: {
          'content-type': 'application/json',
          ...(timing.date ? { date: timing.date } : {}),
        },
      },
    };
  });
  pool.intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' }).reply(() => {
    order.push('log');
    return {
      statusCode: 200,
      data: JSON.stringify(Array.from({ length: lines }, (_, i) => entry(i))),
      responseOptions: JSON_HEADERS,
    };
  });
}

async function stepLogs(
  args: Record<string, unknown>,
  maxResultBytes?: number,
): Promise<LogAnswer> {
  const options = maxResultBytes === undefined ? {} : { maxResultBytes };
  const result = (await mockExecutor(woodpecker.client(), options).run(
    toolsByName.get('get_step_logs')!,
    { repo_id: 7, number: 3, step_id: 31, ...args },
    TOKEN_PATH_CALL,
  )) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as LogAnswer;
}

describe('get_step_logs from a line', () => {
  it('reads lines 5,000 to 5,999 of a long log', async () => {
    serve('failure', 20_000);
    const answer = await stepLogs({ from: '5000', limit: 1000 });
    expect(answer).toMatchObject({
      first_line: 5000,
      last_line: 5999,
      next_line: 6000,
      more: true,
    });
    expect(answer.lines[0]).toBe('line 5000');
    expect(answer.lines).toHaveLength(1000);
    expect(answer.running).toBeUndefined();
  });

  it('when the result limit keeps only the start, next_line is the first line it left out', async () => {
    serve('failure', 3_000);
    const answer = await stepLogs({ from: '100', limit: 2000 }, 4_000);
    expect(answer.lines.length).toBeGreaterThan(10);
    expect(answer.lines.length).toBeLessThan(2000);
    expect(answer.first_line).toBe(100);
    expect(answer.next_line).toBe(answer.last_line! + 1);
    expect(answer.more).toBe(true);
  });

  it('takes the line as a number too, as a model copies it from next_line', async () => {
    serve('success', 10);
    const answer = await stepLogs({ from: 8 });
    expect(answer.lines).toEqual(['line 8', 'line 9']);
    expect(answer).toMatchObject({ next_line: 10, total_lines: 10 });
    expect(answer.more).toBeUndefined();
  });

  it('answers a line past the end with no lines and the same next_line', async () => {
    serve('success', 10);
    const answer = await stepLogs({ from: '25' });
    expect(answer.lines ?? []).toEqual([]);
    expect(answer).toMatchObject({ next_line: 25, total_lines: 10 });
    expect(answer.running).toBeUndefined();
  });
});

describe('following a running step', () => {
  it('says the step runs, and a poll from next_line returns only the new lines', async () => {
    serve('running', 3);
    const first = await stepLogs({ from: 'tail' });
    expect(first).toMatchObject({
      running: true,
      next_line: 3,
      lines: ['line 0', 'line 1', 'line 2'],
    });
    serve('running', 5);
    const second = await stepLogs({ from: first.next_line });
    expect(second).toMatchObject({
      running: true,
      first_line: 3,
      next_line: 5,
      lines: ['line 3', 'line 4'],
    });
    serve('success', 6);
    const last = await stepLogs({ from: second.next_line });
    expect(last).toMatchObject({ next_line: 6, lines: ['line 5'] });
    expect(last.running).toBeUndefined();
  });

  it("says the log of a step that ended seconds ago (by Woodpecker's clock) may still grow", async () => {
    const serverNow = Date.UTC(2026, 7, 24, 12, 0, 0);
    const date = new Date(serverNow).toUTCString();
    serve('success', 2, [], { finished: serverNow / 1000 - 2, date });
    const ended = await stepLogs({ from: '0' });
    expect(ended.running).toBeUndefined();
    expect(ended.log_may_grow).toBe(true);
    serve('success', 2, [], { finished: serverNow / 1000 - 30, date });
    const settled = await stepLogs({ from: '0' });
    expect(settled.running).toBeUndefined();
    expect(settled.log_may_grow).toBeUndefined();
  });

  it("reads the step's state before its log, so 'not running' means the log is whole", async () => {
    const order: string[] = [];
    serve('success', 2, order);
    await stepLogs({ from: '0' });
    expect(order).toEqual(['pipeline', 'log']);
  });
});
