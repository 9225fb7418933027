// Every tool that is one plain Woodpecker call (no hand-written handler), run through the
// executor against undici's MockAgent: the request it sends for representative arguments
// (method, path, query, body) and the answer it gives for Woodpecker's body. Guarded
// tools take the two-call token path: the first call asks and sends no write.
//
// Answer bodies are real ones (test/answers/captured.json) where one was captured, and
// every body here, served or sent, is held to woodpecker-openapi.json (./woodpeckerSpec.ts),
// so a fixture cannot drift from what Woodpecker sends and accepts. The end-to-end suites
// show the same tools against a real Woodpecker of every supported release.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { loadCaptured } from '../../../bench/answerCost.js';
import type { Executor } from '../../../runtime/call/executor.js';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from './mockExecutor.js';
import { checkAnswer, checkRequestBody } from '../woodpeckerSpec.js';
import { PLAIN_CALLS, type PlainCall } from './plainCallTable.js';
import { bothHalves } from '../../../runtime/output/bothHalves.js';
import { halvesDisagree } from '../output/bothHalves.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const plainTools = tools.filter((tool) => tool.handler === undefined);
const captured = new Map(
  loadCaptured().answers.flatMap((answer) =>
    answer.woodpecker === undefined ? [] : [[answer.key, answer.woodpecker] as const],
  ),
);

const call = TOKEN_PATH_CALL;

const woodpecker = useMockWoodpecker();

function executor(): Executor {
  return mockExecutor(woodpecker.client());
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
}

/** Every request that reached the MockAgent, in order. */
function sent(): Sent[] {
  return (woodpecker.agent().getCallHistory()?.calls() ?? []).map((log) => {
    const url = new URL(log.fullUrl);
    return {
      method: log.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof log.body === 'string' && log.body !== '' ? JSON.parse(log.body) : undefined,
    };
  });
}

function answerBody(entry: PlainCall): unknown {
  const answer = entry.answer;
  if (answer === undefined) return undefined;
  if ('captured' in answer) {
    const body = captured.get(answer.captured);
    if (body === undefined) throw new Error(`captured.json holds no answer ${answer.captured}`);
    return body;
  }
  return answer.body;
}

/** Serves the gate's reads (each as often as asked) and then the call itself, once. */
function serve(entry: PlainCall, body: unknown): void {
  const pool = woodpecker.agent().get(MOCK_ORIGIN);
  for (const [path, read] of Object.entries(entry.asks?.reads ?? {})) {
    const [status, readBody] = read === 404 ? [404, { message: 'not found' }] : [200, read];
    if (status === 200) checkAnswer('GET', path, 200, readBody);
    pool
      .intercept({ path: (p) => p.split('?')[0] === path, method: 'GET' })
      .reply(status, readBody as object, JSON_HEADERS)
      .persist();
  }
  const status = entry.status ?? 200;
  const interceptor = pool.intercept({ path: () => true, method: entry.sends.method });
  if (body === undefined) interceptor.reply(status, '');
  else interceptor.reply(status, body as object, JSON_HEADERS);
}

describe('the table of plain calls', () => {
  it('has one entry for every tool without a handler, and none for another', () => {
    expect(PLAIN_CALLS.map((entry) => entry.tool).sort()).toEqual(
      plainTools.map((tool) => tool.name).sort(),
    );
  });

  it('asks on the token path for every guarded tool with an entry', () => {
    for (const entry of PLAIN_CALLS)
      expect(entry.asks !== undefined, entry.tool).toBe(
        toolsByName.get(entry.tool)?.guard !== undefined,
      );
  });
});

describe.each(PLAIN_CALLS.map((entry) => [entry.tool, entry] as const))('%s', (_name, entry) => {
  const tool = toolsByName.get(entry.tool)!;

  it(`sends ${entry.sends.method} ${entry.sends.path} and answers with Woodpecker's body`, async () => {
    woodpecker.agent().enableCallHistory();
    const body = answerBody(entry);
    checkAnswer(entry.sends.method, entry.sends.path, entry.status ?? 200, body);
    if (entry.sends.body !== undefined)
      checkRequestBody(entry.sends.method, entry.sends.path, entry.sends.body);
    serve(entry, body);
    // One executor for both calls: its gate issued the confirm_token.
    const executing = executor();
    // As the MCP layer hands it to the client (runtime/mcp/server.ts), and then with the
    // same facts in structuredContent and in the text: each client reads one half only.
    const run = async (args: Record<string, unknown>) => {
      const answered = bothHalves((await executing.run(tool, args, call)) as CallToolResult);
      expect(halvesDisagree(answered)).toEqual([]);
      return answered;
    };

    let args = entry.args;
    if (entry.asks) {
      // First call: the gate asks (a confirm_token) and nothing but reads reached Woodpecker.
      const first = await run(args);
      const token = (first.structuredContent as { confirm_token?: unknown } | undefined)
        ?.confirm_token;
      expect(typeof token, JSON.stringify(first)).toBe('string');
      expect(sent().filter((request) => request.method !== 'GET')).toEqual([]);
      args = { ...args, confirm_token: token };
    }

    const result = await run(args);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();

    // A read tool sends exactly its one GET; a guarded write, its gate's reads and one write.
    const calls = sent().filter((request) => !entry.asks || request.method !== 'GET');
    expect(calls, JSON.stringify(sent())).toEqual([
      {
        method: entry.sends.method,
        path: entry.sends.path,
        query: entry.sends.query ?? {},
        // Every write carries JSON, `{}` when the route takes no body (woodpeckerClient.ts).
        body: entry.sends.body ?? (entry.sends.method === 'GET' ? undefined : {}),
      },
    ]);
    expect(result.structuredContent, JSON.stringify(result.structuredContent)).toMatchObject(
      entry.gives,
    );
    // Every list, with a view or without, says its paging only when there may be more.
    if (tool.output.kind === 'list') {
      const data = result.structuredContent as Record<string, unknown>;
      if (data.may_have_more !== true)
        expect(
          Object.keys(data).filter((key) => key === 'per_page' || key === 'may_have_more'),
        ).toEqual([]);
    }

    // The view decides what a model reads: no field outside it (and the marking).
    const view = tool.output.view;
    if (view !== undefined && entry.args.detail === undefined) {
      const allowed = new Set([...view.map((field) => field.name), 'untrusted', 'source']);
      const data = result.structuredContent as Record<string, unknown>;
      const objects =
        tool.output.kind === 'list' ? (data.items as Record<string, unknown>[]) : [data];
      for (const object of objects)
        expect(Object.keys(object).filter((key) => !allowed.has(key))).toEqual([]);
    }

    // A write-only argument (a secret's value, a registry password) never comes back.
    const text = JSON.stringify(result);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties))
      if ((schema as { writeOnly?: boolean }).writeOnly && typeof args[name] === 'string')
        expect(text).not.toContain(args[name]);
  });
});
