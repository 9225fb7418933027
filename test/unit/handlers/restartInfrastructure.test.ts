// restart_pipeline with only_if_infrastructure and dry_run, through the executor with
// Woodpecker played by a MockAgent: it restarts what the machine broke (exit 137/143, an
// agent that stopped reporting), declines what the code broke, and a dry run says what
// it would do and why without any POST.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';
import { infrastructureVerdict } from '../../../runtime/handlers/insight/infrastructureFailure.js';

const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const woodpecker = useMockWoodpecker();

type Step = { name: string; state: string; exit_code?: number; error?: string };
const pipelineWith = (steps: Step[], workflow: { state?: string; error?: string } = {}) => ({
  id: 30,
  number: 3,
  status: 'failure',
  event: 'push',
  branch: 'main',
  author: 'dev',
  workflows: [
    {
      id: 20,
      name: 'ci',
      state: workflow.state ?? 'failure',
      error: workflow.error ?? '',
      children: steps.map((step, i) => ({ id: 31 + i, pid: 2 + i, ...step })),
    },
  ],
});

describe('infrastructureVerdict', () => {
  it.each([
    [[{ name: 'test', state: 'failure', exit_code: 137 }], true, /137/],
    [[{ name: 'test', state: 'failure', exit_code: 143 }], true, /SIGTERM/],
    // The local backend's -1 is any death by a signal: a crash of the step's own program too.
    [
      [{ name: 'test', state: 'failure', exit_code: -1 }],
      false,
      /exit code -1: .*any signal.*does not show the machine broke it/,
    ],
    [
      [{ name: 'test', state: 'killed', exit_code: 137 }],
      false,
      /before 3.14 stores for the machine's kill and for a person's cancel alike/,
    ],
    // Woodpecker's queue errors end a workflow as canceled, never as a step's error text
    // (agent/runner.go in 3.11, 3.17 and main-a4cb541): such text is no evidence.
    [[{ name: 'test', state: 'error', error: 'queue: task expired' }], false, /points at the code/],
    [[{ name: 'test', state: 'error', error: 'worker was kicked' }], false, /points at the code/],
    [
      [{ name: 'test', state: 'error', error: 'task assigned to different agent' }],
      false,
      /points at the code/,
    ],
    [[{ name: 'test', state: 'error', error: 'agent lost' }], false, /points at the code/],
    // pipeline/errors/runtime.go's OomError, which the workflow's error carries.
    [[{ name: 'test', state: 'failure', error: 'uuid=x: received oom kill' }], true, /OOM/],
    [[{ name: 'test', state: 'failure', exit_code: 1 }], false, /test \(failure, exit code 1\)/],
    [[{ name: 'test', state: 'killed', exit_code: 0 }], false, /points at the code/],
    [
      [
        { name: 'build', state: 'failure', exit_code: 137 },
        { name: 'test', state: 'failure', exit_code: 2 },
      ],
      false,
      /test \(failure, exit code 2\)/,
    ],
  ] as [Step[], boolean, RegExp][])('%j → %s', (steps, infrastructure, reason) => {
    const verdict = infrastructureVerdict(pipelineWith(steps));
    expect(verdict.infrastructure).toBe(infrastructure);
    expect(verdict.reason).toMatch(reason);
  });

  it('counts a workflow that failed for memory before any step did, and nothing else alone', () => {
    const oom = infrastructureVerdict(
      pipelineWith([{ name: 'test', state: 'pending' }], { error: 'uuid=y: received oom kill' }),
    );
    expect(oom).toMatchObject({ infrastructure: true });
    expect(oom.reason).toMatch(/workflow ci: the kernel killed the step for memory/);
    const kicked = infrastructureVerdict(
      pipelineWith([{ name: 'test', state: 'pending' }], { error: 'worker was kicked' }),
    );
    expect(kicked).toMatchObject({ infrastructure: false });
  });

  it('never calls a pipeline without failures the machine', () => {
    expect(infrastructureVerdict(pipelineWith([{ name: 'a', state: 'success' }]))).toMatchObject({
      infrastructure: false,
    });
  });
});

describe('restart_pipeline only_if_infrastructure and dry_run', () => {
  function serve(pipeline: object): { posts: number } {
    const seen = { posts: 0 };
    const pool = woodpecker.agent().get(MOCK_ORIGIN);
    pool
      .intercept({ path: '/api/repos/7/pipelines/3', method: 'GET' })
      .reply(200, pipeline, JSON_HEADERS);
    pool
      .intercept({ path: '/api/repos/7', method: 'GET' })
      .reply(200, { id: 7, full_name: 'o/r', require_approval: 'forks' }, JSON_HEADERS);
    pool
      .intercept({ path: (path) => path.startsWith('/api/repos/7/pipelines/3'), method: 'POST' })
      .reply(() => {
        seen.posts += 1;
        return {
          statusCode: 200,
          data: JSON.stringify({ id: 40, number: 4, status: 'pending', parent: 3 }),
          responseOptions: JSON_HEADERS,
        };
      })
      .persist();
    return seen;
  }

  async function restart(args: Record<string, unknown>) {
    const result = (await mockExecutor(woodpecker.client()).run(
      toolsByName.get('restart_pipeline')!,
      { repo_id: 7, number: 3, ...args },
      TOKEN_PATH_CALL,
    )) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  }

  it('restarts a pipeline the machine broke, and says why', async () => {
    const seen = serve(pipelineWith([{ name: 'test', state: 'failure', exit_code: 137 }]));
    const answer = await restart({ only_if_infrastructure: true });
    expect(seen.posts).toBe(1);
    expect(answer).toMatchObject({ number: 4 });
    expect(String(answer.restarted_because)).toMatch(/137/);
  });

  it('does not restart a pipeline its code broke, and says which step', async () => {
    const seen = serve(pipelineWith([{ name: 'test', state: 'failure', exit_code: 1 }]));
    const answer = await restart({ only_if_infrastructure: true });
    expect(seen.posts).toBe(0);
    expect(answer).toMatchObject({ restarted: false });
    expect(String(answer.reason)).toMatch(/^Not restarted: test \(failure, exit code 1\)/);
  });

  it('a dry run says it would restart, and sends no POST', async () => {
    const seen = serve(pipelineWith([{ name: 'test', state: 'failure', exit_code: 143 }]));
    const answer = await restart({ only_if_infrastructure: true, dry_run: true });
    expect(seen.posts).toBe(0);
    expect(answer).toMatchObject({ restarted: false, would_restart: true });
    expect(String(answer.reason)).toMatch(/SIGTERM/);
  });

  it('a dry run of a refused restart says it would refuse, and sends no POST', async () => {
    const seen = serve({
      ...pipelineWith([{ name: 'test', state: 'failure', exit_code: 137 }]),
      status: 'blocked',
    });
    const answer = await restart({ dry_run: true });
    expect(seen.posts).toBe(0);
    expect(answer).toMatchObject({ would_restart: false });
    expect(String(answer.reason)).toMatch(/^refused: .*blocked/);
  });
});
