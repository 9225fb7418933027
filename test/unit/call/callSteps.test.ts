// The executor's steps, each on its own: their order is the policy that nobody is asked
// about a call this server would refuse, and that a limit counts only what was let through.
import { describe, expect, it } from 'vitest';
import { CALL_STEPS, type CallState } from '../../../runtime/call/callSteps.js';
import { callReader } from '../../../runtime/call/callReader.js';
import type { ExecutorDeps } from '../../../runtime/call/executorDeps.js';
import type { ToolArgs } from '../../../runtime/core/tool.js';
import { TOKEN_PATH_CALL, toolsByName } from './mockExecutor.js';

const step = (name: string) => CALL_STEPS.find((candidate) => candidate.name.startsWith(name))!;
const deps = (extra: Partial<ExecutorDeps> = {}) =>
  ({
    toolsByName,
    handlers: {},
    audit: undefined,
    repositoryScope: undefined,
    ...extra,
  }) as unknown as ExecutorDeps;
function stateOf(tool: string, args: ToolArgs, token: string | null = 't'): CallState {
  return {
    tool: toolsByName.get(tool)!,
    args,
    call: { ...TOKEN_PATH_CALL, token: token ?? undefined },
    rules: [],
    reader: callReader(() => Promise.reject(new Error('no request expected'))),
  };
}

describe('the call steps', () => {
  it('run in this order', () => {
    expect(CALL_STEPS.map((candidate) => candidate.name)).toEqual([
      'a Woodpecker is configured',
      'the call has a token',
      'the request can be built',
      'the repository allowlist (WOODPECKER_REPOS)',
      'the Woodpecker release has what the call needs',
      "the operator's policy (WOODPECKER_MCP_POLICY)",
      'the gate: a person is asked where tools.yaml or the policy says so',
      'the build limits count the call',
      'Woodpecker is called: the plain call, or the hand-written handler',
      'the output step shapes the answer',
    ]);
  });

  it('without a Woodpecker configured, the call ends saying what to set, and is not recorded', async () => {
    const end = await step('a Woodpecker').run(stateOf('get_repository', { repo_id: 1 }), deps());
    expect(end?.outcome).toBeUndefined();
    expect(JSON.stringify(end?.result)).toContain('WOODPECKER_URL');
  });

  it('without a token, the call ends unless the tool reads a public route', async () => {
    const noToken = stateOf('get_current_user', {}, null);
    expect(
      JSON.stringify((await step('the call has a token').run(noToken, deps()))?.result),
    ).toContain('WOODPECKER_TOKEN');
    const withToken = stateOf('get_current_user', {});
    expect(await step('the call has a token').run(withToken, deps())).toBeUndefined();
  });

  it("without a token, says which tool, where a token comes from, and each transport's fix", async () => {
    const end = await step('the call has a token').run(
      stateOf('get_current_user', {}, null),
      deps(),
    );
    expect(end?.outcome).toBeUndefined();
    expect(end?.result.isError).toBe(true);
    expect(end?.result.content).toEqual([
      {
        type: 'text',
        text:
          'get_current_user: no Woodpecker API token (Woodpecker → your user settings → Personal access token). ' +
          'Over HTTP, send it with each request as "Authorization: Bearer <token>"; ' +
          'over stdio, set WOODPECKER_TOKEN and restart the MCP server.',
      },
    ]);
    // A public route needs none: get_server_info reads /version and /healthz.
    expect(
      await step('the call has a token').run(stateOf('get_server_info', {}, null), deps()),
    ).toBeUndefined();
  });

  it('the request is built and kept for the call step; arguments that build none throw', async () => {
    const state = stateOf('get_repository', { repo_id: 5 });
    expect(await step('the request can be built').run(state, deps())).toBeUndefined();
    expect(state.request).toMatchObject({ method: 'GET', path: '/api/repos/5' });
    const broken = stateOf('list_secrets', { scope: 'repository' });
    await expect(step('the request can be built').run(broken, deps())).rejects.toThrow();
  });

  it('without a policy, neither the policy nor the limits step does anything', async () => {
    const state = stateOf('trigger_pipeline', { repo_id: 5, branch: 'main' });
    expect(await step("the operator's policy").run(state, deps())).toBeUndefined();
    expect(await step('the build limits').run(state, deps())).toBeUndefined();
    expect(state.giveBack).toBeUndefined();
  });
});
