// A question the operator's policy adds goes through the gate like a guard's: asked on an
// unguarded tool, bound to every argument, and, for a call that starts something new each
// time, single-use: the second redemption of one approval (sealed answer or token) is refused.
import { describe, expect, it } from 'vitest';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { Gate, type AddedQuestion, type Channel } from '../../../runtime/gate/gate.js';
import { principalDigest } from '../../../runtime/gate/fingerprint.js';
import { Sealer } from '../../../runtime/gate/seal.js';
import { SpentApprovals } from '../../../runtime/gate/spentApprovals.js';
import type { ToolArgs, ToolDefinition } from '../../../runtime/core/tool.js';

const trigger: ToolDefinition = {
  name: 'trigger_pipeline',
  title: 'Start a pipeline',
  description: '',
  group: 'pipelines',
  adminOnly: false,
  essential: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  inputSchema: { type: 'object', properties: {} },
  output: { kind: 'object', redact: [], reveal: [], untrusted: true },
  errorHints: {},
};

const added: AddedQuestion = { text: 'The operator asks (rule "protect-main").', singleUse: true };

function setup(elicitation = true) {
  const now = 1_000_000;
  const sealer = new Sealer(undefined, 300_000, () => now);
  const gate = new Gate({
    elicitationEnabled: elicitation,
    sealer,
    spent: new SpentApprovals(() => now),
  });
  return (args: ToolArgs, channel: Channel, question: AddedQuestion | null = added) =>
    gate.check({
      tool: trigger,
      args,
      principal: principalDigest('tok'),
      channel,
      readCurrent: async () => undefined,
      look: async () => ({ status: 'absent' as const }),
      ...(question ? { added: question } : {}),
    });
}

const modern = (answer?: boolean, state?: string): Channel => ({
  revision: '2026-07-28',
  clientCanElicit: true,
  inputResponses:
    answer === undefined
      ? undefined
      : { confirm: { action: 'accept', content: { approve: answer } } },
  requestState: state,
});
const legacy = (state?: string): Channel => ({
  ...modern(true, state),
  revision: '2025-11-25',
});
const noDialog: Channel = {
  revision: '2025-11-25',
  clientCanElicit: false,
  inputResponses: undefined,
  requestState: undefined,
};

const stateOf = (outcome: Awaited<ReturnType<ReturnType<typeof setup>>>) =>
  outcome.proceed ? '' : String((outcome.result as InputRequiredResult).requestState);
const textOf = (outcome: Awaited<ReturnType<ReturnType<typeof setup>>>) =>
  outcome.proceed ? '' : ((outcome.result as CallToolResult).content?.[0] as { text: string }).text;

describe('a question the operator policy adds', () => {
  it('lets the tool through untouched when no rule asks', async () => {
    const check = setup();
    expect(await check({ repo_id: 1, branch: 'main' }, modern(), null)).toEqual({
      proceed: true,
      approval: 'not guarded',
    });
  });

  it('asks on a tool tools.yaml does not guard, with the rule in the dialog', async () => {
    const check = setup();
    const outcome = await check({ repo_id: 1, branch: 'main' }, modern());
    expect(outcome).toMatchObject({ proceed: false, outcome: 'asked' });
    expect(JSON.stringify(outcome)).toContain('rule \\"protect-main\\"');
  });

  for (const [name, channel] of [
    ['a 2026-07-28 sealed answer', (state: string) => modern(true, state)],
    ['a 2025-11-25 dialog answer', (state: string) => legacy(state)],
  ] as const) {
    it(`lets ${name} through once; the same answer again starts nothing and says so`, async () => {
      const check = setup();
      const args = { repo_id: 1, branch: 'main' };
      const state = stateOf(await check(args, modern()));
      expect(await check(args, channel(state))).toMatchObject({ proceed: true });
      const again = await check(args, channel(state));
      expect(again).toMatchObject({ proceed: false, outcome: 'refused' });
      expect(textOf(again)).toContain('Nothing was started: this approval was used already');
    });
  }

  it('binds the answer to every argument: an approval for main does not start another branch', async () => {
    const check = setup();
    const state = stateOf(await check({ repo_id: 1, branch: 'main' }, modern()));
    expect(await check({ repo_id: 1, branch: 'main-2' }, modern(true, state))).toMatchObject({
      proceed: false,
      outcome: 'asked',
    });
  });

  it('binds the answer to the object the policy read: pipeline 8 replaced under its number is asked afresh', async () => {
    const check = setup();
    const args = { repo_id: 1, number: 8 };
    const state = stateOf(await check(args, modern(), { ...added, identity: 77 }));
    expect(await check(args, modern(true, state), { ...added, identity: 78 })).toMatchObject({
      proceed: false,
      outcome: 'asked',
    });
    const token = (
      ((await check(args, noDialog, { ...added, identity: 77 })) as { result: CallToolResult })
        .result.structuredContent as { confirm_token: string }
    ).confirm_token;
    const replayed = await check({ ...args, confirm_token: token }, noDialog, {
      ...added,
      identity: 78,
    });
    expect(replayed).toMatchObject({ proceed: false, outcome: 'token issued' });
    expect(textOf(replayed)).toMatch(/^The confirm_token given does not belong to this call/);
  });

  it('lets a confirm_token through once', async () => {
    const check = setup();
    const first = await check({ repo_id: 1, branch: 'main' }, noDialog);
    const token = (
      (first as { result: CallToolResult }).result.structuredContent as { confirm_token: string }
    ).confirm_token;
    const args = { repo_id: 1, branch: 'main', confirm_token: token };
    expect(await check(args, noDialog)).toEqual({ proceed: true, approval: 'token' });
    const again = await check(args, noDialog);
    expect(again).toMatchObject({ proceed: false, outcome: 'refused' });
    expect(textOf(again)).toContain('this approval was used already');
  });

  it('lets an approval be used again when the question is not single-use', async () => {
    const check = setup();
    const question = { ...added, singleUse: false };
    const args = { repo_id: 1, branch: 'main' };
    const state = stateOf(await check(args, modern(), question));
    expect(await check(args, modern(true, state), question)).toMatchObject({ proceed: true });
    expect(await check(args, modern(true, state), question)).toMatchObject({ proceed: true });
  });

  it('is single-use per process: a replica sharing the seal key does not know what another spent', async () => {
    // What docs/configuration.md says: the seal opens on every replica with the key, the
    // memory of spent approvals is each process's own.
    const key = Buffer.alloc(32, 7);
    const replica = () =>
      new Gate({
        elicitationEnabled: true,
        sealer: new Sealer(key, 300_000),
        spent: new SpentApprovals(),
      });
    const [one, two] = [replica(), replica()];
    const call = (gate: Gate, channel: Channel) =>
      gate.check({
        tool: trigger,
        args: { repo_id: 1, branch: 'main' },
        principal: principalDigest('tok'),
        channel,
        readCurrent: async () => undefined,
        look: async () => ({ status: 'absent' as const }),
        added,
      });
    const state = stateOf(await call(one, modern()));
    expect(await call(one, modern(true, state))).toMatchObject({ proceed: true });
    expect(await call(one, modern(true, state))).toMatchObject({ outcome: 'refused' });
    expect(await call(two, modern(true, state))).toMatchObject({ proceed: true });
  });
});

describe('single use across the processes of one machine', () => {
  // Outside attack (third round) B3: without WOODPECKER_MCP_SEAL_KEY the key is derived from
  // WOODPECKER_TOKEN, so a fresh stdio process opened the seal and started a second build.
  it('a second process that shares the spent folder refuses the same approval', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = join(mkdtempSync(join(tmpdir(), 'spent-')), 'spent-approvals');
    try {
      const key = Buffer.alloc(32, 9);
      const process = () =>
        new Gate({
          elicitationEnabled: true,
          sealer: new Sealer(key, 300_000),
          spent: new SpentApprovals(Date.now, directory),
        });
      const [first, second] = [process(), process()];
      const call = (gate: Gate, channel: Channel) =>
        gate.check({
          tool: trigger,
          args: { repo_id: 1, branch: 'main' },
          principal: principalDigest('tok'),
          channel,
          readCurrent: async () => undefined,
          look: async () => ({ status: 'absent' as const }),
          added,
        });
      const state = stateOf(await call(first, modern()));
      expect(await call(first, modern(true, state))).toMatchObject({ proceed: true });
      expect(await call(second, modern(true, state))).toMatchObject({ outcome: 'refused' });
      // A new question is a new nonce: it is let through once, wherever it is answered.
      const again = stateOf(await call(second, modern()));
      expect(await call(first, modern(true, again))).toMatchObject({ proceed: true });
    } finally {
      rmSync(join(directory, '..'), { recursive: true, force: true });
    }
  });
});
