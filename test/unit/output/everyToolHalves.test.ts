// Claude Code reads only structuredContent and claude.ai only the text (docs/clients.md),
// so every tool's answer must carry the same facts in both halves: the untrusted marking,
// truncation notes, next steps, links. This file makes sure no tool escapes that rule:
//
// - every plain tool is called in test/unit/call/plainCalls.test.ts, every hand-written
//   handler here, once each (guarded ones on the two-call token path, both calls), with
//   the mock executor, which holds each result it returns to both halves;
// - find_tools and enable_toolset, which the MCP layer answers itself, through the server;
// - the answers after a dialog (accepted, declined) and errors, which have one half only;
// - and a last test names every tool of the catalogue that no result was checked for.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import type { WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { WoodpeckerHttpError } from '../../../runtime/woodpecker/woodpeckerClient.js';
import type { WoodpeckerClient } from '../../../runtime/woodpecker/woodpeckerClient.js';
import type { CallContext } from '../../../runtime/call/executor.js';
import { bothHalves } from '../../../runtime/output/bothHalves.js';
import { checkedTools, mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';
import { PLAIN_CALLS } from '../call/plainCallTable.js';
import { loadConfig } from '../../../runtime/process/config.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { startHttpServer } from '../../../runtime/http/httpServer.js';
import { callTool2025, initialize2025 } from '../../e2e/rawMcpHttp.js';
import { halvesDisagree } from './bothHalves.js';

const pipeline = (number: number, status: string) => ({
  id: 100 + number,
  number,
  status,
  event: 'push',
  branch: 'main',
  commit: `c${number}`,
  message: `commit ${number}`,
  author: 'dev',
  started: 1_700_000_000 + number * 60,
  finished: 1_700_000_030 + number * 60,
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
const history = [pipeline(6, 'failure'), pipeline(5, 'success'), pipeline(4, 'failure')];
const CONFIG = 'steps:\n  test:\n    image: alpine\n    commands: [make test]\n';
const logLines = (step: number) =>
  Array.from({ length: 300 }, (_, line) => ({
    id: step * 1000 + line,
    step_id: step,
    time: line,
    line,
    type: 0,
    data: Buffer.from(line % 50 === 7 ? `error: case ${line} failed\n` : `line ${line}\n`).toString(
      'base64',
    ),
  }));

/** One Woodpecker of one repository (7, acme/web) with that history; other reads find nothing. */
function fakeWoodpecker(): WoodpeckerClient {
  const answer = (request: WoodpeckerRequest): unknown => {
    const { method, path } = request;
    if (method !== 'GET')
      return path.endsWith('/move') ? '' : { id: 9, number: 7, status: 'pending' };
    if (path === '/healthz') return '';
    if (path === '/version')
      return { source: 'https://github.com/woodpecker-ci/woodpecker', version: '3.17.0' };
    if (path === '/api/user') return { id: 1, login: 'wp-admin', admin: true };
    if (path === '/api/forges') return [{ id: 1, type: 'gitea', url: 'https://forge.example.com' }];
    if (path === '/api/repos/7' || path === '/api/repos/lookup/acme/web')
      return {
        id: 7,
        full_name: 'acme/web',
        owner: 'acme',
        name: 'web',
        org_id: 1,
        forge_id: 1,
        require_approval: 'none',
      };
    if (path === '/api/repos/7/pipelines') {
      const page = Number(request.query?.page ?? 1);
      return page === 1 ? history : [];
    }
    const one = /^\/api\/repos\/7\/pipelines\/(\d+)$/.exec(path);
    if (one) return history.find((entry) => entry.number === Number(one[1]));
    if (/^\/api\/repos\/7\/pipelines\/\d+\/config$/.test(path))
      return [{ name: '.woodpecker.yaml', data: Buffer.from(CONFIG).toString('base64') }];
    const logs = /^\/api\/repos\/7\/logs\/\d+\/(\d+)$/.exec(path);
    if (logs) return logLines(Number(logs[1]));
    if (/^\/api\/agents/.test(path)) return [];
    return undefined;
  };
  const respond = (request: WoodpeckerRequest) => {
    const body = answer(request);
    if (body === undefined)
      throw new WoodpeckerHttpError(404, request.method, request.path, 'not found');
    return body;
  };
  return {
    baseUrl: 'https://ci.example.com',
    async send(request: WoodpeckerRequest) {
      return { status: 200, headers: {}, body: respond(request) };
    },
    async stream(
      request: WoodpeckerRequest,
      _options: unknown,
      onText: (text: string) => boolean | void,
    ) {
      onText(JSON.stringify(respond(request)));
    },
  } as unknown as WoodpeckerClient;
}

/** One call of each hand-written handler, with arguments that get an answer. */
const HANDLER_CALLS: Record<string, Record<string, unknown>> = {
  compare_pipelines: { repo_id: 7, number: 6 },
  create_forge: {
    type: 'gitea',
    url: 'https://gitea.example.com',
    client: 'id',
    oauth_client_secret: 's',
  },
  get_pipeline_config: { repo_id: 7, number: 6 },
  get_pipeline_failure: { repo_id: 7, number: 6 },
  get_server_info: {},
  get_step_logs: { repo_id: 7, number: 6, step_id: 306, limit: 20 },
  lint_pipeline_config: { config: CONFIG },
  move_repository: { repo_id: 7, to: 'acme/site' },
  resolve_link: { link: 'https://ci.example.com/repos/7/pipeline/6' },
  restart_pipeline: { repo_id: 7, number: 6 },
  search_logs: { repo_id: 7, number: 6, pattern: 'error' },
  wait_for_pipeline: { repo_id: 7, number: 6 },
};

const handlerTools = tools.filter((tool) => tool.handler !== undefined).map((tool) => tool.name);

/** Calls `tool` as a client without dialogs would: twice with the confirm_token when it asks. */
async function callThrough(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const executor = mockExecutor(fakeWoodpecker());
  const definition = toolsByName.get(tool)!;
  const first = (await executor.run(definition, args, TOKEN_PATH_CALL)) as CallToolResult;
  const token = (first.structuredContent as { confirm_token?: unknown } | undefined)?.confirm_token;
  if (typeof token !== 'string') return first;
  return (await executor.run(
    definition,
    { ...args, confirm_token: token },
    TOKEN_PATH_CALL,
  )) as CallToolResult;
}

describe('every hand-written handler answers with both halves the same', () => {
  it('has one call here for every tool with a handler, and none for another', () => {
    expect(Object.keys(HANDLER_CALLS).sort()).toEqual([...handlerTools].sort());
  });

  it.each(Object.entries(HANDLER_CALLS))('%s', async (tool, args) => {
    const result = await callThrough(tool, args);
    expect(result.isError, JSON.stringify(result.content).slice(0, 600)).toBeFalsy();
    expect(halvesDisagree(bothHalves(result))).toEqual([]);
  });
});

/** A 2026-07-28 client that shows dialogs: the question comes back as input_required. */
const dialogCall = (
  inputResponses?: Record<string, unknown>,
  requestState?: string,
): CallContext => ({
  ...TOKEN_PATH_CALL,
  channel: { revision: '2026-07-28', clientCanElicit: true, inputResponses, requestState },
});

describe('the answers after a dialog, and errors, are held to the same rule', () => {
  it.each([
    ['accepted', { action: 'accept', content: { approve: true } }, false],
    ['declined', { action: 'decline' }, true],
  ] as const)('move_repository, its dialog %s', async (_answer, response, isError) => {
    const executor = mockExecutor(fakeWoodpecker());
    const tool = toolsByName.get('move_repository')!;
    const args = HANDLER_CALLS.move_repository!;
    const asked = (await executor.run(tool, args, dialogCall())) as { requestState?: string };
    expect(asked).toHaveProperty('inputRequests');
    const answered = (await executor.run(
      tool,
      args,
      dialogCall({ confirm: response }, asked.requestState),
    )) as CallToolResult;
    expect(Boolean(answered.isError), JSON.stringify(answered.content)).toBe(isError);
    expect(halvesDisagree(bothHalves(answered))).toEqual([]);
  });

  it.each([
    ['a pipeline Woodpecker does not have', 'get_pipeline_failure', { repo_id: 7, number: 99 }],
    ['a repository Woodpecker does not have', 'get_pipeline', { repo_id: 8, number: 1 }],
    ['a pipeline to wait for that is not there', 'wait_for_pipeline', { repo_id: 7, number: 98 }],
  ])('an error: %s', async (_what, tool, args) => {
    const result = (await mockExecutor(fakeWoodpecker()).run(
      toolsByName.get(tool)!,
      args,
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    expect(result.isError).toBe(true);
    // One half only: the text, which every client reads when structuredContent is absent.
    expect(result.structuredContent).toBeUndefined();
    expect(halvesDisagree(bothHalves(result))).toEqual([]);
  });
});

describe('find_tools and enable_toolset, answered by the MCP layer itself', () => {
  it.each([
    ['find_tools', { query: 'secret' }],
    ['enable_toolset', { toolset: 'secrets' }],
  ])('%s', async (tool, args) => {
    const runtime = buildRuntime(loadConfig({ WOODPECKER_DYNAMIC_TOOLS: 'true' }));
    const running = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
    try {
      const { sessionId } = await initialize2025(running.url);
      const answer = await callTool2025(running.url, sessionId!, tool, {}, args);
      const result = answer.text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice('data:'.length)) as { result?: CallToolResult })
        .find((event) => event.result)?.result;
      expect(result?.isError, answer.text).toBeFalsy();
      expect(halvesDisagree(result!)).toEqual([]);
      discoveryChecked.add(tool);
    } finally {
      await running.close();
      await runtime.close();
    }
  });
});

const discoveryChecked = new Set<string>();

describe('no tool escapes', () => {
  it('every tool of the catalogue had an answer held to both halves', () => {
    // Plain tools: each entry of the table is called in plainCalls.test.ts, every result
    // through the same checking executor; the rest were checked in this file.
    const checked = new Set([
      ...PLAIN_CALLS.map((entry) => entry.tool),
      ...checkedTools,
      ...discoveryChecked,
    ]);
    const everyTool = [...tools.map((tool) => tool.name), 'find_tools', 'enable_toolset'];
    expect(everyTool.filter((name) => !checked.has(name))).toEqual([]);
  });
});
