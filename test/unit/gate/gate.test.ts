import { describe, expect, it } from 'vitest';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { Gate, type Channel, type GateOutcome } from '../../../runtime/gate/gate.js';
import { approvalFingerprint, principalDigest } from '../../../runtime/gate/fingerprint.js';
import { Sealer } from '../../../runtime/gate/seal.js';
import type { GuardSpec, ToolArgs, ToolDefinition } from '../../../runtime/core/tool.js';

function tool(name: string, guard: GuardSpec | undefined): ToolDefinition {
  return {
    name,
    title: name,
    description: '',
    group: 'test',
    adminOnly: false,
    essential: false,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    inputSchema: { type: 'object', properties: {} },
    output: { kind: 'none', redact: [], reveal: [], untrusted: false },
    errorHints: {},
    ...(guard ? { guard } : {}),
  };
}

const approve = tool('approve_pipeline', {
  targets: ['repo_id', 'number'],
  bindBody: false,
  reasons: () => ['always asks'],
  dialog: (args) =>
    `This will approve pipeline ${String(args.number)} of repository ${String(args.repo_id)}.`,
  condition: 'always',
});
const deletePipeline = tool('delete_pipeline', {
  ...approve.guard!,
  dialog: () => 'This will delete a pipeline.',
});
const updateRepository = tool('update_repository', {
  targets: ['repo_id'],
  bindBody: true,
  read: (args) => ({ method: 'GET', path: `/api/repos/${String(args.repo_id)}` }),
  reasons: (args, current) =>
    args.trusted_network === true &&
    (current as { trusted?: { network?: boolean } }).trusted?.network !== true
      ? ['it grants trusted_network']
      : [],
  dialog: (args) => `This will change the settings of repository ${String(args.repo_id)}.`,
  condition: 'only when it grants trusted_network',
});

const channel = (
  revision: Channel['revision'],
  inputResponses?: Record<string, unknown>,
  requestState?: string,
): Channel => ({
  revision,
  clientCanElicit: true,
  inputResponses,
  requestState,
});
const modernChannel = (inputResponses?: Record<string, unknown>, requestState?: string) =>
  channel('2026-07-28', inputResponses, requestState);
const legacyChannel = (inputResponses?: Record<string, unknown>, requestState?: string) =>
  channel('2025-11-25', inputResponses, requestState);
const noDialogChannel: Channel = {
  revision: '2025-11-25',
  clientCanElicit: false,
  inputResponses: undefined,
  requestState: undefined,
};

function setup(options: { elicitation?: boolean; now?: () => number } = {}) {
  const sealer = new Sealer(undefined, 300_000, options.now);
  const gate = new Gate({ elicitationEnabled: options.elicitation ?? true, sealer });
  const reads: unknown[] = [];
  const check = (
    t: ToolDefinition,
    args: ToolArgs,
    channel: Channel,
    current: unknown = {},
    token = 'tok-a',
  ) =>
    gate.check({
      tool: t,
      args,
      principal: principalDigest(token),
      channel,
      readCurrent: async (guard, readArgs) => {
        reads.push(guard.read?.(readArgs));
        return current;
      },
      // None of these tools declares a `shadows` read; one that looked would see nothing.
      look: async () => ({ status: 'absent' as const }),
    });
  return { check, sealer, reads };
}

const tokenOf = (outcome: GateOutcome) => {
  expect(outcome.proceed).toBe(false);
  if (outcome.proceed) throw new Error('unreachable');
  return (
    (outcome.result as CallToolResult).structuredContent as { confirm_token?: string } | undefined
  )?.confirm_token as string;
};
const messageOf = (outcome: GateOutcome) =>
  outcome.proceed
    ? ''
    : (
        (outcome.result as InputRequiredResult).inputRequests as Record<
          string,
          { params?: { message?: string } }
        >
      ).confirm?.params?.message;
const textOf = (outcome: GateOutcome) =>
  outcome.proceed ? '' : ((outcome.result as CallToolResult).content?.[0] as { text: string }).text;

describe('the decision', () => {
  it('lets an unguarded tool through without asking', async () => {
    const { check } = setup();
    expect(await check(tool('list_pipelines', undefined), {}, legacyChannel())).toEqual({
      proceed: true,
      approval: 'not guarded',
    });
  });

  it('applies the harmless direction at once, after reading the current value', async () => {
    const { check, reads } = setup();
    const outcome = await check(
      updateRepository,
      { repo_id: 7, trusted_network: false },
      legacyChannel(),
      { trusted: { network: true } },
    );
    // What the gate read is handed back, so a handler (update_user) need not read again.
    expect(outcome).toEqual({
      proceed: true,
      approval: 'harmless direction',
      current: { trusted: { network: true } },
    });
    expect(reads).toEqual([{ method: 'GET', path: '/api/repos/7' }]);
  });

  it('asks when the condition holds, and says why', async () => {
    const { check } = setup();
    const outcome = await check(
      updateRepository,
      { repo_id: 7, trusted_network: true },
      legacyChannel(),
      { trusted: { network: false } },
    );
    expect(outcome).toMatchObject({ proceed: false, outcome: 'asked' });
    expect(messageOf(outcome)).toBe(
      'This will change the settings of repository 7.\n\nThis asks because it grants trusted_network.',
    );
  });
});

describe('a guard that looks at the levels a name meets (shadows)', () => {
  const createSecret = tool('create_secret', {
    targets: ['scope', 'repo_id', 'name'],
    bindBody: true,
    wider: async (_args, look) => {
      const looked = await look({ method: 'GET', path: '/api/secrets' });
      return [
        { scope: 'organization', id: 3, status: 'clear' },
        {
          scope: 'global',
          status:
            looked.status === 'found'
              ? (looked.body as unknown[]).length > 0
                ? 'collides'
                : 'clear'
              : 'unknown',
        },
      ];
    },
    reasons: (_args, _current, wider) =>
      (wider ?? []).some((level) => level.status !== 'clear') ? ['it would shadow'] : [],
    dialog: () => 'This will create a secret.',
    condition: 'only when it would shadow',
  });

  it.each([
    [{ status: 'found', body: [] } as const, true, ''],
    [
      { status: 'found', body: [{ name: 'token' }] } as const,
      false,
      'Pipelines would take it for an entry that already exists at: global level.',
    ],
    [
      { status: 'unreadable' } as const,
      false,
      'These levels could not be read (no permission, or more entries than this server reads), so a collision there cannot be ruled out: global level.',
    ],
  ])(
    'passes what it looked at to the reasons and names the levels: %j → proceeds at once: %s',
    async (looked, proceeds, levels) => {
      const sealer = new Sealer(undefined, 300_000);
      const gate = new Gate({ elicitationEnabled: true, sealer });
      const asked: unknown[] = [];
      const outcome = await gate.check({
        tool: createSecret,
        args: { scope: 'repository', repo_id: 7, name: 'TOKEN' },
        principal: principalDigest('tok'),
        channel: legacyChannel(),
        readCurrent: async () => {
          throw new Error('a guard without `read` must not read a current value');
        },
        look: async (request) => {
          asked.push(request);
          return looked;
        },
      });
      expect(asked).toEqual([{ method: 'GET', path: '/api/secrets' }]);
      expect(outcome.proceed).toBe(proceeds);
      if (!proceeds)
        expect(messageOf(outcome)).toBe(
          `This will create a secret.\n\n${levels}\n\nThis asks because it would shadow.`,
        );
    },
  );
});

describe("2025-11-25: the same question, answered through the SDK's pushed dialog", () => {
  it.each([
    [{ action: 'accept', content: { approve: true } }, true, 'dialog'],
    [{ action: 'accept', content: { approve: false } }, false, 'declined'],
    [{ action: 'accept' }, false, 'declined'],
    [{ action: 'decline' }, false, 'declined'],
    [{ action: 'cancel' }, false, 'cancelled'],
  ] as const)('answer %j → proceeds: %s', async (answer, proceeds, how) => {
    const { check } = setup();
    const asked = await check(approve, { repo_id: 5, number: 12 }, legacyChannel());
    const state = asked.proceed ? undefined : (asked.result as InputRequiredResult).requestState;
    const outcome = await check(
      approve,
      { repo_id: 5, number: 12 },
      legacyChannel({ confirm: answer }, state),
    );
    expect(outcome.proceed).toBe(proceeds);
    if (outcome.proceed) expect(outcome.approval).toBe(how);
    else {
      expect(outcome.outcome).toBe(how);
      expect(textOf(outcome)).toMatch(/^Nothing was changed/);
    }
  });
});

describe('2026-07-28: input_required and a sealed answer', () => {
  async function ask(check: ReturnType<typeof setup>['check'], args: ToolArgs) {
    const outcome = await check(approve, args, modernChannel());
    expect(outcome.proceed).toBe(false);
    if (outcome.proceed) throw new Error('unreachable');
    const result = outcome.result as InputRequiredResult;
    expect(result.resultType).toBe('input_required');
    return result;
  }
  const yes = { confirm: { action: 'accept', content: { approve: true } } };

  it('asks, and the retry with the answer and the state proceeds', async () => {
    const { check } = setup();
    const question = await ask(check, { repo_id: 5, number: 12 });
    const request = (question.inputRequests as Record<string, { params?: { message?: string } }>)
      .confirm;
    expect(request?.params?.message).toBe('This will approve pipeline 12 of repository 5.');
    const outcome = await check(
      approve,
      { repo_id: 5, number: 12 },
      modernChannel(yes, question.requestState),
    );
    expect(outcome).toEqual({ proceed: true, approval: 'sealed answer' });
  });

  it('a declined answer changes nothing', async () => {
    const { check } = setup();
    const question = await ask(check, { repo_id: 5, number: 12 });
    const outcome = await check(
      approve,
      { repo_id: 5, number: 12 },
      modernChannel({ confirm: { action: 'decline' } }, question.requestState),
    );
    expect(outcome).toMatchObject({ proceed: false, outcome: 'declined' });
  });

  it.each([
    [
      'a tampered seal',
      (state: string) => state.slice(0, -3) + (state.endsWith('AAA') ? 'BBB' : 'AAA'),
      { repo_id: 5, number: 12 },
    ],
    ['no seal at all', () => undefined, { repo_id: 5, number: 12 }],
    ['a seal for swapped targets', (state: string) => state, { repo_id: 12, number: 5 }],
  ] as const)(
    '%s is no answer: a fresh question, not an error',
    async (_name, mangle, retryArgs) => {
      const { check } = setup();
      const question = await ask(check, { repo_id: 5, number: 12 });
      const outcome = await check(
        approve,
        retryArgs,
        modernChannel(yes, mangle(question.requestState!)),
      );
      expect(outcome).toMatchObject({ proceed: false, outcome: 'asked' });
      if (!outcome.proceed)
        expect((outcome.result as InputRequiredResult).requestState).not.toBe(
          question.requestState,
        );
    },
  );

  it('an expired seal is no answer', async () => {
    let now = 1_000_000;
    const { check } = setup({ now: () => now });
    const question = await ask(check, { repo_id: 5, number: 12 });
    now += 301_000;
    expect(
      await check(approve, { repo_id: 5, number: 12 }, modernChannel(yes, question.requestState)),
    ).toMatchObject({ proceed: false, outcome: 'asked' });
  });

  it('a seal for another tool or another principal is no answer', async () => {
    const { check } = setup();
    const question = await ask(check, { repo_id: 5, number: 12 });
    expect(
      await check(
        deletePipeline,
        { repo_id: 5, number: 12 },
        modernChannel(yes, question.requestState),
      ),
    ).toMatchObject({ outcome: 'asked' });
    expect(
      await check(
        approve,
        { repo_id: 5, number: 12 },
        modernChannel(yes, question.requestState),
        {},
        'tok-b',
      ),
    ).toMatchObject({ outcome: 'asked' });
  });
});

describe('the two-call token', () => {
  it('first call does nothing and says honestly what the token proves; the second proceeds', async () => {
    const { check } = setup();
    const first = await check(approve, { repo_id: 5, number: 12 }, noDialogChannel);
    const token = tokenOf(first);
    expect(textOf(first)).toContain(
      'proves only that the call was made twice with the same arguments',
    );
    expect(textOf(first)).toContain('this MCP client did not declare support for dialogs');
    expect(
      await check(approve, { repo_id: 5, number: 12, confirm_token: token }, noDialogChannel),
    ).toEqual({ proceed: true, approval: 'token' });
  });

  it('with ELICITATION=false names this server as the one that did not ask, even for a capable client', async () => {
    const { check } = setup({ elicitation: false });
    const first = await check(approve, { repo_id: 5, number: 12 }, legacyChannel());
    expect(first).toMatchObject({ proceed: false, outcome: 'token issued' });
    expect(textOf(first)).toContain('woodpecker-ci-mcp did not ask a person');
    expect(textOf(first)).toContain('ELICITATION=false');
  });

  it.each([
    ['swapped targets', approve, { repo_id: 12, number: 5 }],
    ['another tool', deletePipeline, { repo_id: 5, number: 12 }],
  ] as const)('a token does not act on %s', async (_name, otherTool, otherArgs) => {
    const { check } = setup();
    const token = tokenOf(await check(approve, { repo_id: 5, number: 12 }, noDialogChannel));
    const outcome = await check(otherTool, { ...otherArgs, confirm_token: token }, noDialogChannel);
    expect(outcome.proceed).toBe(false);
    expect(textOf(outcome)).toMatch(/does not belong to this call/);
  });

  it('a token does not act on a wider body', async () => {
    const { check } = setup();
    const narrow = { repo_id: 7, trusted_network: true };
    const token = tokenOf(await check(updateRepository, narrow, noDialogChannel, { trusted: {} }));
    const wider = await check(
      updateRepository,
      { ...narrow, visibility: 'public', confirm_token: token },
      noDialogChannel,
      { trusted: {} },
    );
    expect(wider.proceed).toBe(false);
    expect(
      await check(updateRepository, { ...narrow, confirm_token: token }, noDialogChannel, {
        trusted: {},
      }),
    ).toEqual({ proceed: true, approval: 'token', current: { trusted: {} } });
  });

  it('a token expires after five minutes', async () => {
    let now = 5_000_000;
    const { check } = setup({ now: () => now });
    const token = tokenOf(await check(approve, { repo_id: 5, number: 12 }, noDialogChannel));
    now += 300_001;
    expect(
      (await check(approve, { repo_id: 5, number: 12, confirm_token: token }, noDialogChannel))
        .proceed,
    ).toBe(false);
  });

  it("a question's requestState is not a token", async () => {
    const { check } = setup();
    const question = await check(approve, { repo_id: 5, number: 12 }, modernChannel());
    const state = question.proceed
      ? ''
      : ((question.result as InputRequiredResult).requestState as string);
    expect(
      (await check(approve, { repo_id: 5, number: 12, confirm_token: state }, noDialogChannel))
        .proceed,
    ).toBe(false);
  });
});

describe('a call only an instance admin may make, by a caller who is not one', () => {
  const createGlobal = tool('create_secret', {
    targets: ['scope', 'name'],
    bindBody: true,
    needsAdmin: (args) => args.scope === 'global',
    reasons: () => ['always asks'],
    dialog: () => 'This will create a secret.',
    condition: 'always',
  });
  const check = (scope: string, admin: boolean | undefined) => {
    const gate = new Gate({
      elicitationEnabled: true,
      sealer: new Sealer(undefined, 300_000),
    });
    return gate.check({
      tool: createGlobal,
      args: { scope, name: 'TOKEN' },
      principal: principalDigest('tok'),
      channel: legacyChannel(),
      readCurrent: async () => undefined,
      look: async () => ({ status: 'absent' }),
      callerIsAdmin: async () => admin,
    });
  };

  it('is refused before anyone is asked, saying why', async () => {
    const outcome = await check('global', false);
    expect(outcome.proceed).toBe(false);
    if (outcome.proceed) return;
    expect(outcome.outcome).toBe('refused');
    const text = JSON.stringify(outcome.result);
    expect(text).toContain('needs an instance admin');
    expect(text).toContain('Nobody was asked and nothing was sent');
  });

  it('still asks where the account is an admin, could not be read, or the call needs no admin', async () => {
    for (const [scope, admin] of [
      ['global', true],
      ['global', undefined],
      ['repository', false],
    ] as const) {
      const outcome = await check(scope, admin);
      expect(outcome.proceed, `${scope} ${String(admin)}`).toBe(false);
      if (!outcome.proceed) expect(outcome.outcome).toBe('asked');
    }
  });
});

describe('what a token or sealed question lets a reader check', () => {
  // The payload is signed, not encrypted: whoever sees a confirm_token (the model, a log,
  // a pasted transcript) reads it. Its fingerprint must not be a digest anyone can
  // recompute from a guess of a bound value, or a weak secret value could be confirmed
  // by trying guesses offline.
  const updateSecret = tool('update_secret', {
    targets: ['repo_id', 'name'],
    bindBody: true,
    reasons: () => ['a new value'],
    dialog: () => 'This will change a secret.',
    condition: 'always',
  });

  it('binds with a keyed digest: neither the arguments nor their plain digest are in the token', async () => {
    const { check } = setup({ elicitation: false });
    const args = { repo_id: 5, name: 'deploy', value: 'hunter2' };
    const token = tokenOf(await check(updateSecret, args, noDialogChannel));
    const bytes = Buffer.from(token, 'base64url');
    const guessable = approvalFingerprint('update_secret', updateSecret.guard!, args);
    expect(bytes.length).toBe(30);
    expect(bytes.includes(Buffer.from(guessable, 'base64url').subarray(0, 8))).toBe(false);
    expect(token).not.toContain(guessable.slice(0, 8));
    expect(bytes.toString('latin1')).not.toContain('hunter2');
    // Still bound: the same call with the token goes through, another value does not.
    expect(
      (await check(updateSecret, { ...args, confirm_token: token }, noDialogChannel)).proceed,
    ).toBe(true);
    expect(
      (
        await check(
          updateSecret,
          { ...args, value: 'hunter3', confirm_token: token },
          noDialogChannel,
        )
      ).proceed,
    ).toBe(false);
  });
});
