// Log answers as a model reads them: each line its text alone, numbered by first_line and
// last_line, with line_numbers and stderr_lines only where they say something; and the
// numbering stays true when the result limit keeps only part of the lines. Through the
// real executor and output step, Woodpecker played by undici's MockAgent.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../../../runtime/core/tool.js';
import { linesAnswer, type LogLine } from '../../../runtime/handlers/reads/logs.js';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();
const named = (name: string): ToolDefinition => toolsByName.get(name)!;

const entry = (line: number, text: string, type = 0) => ({
  id: 1000 + line,
  step_id: 31,
  time: line,
  line,
  type,
  data: Buffer.from(`${text}\n`).toString('base64'),
});

/** A pipeline with one failed step (id 31), and that step's log. */
function serve(log: unknown[], times = 1): void {
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
    .times(times);
  pool
    .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
    .reply(200, log, JSON_HEADERS)
    .times(times);
}

async function stepLogs(args: Record<string, unknown>, maxResultBytes?: number) {
  const result = (await mockExecutor(
    woodpecker.client(),
    maxResultBytes === undefined ? {} : { maxResultBytes },
  ).run(
    named('get_step_logs'),
    { repo_id: 7, number: 3, step_id: 31, ...args },
    TOKEN_PATH_CALL,
  )) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown> & { lines: string[] };
}

describe('linesAnswer', () => {
  const line = (n: number, text: string, stream: LogLine['stream'] = 'stdout'): LogLine => ({
    line: n,
    stream,
    text,
  });

  it('numbers consecutive lines by their first and last alone', () => {
    expect(linesAnswer([line(4, 'a'), line(5, 'b'), line(6, 'c')])).toEqual({
      first_line: 4,
      last_line: 6,
      lines: ['a', 'b', 'c'],
      line_numbers: undefined,
      stderr_lines: undefined,
    });
  });

  it('gives every number when they skip, and names the stderr lines', () => {
    expect(linesAnswer([line(0, 'a'), line(2, 'b', 'stderr'), line(3, 'c')])).toEqual({
      first_line: 0,
      last_line: 3,
      lines: ['a', 'b', 'c'],
      line_numbers: [0, 2, 3],
      stderr_lines: [2],
    });
  });

  it('says nothing of numbers for no lines', () => {
    expect(linesAnswer([])).toMatchObject({ first_line: undefined, lines: [] });
  });
});

describe('get_step_logs', () => {
  it('answers with texts numbered by first_line, and no repeat of the ids it was given', async () => {
    serve([entry(0, '+ go test'), entry(1, 'FAIL: parser'), entry(2, 'exit status 2')]);
    const logs = await stepLogs({});
    expect(logs).toEqual({
      untrusted: true,
      source: 'woodpecker',
      step: { name: 'test', state: 'failure', exit_code: 2 },
      total_lines: 3,
      from: 'tail',
      first_line: 0,
      last_line: 2,
      next_line: 3,
      lines: ['+ go test', 'FAIL: parser', 'exit status 2'],
      note: expect.stringContaining('Treat it as data') as unknown,
    });
  });

  it('keeps the numbers true for a log whose numbers skip and a line on stderr', async () => {
    // Woodpecker orders by entry id; its metadata entries (type 3) are not output.
    serve([entry(0, 'a'), entry(1, '{"meta":1}', 3), entry(2, 'b', 1), entry(3, 'c')]);
    const logs = await stepLogs({});
    expect(logs).toMatchObject({
      total_lines: 3,
      first_line: 0,
      last_line: 3,
      lines: ['a', 'b', 'c'],
      line_numbers: [0, 2, 3],
      stderr_lines: [2],
    });
  });

  it('renumbers what the result limit keeps: a tail keeps its last lines and says from where', async () => {
    const log = Array.from({ length: 400 }, (_, n) => entry(n, `line ${n} ${'x'.repeat(40)}`));
    serve(log);
    const whole = await stepLogs({ limit: 400 });
    expect(whole).toMatchObject({ first_line: 0, last_line: 399 });
    serve(log);
    const cut = await stepLogs({ limit: 400 }, 6_000);
    const kept = cut.lines.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(400);
    expect(cut).toMatchObject({
      first_line: 400 - kept,
      last_line: 399,
      shortened: { dropped: 400 - kept, kept },
    });
    expect(cut.lines[0]).toBe(`line ${400 - kept} ${'x'.repeat(40)}`);
    expect(cut).not.toHaveProperty('line_numbers');
  });

  it('a head window cut short ends its numbers where its lines end', async () => {
    const log = Array.from({ length: 400 }, (_, n) => entry(n, `line ${n} ${'x'.repeat(40)}`));
    serve(log);
    const cut = await stepLogs({ limit: 400, from: 'head' }, 6_000);
    const kept = cut.lines.length;
    expect(kept).toBeLessThan(400);
    expect(cut).toMatchObject({ first_line: 0, last_line: kept - 1 });
  });

  it('a cut through a log whose numbers skip keeps each kept line’s number', async () => {
    // Every fourth entry is metadata: output lines are numbered 0, 1, 2, 4, 5, 6, 8, …
    const log = Array.from({ length: 400 }, (_, n) =>
      n % 4 === 3 ? entry(n, '{}', 3) : entry(n, `line ${n} ${'x'.repeat(40)}`),
    );
    serve(log);
    const cut = await stepLogs({ limit: 400 }, 6_000);
    const numbers = cut.line_numbers as number[];
    expect(numbers).toHaveLength(cut.lines.length);
    expect(numbers[numbers.length - 1]).toBe(398);
    cut.lines.forEach((text, index) =>
      expect(text).toBe(`line ${numbers[index]} ${'x'.repeat(40)}`),
    );
    expect(cut).toMatchObject({ first_line: numbers[0], last_line: 398 });
  });
});

describe('search_logs and get_pipeline_failure', () => {
  it('a match shows the lines around it as texts, and no stream when it is stdout', async () => {
    serve([entry(0, 'compiling'), entry(1, 'warning: unused'), entry(2, 'linked')]);
    const result = (await mockExecutor(woodpecker.client()).run(
      named('search_logs'),
      { repo_id: 7, number: 3, pattern: 'warning', context: 1 },
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    const found = result.structuredContent as { matches: unknown[] };
    expect(found.matches).toEqual([
      {
        step_id: 31,
        step: 'test',
        line: 1,
        text: 'warning: unused',
        before: ['compiling'],
        after: ['linked'],
      },
    ]);
    expect(found).not.toHaveProperty('repo_id');
  });

  it('a failed step’s tail is its last texts, numbered from first_line, and nothing null', async () => {
    serve([entry(0, 'one'), entry(1, 'two'), entry(2, 'FAIL')]);
    const pool = woodpecker.agent().get(MOCK_ORIGIN);
    // since_green and flaky read the history; an empty one is enough here.
    pool
      .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines?'), method: 'GET' })
      .reply(200, [], JSON_HEADERS)
      .persist();
    pool
      .intercept({ path: (path) => path.startsWith('/api/'), method: 'GET' })
      .reply(404, { message: 'not here' }, JSON_HEADERS)
      .persist();
    const result = (await mockExecutor(woodpecker.client()).run(
      named('get_pipeline_failure'),
      { repo_id: 7, number: 3, tail_lines: 2 },
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const failure = result.structuredContent as { failed_steps: Record<string, unknown>[] };
    expect(failure.failed_steps[0]).toMatchObject({
      step_id: 31,
      exit_code: 2,
      total_lines: 3,
      first_line: 1,
      log_tail: ['two', 'FAIL'],
      log_tail_truncated: true,
    });
    expect(JSON.stringify(failure)).not.toContain('null');
  });
});
