// Guard attacks in one suite, counted: every guarded tool against the real Woodpecker,
// on the two-call token path and on 2026-07-28 sealed state, with an approval that
// belongs to something else — another target, a wider body, another tool, another
// account, another server process — or one that was tampered with, cut short, has
// expired or was never issued, and two redemptions at once. After every attempt both
// targets are read back from Woodpecker; the suite prints "tried N, acted 0".
import type { CallToolResult } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import { APPROVAL_TTL_SECONDS } from '../../runtime/gate/gate.js';
import { GUARDED_TOOLS, Targets, type Target } from './guardedTools.js';
import { APPROVE_RESPONSE, Clock, isInputRequired, rawCall, tamper } from './guardRounds.js';
import { openSession, textOf, type McpSession } from './mcpSession.js';
import { sampleValue } from './toolArguments.js';

const targets = new Targets();
afterEach(() => targets.cleanupAll());

const tally = { tried: 0, acted: [] as string[], notIssued: 0 };
const clock = new Clock();
let tokenPath: McpSession;
let foreignTokenPath: McpSession;
let userTokenPath: McpSession;
let sealed: McpSession;
let foreignSealed: McpSession;
let userSealed: McpSession;
/** The previous tool's approvals, for "another tool". */
let previous: { token?: string; state?: string } = {};

beforeAll(async () => {
  // "Foreign" sessions are another deployment: their own seal key. (Processes started with
  // the same WOODPECKER_TOKEN and no key share one derived from it, on purpose: they are
  // replicas of one deployment, and a question one asked may be answered through another.)
  const foreignKey = { WOODPECKER_MCP_SEAL_KEY: randomBytes(32).toString('base64') };
  [tokenPath, foreignTokenPath, userTokenPath, sealed, foreignSealed, userSealed] =
    await Promise.all([
      openSession({ revision: '2025-11-25', canElicit: false, now: clock.now }),
      openSession({ revision: '2025-11-25', canElicit: false, env: foreignKey }),
      openSession({ revision: '2025-11-25', canElicit: false, as: 'user' }),
      openSession({ revision: '2026-07-28', autoFulfill: false, now: clock.now }),
      openSession({ revision: '2026-07-28', autoFulfill: false, env: foreignKey }),
      openSession({ revision: '2026-07-28', autoFulfill: false, as: 'user' }),
    ]);
});
afterAll(async () => {
  console.log(
    `[guard attacks] tried ${tally.tried}, acted ${tally.acted.length} (${tally.notIssued} attempts skipped: the other account was given no approval to steal)`,
  );
  await Promise.all(
    [tokenPath, foreignTokenPath, userTokenPath, sealed, foreignSealed, userSealed].map((session) =>
      session?.close(),
    ),
  );
});

function tokenOf(result: CallToolResult): string | undefined {
  const token = (result.structuredContent as { confirm_token?: unknown } | undefined)
    ?.confirm_token;
  return typeof token === 'string' ? token : undefined;
}

async function stateOf(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  const result = await rawCall(session, name, args);
  return isInputRequired(result) ? result.requestState : undefined;
}

/** A body the approval did not cover: one more optional argument, where the body is bound. */
function widened(name: string, args: Record<string, unknown>): Record<string, unknown> | undefined {
  const tool = tools.find((candidate) => candidate.name === name)!;
  if (!tool.guard?.bindBody) return undefined;
  const properties = tool.inputSchema.properties as Record<string, { type?: string }>;
  const extra = Object.keys(properties).find(
    (key) => !(key in args) && key !== 'confirm_token' && !tool.guard!.targets.includes(key),
  );
  return extra === undefined
    ? undefined
    : { ...args, [extra]: sampleValue(extra, properties[extra]!) };
}

describe('every guarded tool against borrowed, broken and replayed approvals', () => {
  it.each(GUARDED_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s',
    async (name, tool) => {
      const [a, b] = (await targets.createMany(tool, 2)) as [Target, Target];
      const attempt = async (what: string, send: () => Promise<unknown>): Promise<void> => {
        tally.tried++;
        await send();
        clock.reset();
        for (const [label, target] of [
          ['A', a],
          ['B', b],
        ] as const) {
          if (await target.changed()) tally.acted.push(`${name}: ${what} changed target ${label}`);
        }
      };
      const approve = { inputResponses: APPROVE_RESPONSE };

      // Sealed state (2026-07-28): every borrowed or broken state must be no answer.
      const state = (await stateOf(sealed, name, a.args))!;
      expect(state, `${name} did not ask on 2026-07-28`).toBeTruthy();
      const stateB = tool.hasTargets ? await stateOf(sealed, name, b.args) : undefined;
      await attempt('sealed: tampered state', () =>
        rawCall(sealed, name, a.args, { requestState: tamper(state), ...approve }),
      );
      await attempt('sealed: truncated state', () =>
        rawCall(sealed, name, a.args, { requestState: state.slice(0, -6), ...approve }),
      );
      await attempt('sealed: expired state', () => {
        clock.advance(APPROVAL_TTL_SECONDS + 1);
        return rawCall(sealed, name, a.args, { requestState: state, ...approve });
      });
      if (stateB)
        await attempt("sealed: another target's state", () =>
          rawCall(sealed, name, a.args, { requestState: stateB, ...approve }),
        );
      // Without targets (pause_queue) B's arguments are A's: the same call, rightly approved.
      if (tool.hasTargets)
        await attempt('sealed: state for A, arguments of B', () =>
          rawCall(sealed, name, b.args, { requestState: state, ...approve }),
        );
      const wider = widened(name, a.args);
      if (wider)
        await attempt('sealed: a wider body', () =>
          rawCall(sealed, name, wider, { requestState: state, ...approve }),
        );
      const otherToolState = previous.state;
      if (otherToolState)
        await attempt("sealed: another tool's state", () =>
          rawCall(sealed, name, a.args, { requestState: otherToolState, ...approve }),
        );
      const foreignState = await stateOf(foreignSealed, name, a.args);
      if (foreignState)
        await attempt("sealed: another server's state", () =>
          rawCall(sealed, name, a.args, { requestState: foreignState, ...approve }),
        );
      const userState = await stateOf(userSealed, name, a.args);
      if (userState)
        await attempt("sealed: another account's state", () =>
          rawCall(sealed, name, a.args, { requestState: userState, ...approve }),
        );
      else tally.notIssued++;
      await attempt('sealed: an answer without a question', () =>
        rawCall(sealed, name, a.args, approve),
      );

      // The two-call token: the same, with confirm_token.
      const token = tokenOf(await tokenPath.call(name, a.args))!;
      expect(token, `${name} gave no confirm_token`).toBeTruthy();
      const redeem = (args: Record<string, unknown>, confirm: string) =>
        tokenPath.call(name, { ...args, confirm_token: confirm });
      if (tool.hasTargets) await attempt("token: A's token on B", () => redeem(b.args, token));
      if (wider) await attempt('token: a wider body', () => redeem(wider, token));
      if (previous.token)
        await attempt("token: another tool's token", () => redeem(a.args, previous.token!));
      await attempt('token: tampered', () => redeem(a.args, tamper(token)));
      await attempt('token: truncated', () => redeem(a.args, token.slice(0, -6)));
      await attempt('token: expired', () => {
        clock.advance(APPROVAL_TTL_SECONDS + 1);
        return redeem(a.args, token);
      });
      const [version] = token.split('.');
      await attempt('token: never issued', () =>
        redeem(
          a.args,
          `${version}.${randomBytes(48).toString('base64url')}.${randomBytes(32).toString('base64url')}`,
        ),
      );
      const foreignToken = tokenOf(await foreignTokenPath.call(name, a.args));
      if (foreignToken)
        await attempt("token: another server's token", () => redeem(a.args, foreignToken));
      const userToken = tokenOf(await userTokenPath.call(name, a.args));
      if (userToken)
        await attempt("token: another account's token", () => redeem(a.args, userToken));
      else tally.notIssued++;
      previous = { token, state };

      // Two redemptions at once: A may change (it was approved), B must not.
      tally.tried++;
      const both = await Promise.all([redeem(a.args, token), redeem(a.args, token)]);
      expect(
        both.some((result) => !result.isError && tokenOf(result) === undefined),
        both.map(textOf).join('\n'),
      ).toBe(true);
      await a.cleanup();
      await b.rebase();
      if (await b.changed()) tally.acted.push(`${name}: two redemptions at once changed target B`);

      expect(tally.acted.filter((line) => line.startsWith(`${name}:`))).toEqual([]);
    },
    120_000,
  );
});
