// The executor with its real output step and a real WoodpeckerClient whose HTTP goes to
// undici's MockAgent (test/unit/mockWoodpecker.ts): every answer, a handler's included, is
// redacted, filtered, marked as the manifest says and bounded, without a Woodpecker server.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Executor } from '../../../runtime/call/executor.js';
import { handlers } from '../../../runtime/handlers/index.js';
import { resultBytes } from '../../../runtime/output/resultLimit.js';
import { Gate } from '../../../runtime/gate/gate.js';
import { Sealer } from '../../../runtime/gate/seal.js';
import type { ToolDefinition } from '../../../runtime/core/tool.js';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { OperatorPolicy } from '../../../runtime/policy/operatorPolicy.js';
import { parsePolicy } from '../../../runtime/policy/policyFile.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from './mockExecutor.js';

const ORIGIN = MOCK_ORIGIN;
const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const named = (name: string): ToolDefinition => toolsByName.get(name)!;

const call = TOKEN_PATH_CALL;

const woodpecker = useMockWoodpecker();
const agent = () => woodpecker.agent();

function executor(options: { maxResultBytes?: number; repositories?: string[] } = {}): Executor {
  return mockExecutor(woodpecker.client(), options);
}

/** A finished pipeline, so wait_for_pipeline answers after one read. */
function serveFinishedPipeline(extra: Record<string, unknown> = {}): void {
  agent()
    .get(ORIGIN)
    .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
    .reply(
      200,
      {
        id: 30,
        number: 3,
        status: 'success',
        workflows: [
          {
            name: 'build',
            state: 'success',
            children: [{ id: 31, name: 'test', state: 'success' }],
          },
        ],
        ...extra,
      },
      JSON_HEADERS,
    );
}

/** Guarded tools take the two-call token here (the client cannot show a dialog). */
async function runConfirmed(
  run: Executor,
  tool: ToolDefinition,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const first = (await run.run(tool, args, call)) as CallToolResult;
  const token = (first.structuredContent as { confirm_token?: string } | undefined)?.confirm_token;
  if (!token) return first;
  return (await run.run(tool, { ...args, confirm_token: token }, call)) as CallToolResult;
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;
const textJson = (result: CallToolResult) =>
  JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;

describe('a handler tool is marked untrusted exactly when its manifest entry says so', () => {
  // wait_for_pipeline is a handler tool; the fixture copies differ only in the flag.
  const waitFor = named('wait_for_pipeline');
  const marked: ToolDefinition = { ...waitFor, output: { ...waitFor.output, untrusted: true } };
  const unmarked: ToolDefinition = { ...waitFor, output: { ...waitFor.output, untrusted: false } };
  const args = { repo_id: 7, number: 3 };

  it('untrusted: true → the result carries untrusted and source', async () => {
    serveFinishedPipeline();
    const result = (await executor().run(marked, args, call)) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(structured(result)).toMatchObject({
      untrusted: true,
      source: 'woodpecker',
      status: 'success',
      finished: true,
    });
    expect(textJson(result)).toEqual(structured(result));
  });

  it('untrusted: false → no marking', async () => {
    serveFinishedPipeline();
    const result = (await executor().run(unmarked, args, call)) as CallToolResult;
    expect(structured(result)).toMatchObject({ status: 'success', finished: true });
    expect(structured(result)).not.toHaveProperty('untrusted');
    expect(structured(result)).not.toHaveProperty('source');
  });

  it('an answer cannot unmark itself: a field named untrusted or source in the data does not win', async () => {
    const getPipeline = named('get_pipeline');
    agent()
      .get(ORIGIN)
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(
        200,
        { id: 30, number: 3, untrusted: false, source: 'trusted-operator' },
        JSON_HEADERS,
      );
    const result = (await executor().run(
      getPipeline,
      { repo_id: 7, number: '3' },
      call,
    )) as CallToolResult;
    expect(structured(result)).toMatchObject({ untrusted: true, source: 'woodpecker' });
  });

  it('a handler answer is redacted by the manifest like a plain call (update_forge never returns the OAuth secret)', async () => {
    const pool = agent().get(ORIGIN);
    pool.intercept({ path: '/api/forges/1', method: 'PATCH' }).reply(
      200,
      {
        id: 1,
        type: 'gitea',
        url: 'https://git.example',
        client: 'c',
        oauth_client_secret: 'canary-oauth-secret',
      },
      JSON_HEADERS,
    );
    pool
      .intercept({ path: '/api/forges/1', method: 'GET' })
      .reply(200, { id: 1, type: 'gitea', url: 'https://git.example', client: 'c' }, JSON_HEADERS)
      .persist();
    const result = await runConfirmed(executor(), named('update_forge'), {
      forge_id: 1,
      url: 'https://git.example',
    });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    // The forge view leaves the secret's field out; redaction runs before it either way.
    expect(structured(result)).toMatchObject({ id: 1, type: 'gitea' });
    expect(structured(result).oauth_client_secret ?? '[redacted]').toBe('[redacted]');
    expect(JSON.stringify(result)).not.toContain('canary-oauth-secret');
  });
});

describe('one limit on the whole result', () => {
  const tenMegabyteList = () =>
    Array.from({ length: 20_000 }, (_, index) => ({
      id: index + 1,
      number: index + 1,
      message: `commit ${index} ${'x'.repeat(500)}`,
      status: 'success',
    }));

  it('a 10 MB list comes back as whole entries under the limit, saying how many were dropped and how to narrow', async () => {
    const list = tenMegabyteList();
    expect(JSON.stringify(list).length).toBeGreaterThan(10_000_000);
    agent()
      .get(ORIGIN)
      .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines'), method: 'GET' })
      .reply(200, JSON.stringify(list), JSON_HEADERS);
    const result = (await executor({ maxResultBytes: 100_000 }).run(
      named('list_pipelines'),
      { repo_id: 7 },
      call,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result).slice(0, 500)).toBeFalsy();
    expect(resultBytes(result)).toBeLessThanOrEqual(100_000);
    const data = structured(result) as {
      items: { id: number }[];
      shortened: { dropped: number; kept: number; note: string };
      untrusted: boolean;
    };
    expect(data.untrusted).toBe(true);
    expect(data.items.length).toBeGreaterThan(0);
    expect(data.items.map((item) => item.id)).toEqual(
      list.slice(0, data.items.length).map((item) => item.id),
    );
    expect(data.shortened.dropped).toBe(list.length - data.items.length);
    expect(data.shortened.note).toMatch(/per_page/);
    expect(data.shortened.note).toContain('WOODPECKER_MCP_MAX_RESULT_BYTES');
    // The text block is the whole JSON, never cut.
    expect(textJson(result)).toEqual(data);
  });

  it('an object too big for the limit is refused with an error naming the limit, not cut', async () => {
    agent()
      .get(ORIGIN)
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, { id: 3, number: 3, message: 'y'.repeat(50_000) }, JSON_HEADERS);
    // The view shortens a long message (view.test.ts); the whole object is what the limit refuses.
    const result = (await executor({ maxResultBytes: 10_000 }).run(
      named('get_pipeline'),
      { repo_id: 7, number: '3', detail: 'full' },
      call,
    )) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('WOODPECKER_MCP_MAX_RESULT_BYTES');
    expect(text).not.toContain('yyyy');
  });

  it('the repository filter runs before the limit, and the text block shows the filtered list', async () => {
    const repos = [
      { id: 1, full_name: 'acme/site' },
      { id: 2, full_name: 'other/secret-project' },
    ];
    agent()
      .get(ORIGIN)
      .intercept({ path: (path) => path.startsWith('/api/user/repos'), method: 'GET' })
      .reply(200, repos, JSON_HEADERS);
    const result = (await executor({ repositories: ['acme/*'] }).run(
      named('list_repositories'),
      {},
      call,
    )) as CallToolResult;
    expect((structured(result) as { items: unknown[] }).items).toEqual([repos[0]]);
    expect(JSON.stringify(result)).not.toContain('secret-project');
  });
});

describe('a write built from the object as it is now (tools.yaml `current`)', () => {
  it('update_user sends the forge_remote_id of the account the gate read, reading it once', async () => {
    const pool = agent().get(ORIGIN);
    // One GET only: MockAgent refuses a second, unplanned read.
    pool
      .intercept({ path: (path) => path.startsWith('/api/users/alice'), method: 'GET' })
      .reply(200, { id: 5, login: 'alice', forge_remote_id: '9', admin: false }, JSON_HEADERS);
    let sent: unknown;
    pool.intercept({ path: (path) => path.startsWith('/api/users/alice'), method: 'PATCH' }).reply(
      200,
      (request) => {
        sent = JSON.parse(String(request.body));
        return { id: 5, login: 'alice', email: 'a@example.com' };
      },
      JSON_HEADERS,
    );
    const result = (await executor().run(
      named('update_user'),
      { login: 'alice', forge_id: 1, email: 'a@example.com', admin: false },
      call,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(sent).toMatchObject({ email: 'a@example.com', forge_remote_id: '9' });
    agent().assertNoPendingInterceptors();
  });
});

describe('an answer that names no stored object (tools.yaml `stored_id`)', () => {
  it('update_user that stores nothing is a tool error from toolErrors', async () => {
    const pool = agent().get(ORIGIN);
    pool
      .intercept({ path: (path) => path.startsWith('/api/users/alice'), method: 'GET' })
      .reply(200, { id: 5, login: 'alice', forge_remote_id: '9' }, JSON_HEADERS);
    pool
      .intercept({ path: (path) => path.startsWith('/api/users/alice'), method: 'PATCH' })
      .reply(200, { id: 0 }, JSON_HEADERS);
    const result = (await executor().run(
      named('update_user'),
      { login: 'alice', forge_id: 1, email: 'a@example.com', admin: false },
      call,
    )) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^update_user failed: Woodpecker answered HTTP 200 but reports no stored object \(id 0\); nothing was changed\. Check it with get_user\.$/,
    );
  });
});

describe('a write built from the object as it is now: update_forge and update_repository', () => {
  it('update_forge keeps every field it is not given, and never sends a secret it was not given', async () => {
    const pool = agent().get(ORIGIN);
    pool.intercept({ path: '/api/forges/2', method: 'GET' }).reply(
      200,
      {
        id: 2,
        type: 'gitea',
        url: 'https://git.example.com',
        client: 'ci',
        oauth_host: null,
        skip_verify: false,
        additional_options: { x: '1' },
      },
      JSON_HEADERS,
    );
    let sent: unknown;
    pool.intercept({ path: '/api/forges/2', method: 'PATCH' }).reply(
      200,
      (request) => {
        sent = JSON.parse(String(request.body));
        return { id: 2 };
      },
      JSON_HEADERS,
    );
    // One executor: its sealer opens the token it handed out.
    const forgeCalls = executor();
    const result = (await forgeCalls.run(
      named('update_forge'),
      { forge_id: 2, client: 'ci-2' },
      call,
    )) as CallToolResult;
    // update_forge always asks; this client cannot show a dialog, so the first call only asks.
    const token = (result.structuredContent as { confirm_token?: string } | undefined)
      ?.confirm_token;
    expect(token, JSON.stringify(result)).toBeTypeOf('string');
    expect(sent).toBeUndefined();
    const applied = (await forgeCalls.run(
      named('update_forge'),
      { forge_id: 2, client: 'ci-2', confirm_token: token },
      call,
    )) as CallToolResult;
    expect(applied.isError, JSON.stringify(applied)).toBeFalsy();
    // The argument wins, the rest is as it was, a null stays unsent, and no secret.
    expect(sent).toEqual({
      type: 'gitea',
      url: 'https://git.example.com',
      client: 'ci-2',
      skip_verify: false,
      additional_options: { x: '1' },
    });
    agent().assertNoPendingInterceptors();
  });

  it('update_repository sends all three trusted flags when one is given, from the one read the gate made', async () => {
    const pool = agent().get(ORIGIN);
    const sent: unknown[] = [];
    pool
      .intercept({ path: '/api/repos/7', method: 'PATCH' })
      .reply(
        200,
        (request) => {
          sent.push(JSON.parse(String(request.body)));
          return { id: 7 };
        },
        JSON_HEADERS,
      )
      .times(2);
    // One GET a call, both the gate's: MockAgent refuses a second, unplanned read.
    pool
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(
        200,
        { id: 7, trusted: { network: true, volumes: false, security: true } },
        JSON_HEADERS,
      )
      .times(2);
    const plain = (await executor().run(
      named('update_repository'),
      { repo_id: 7, timeout: 30 },
      call,
    )) as CallToolResult;
    expect(plain.isError, JSON.stringify(plain)).toBeFalsy();
    // Withdrawing a flag asks nobody; the read fills in the other two.
    const withdrawn = (await executor().run(
      named('update_repository'),
      { repo_id: 7, trusted_security: false },
      call,
    )) as CallToolResult;
    expect(withdrawn.isError, JSON.stringify(withdrawn)).toBeFalsy();
    expect(sent).toEqual([
      { timeout: 30 },
      { trusted: { network: true, volumes: false, security: false } },
    ]);
    agent().assertNoPendingInterceptors();
  });

  it('a Woodpecker error inside a handler reads like one from a plain call', async () => {
    const pool = agent().get(ORIGIN);
    pool
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(404, 'pipeline not found')
      .times(2);
    const plain = (await executor().run(
      named('get_pipeline'),
      { repo_id: 7, number: '3' },
      call,
    )) as CallToolResult;
    const handled = (await executor().run(
      named('get_pipeline_failure'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(handled.isError).toBe(true);
    const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
    // Same mapping: the same sentences, only the tool's name (and its own hints) differ.
    expect(text(plain)).toMatch(
      /^get_pipeline failed: Woodpecker answered HTTP 404 to GET \/api\/repos\/7\/pipelines\/3\. Woodpecker said: "pipeline not found"\./,
    );
    expect(text(handled)).toMatch(
      /^get_pipeline_failure failed: Woodpecker answered HTTP 404 to GET \/api\/repos\/7\/pipelines\/3\. Woodpecker said: "pipeline not found"\./,
    );
  });
});

describe('search_logs says when it stopped at its scan limit', () => {
  // One step that printed 200,001 lines: the search reads 200,000 and must say so, even
  // though that step was the last one (the limit used to be noticed only before a next step).
  it('limited: true when the last step was cut at the scan limit', async () => {
    serveFinishedPipeline();
    const entries = Array.from({ length: 200_001 }, (_, line) => ({
      line,
      type: 0,
      data: Buffer.from(`line ${line}`).toString('base64'),
    }));
    agent()
      .get(ORIGIN)
      .intercept({ path: '/api/repos/7/logs/3/31', method: 'GET' })
      .reply(200, entries, JSON_HEADERS);
    const result = (await executor().run(
      named('search_logs'),
      { repo_id: 7, number: 3, pattern: 'no such text' },
      call,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(structured(result)).toMatchObject({
      lines_scanned: 200_000,
      match_count: 0,
      limited: true,
    });
  });
});

describe('reads made before the gate', () => {
  it('create_secret at repository scope with WOODPECKER_REPOS reads the repository once: the allowlist and the shadows check share it', async () => {
    const sent: string[] = [];
    const interceptor = agent().get(ORIGIN);
    const answer = (path: string, body: unknown) => {
      sent.push(path);
      return { statusCode: 200, data: JSON.stringify(body), responseOptions: JSON_HEADERS };
    };
    // Each intercept answers once: a second GET of the repository finds no answer.
    interceptor
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(({ path }) => answer(path, { id: 7, full_name: 'acme/site', org_id: 3 }));
    for (const level of ['/api/repos/7/secrets', '/api/orgs/3/secrets', '/api/secrets'])
      interceptor
        .intercept({ path: (path) => path.split('?')[0] === level, method: 'GET' })
        .reply(({ path }) => answer(path, []));
    interceptor
      .intercept({ path: '/api/repos/7/secrets', method: 'POST' })
      .reply(({ path }) => answer(`POST ${path}`, { id: 9, name: 'deploy_token' }));

    const result = (await executor({ repositories: ['acme/site'] }).run(
      named('create_secret'),
      { scope: 'repository', repo_id: 7, name: 'deploy_token', value: 'v', events: ['push'] },
      call,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(sent.filter((path) => path === '/api/repos/7')).toHaveLength(1);
    expect(sent.at(-1)).toBe('POST /api/repos/7/secrets');
  });
});

describe('the audit line of a call this server refused', () => {
  it('restart_pipeline refused by the restart policy is recorded as refused, not failed', async () => {
    const outcomes: string[] = [];
    const run = new Executor({
      client: woodpecker.client(),
      gate: new Gate({ elicitationEnabled: true, sealer: new Sealer(undefined, 300_000) }),
      toolsByName,
      handlers,
      audit: {
        record: (entry: { outcome: string }) => {
          outcomes.push(entry.outcome);
          return undefined;
        },
      } as never,
      repositoryScope: undefined,
    });
    const interceptor = agent().get(ORIGIN);
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, { number: 3, status: 'declined', event: 'push' }, JSON_HEADERS);
    interceptor
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(200, { id: 7, require_approval: 'forks' }, JSON_HEADERS);
    const result = (await run.run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('was declined');
    expect(outcomes).toEqual(['refused']);
  });
});

describe('a build limit counts only builds that could have started', () => {
  // Issue 34: a restart refused by the restart policy (or by Woodpecker with a 4xx) started
  // nothing, yet used up a place in the limit.
  const policyOfOne = () =>
    new OperatorPolicy(
      'p.yaml',
      parsePolicy(
        'rules:\n  - name: one\n    tools: [restart_pipeline]\n    effect: limit\n    limit: { builds: 1, per: repository, window: 1h }\n',
        'p.yaml',
        [...toolsByName.values()],
      ).rules,
    );
  const run = (policy: OperatorPolicy) =>
    new Executor({
      client: woodpecker.client(),
      gate: new Gate({ elicitationEnabled: true, sealer: new Sealer(undefined, 300_000) }),
      toolsByName,
      handlers,
      audit: undefined,
      repositoryScope: undefined,
      policy,
    });

  it('a restart the restart policy refuses gives its place back', async () => {
    const policy = policyOfOne();
    const interceptor = agent().get(ORIGIN);
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, { number: 3, status: 'declined', event: 'push' }, JSON_HEADERS)
      .persist();
    interceptor
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(200, { id: 7, require_approval: 'forks' }, JSON_HEADERS)
      .persist();
    for (const attempt of [1, 2]) {
      const result = (await run(policy).run(
        named('restart_pipeline'),
        { repo_id: 7, number: 3 },
        call,
      )) as CallToolResult;
      expect(JSON.stringify(result.content), `attempt ${attempt}`).toContain('was declined');
    }
  });

  it('a dry run starts nothing and counts nothing', async () => {
    const policy = policyOfOne();
    const interceptor = agent().get(ORIGIN);
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, { number: 3, status: 'failure', event: 'push' }, JSON_HEADERS)
      .persist();
    interceptor
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(200, { id: 7, require_approval: 'forks' }, JSON_HEADERS)
      .persist();
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'POST' })
      .reply(200, { id: 40, number: 4, status: 'pending', event: 'push' }, JSON_HEADERS);
    for (let i = 0; i < 2; i++) {
      const dry = (await run(policy).run(
        named('restart_pipeline'),
        { repo_id: 7, number: 3, dry_run: true },
        call,
      )) as CallToolResult;
      expect(dry.isError, JSON.stringify(dry.content)).toBeFalsy();
    }
    const started = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
  });

  /** A failed pipeline whose one failed step exited with `exitCode`. */
  const failedWith = (exitCode: number) => ({
    number: 3,
    status: 'failure',
    event: 'push',
    workflows: [
      {
        id: 20,
        name: 'ci',
        state: 'failure',
        children: [{ id: 31, pid: 2, name: 'test', state: 'failure', exit_code: exitCode }],
      },
    ],
  });
  const serveFailed = (exitCode: number) => {
    const interceptor = agent().get(ORIGIN);
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, failedWith(exitCode), JSON_HEADERS)
      .persist();
    interceptor
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(200, { id: 7, require_approval: 'forks' }, JSON_HEADERS)
      .persist();
    return interceptor;
  };

  it('a restart only_if_infrastructure declines (the code failed) gives its place back', async () => {
    const policy = policyOfOne();
    const interceptor = serveFailed(1);
    // Only one POST is answered: a declined restart that sent one would use it up.
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'POST' })
      .reply(200, { id: 40, number: 4, status: 'pending', event: 'push' }, JSON_HEADERS);
    for (let i = 0; i < 2; i++) {
      const declined = (await run(policy).run(
        named('restart_pipeline'),
        { repo_id: 7, number: 3, only_if_infrastructure: true },
        call,
      )) as CallToolResult;
      expect(declined.isError, JSON.stringify(declined.content)).toBeFalsy();
      expect(declined.structuredContent).toMatchObject({ restarted: false });
    }
    // The limit is one build an hour: the declined ones took none of it.
    const started = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ number: 4 });
  });

  it('a restart only_if_infrastructure accepts (exit 137) counts like any build start', async () => {
    const policy = policyOfOne();
    const interceptor = serveFailed(137);
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'POST' })
      .reply(200, { id: 40, number: 4, status: 'pending', event: 'push' }, JSON_HEADERS);
    const accepted = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3, only_if_infrastructure: true },
      call,
    )) as CallToolResult;
    expect(accepted.isError, JSON.stringify(accepted.content)).toBeFalsy();
    expect(accepted.structuredContent).toMatchObject({ number: 4 });
    expect(
      String((accepted.structuredContent as { restarted_because?: string }).restarted_because),
    ).toMatch(/exit code 137/);
    const over = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3, only_if_infrastructure: true },
      call,
    )) as CallToolResult;
    expect(over.isError).toBe(true);
    expect(JSON.stringify(over.content)).toContain('refused by the operator');
  });

  it('a restart Woodpecker refuses with 403 gives its place back; one it accepted does not', async () => {
    const policy = policyOfOne();
    const interceptor = agent().get(ORIGIN);
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, { number: 3, status: 'failure', event: 'push' }, JSON_HEADERS)
      .persist();
    interceptor
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(200, { id: 7, require_approval: 'forks' }, JSON_HEADERS)
      .persist();
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'POST' })
      .reply(403, 'forbidden');
    interceptor
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'POST' })
      .reply(200, { id: 40, number: 4, status: 'pending', event: 'push' }, JSON_HEADERS);
    const refused = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('403');
    const started = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    const over = (await run(policy).run(
      named('restart_pipeline'),
      { repo_id: 7, number: 3 },
      call,
    )) as CallToolResult;
    expect(JSON.stringify(over.content)).toContain('refused by the operator');
  });
});
