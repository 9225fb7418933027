// 2026-07-28: no server→client channel. A guarded call answers input_required with a
// sealed requestState; only a retry that carries an approval AND a state that opens onto
// this very call (same tool, same targets, same principal, not expired) goes ahead.
// Anything else is no answer: a fresh question, never an error, and nothing changes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_TTL_SECONDS } from '../../runtime/gate/gate.js';
import { adminApi, createRepo } from '../harness/fixtures.js';
import { expectActed, GUARDED_TOOLS, Targets } from './guardedTools.js';
import {
  APPROVE_RESPONSE,
  Clock,
  expectQuestion,
  isInputRequired,
  rawCall,
  tamper,
} from './guardRounds.js';
import type { McpSession } from './mcpSession.js';
import { openSession } from './mcpSession.js';

const targets = new Targets();
afterEach(() => targets.cleanupAll());

describe('2026-07-28 with a client that shows dialogs', () => {
  const clock = new Clock();
  let manual: McpSession;
  let auto: McpSession;
  beforeAll(async () => {
    manual = await openSession({ revision: '2026-07-28', autoFulfill: false, now: clock.now });
    auto = await openSession({ revision: '2026-07-28' });
  });
  afterAll(async () => {
    await manual?.close();
    await auto?.close();
  });
  afterEach(() => clock.reset());

  it.each(GUARDED_TOOLS.map((tool) => [tool.name, tool] as const))(
    "%s: a tampered, an expired and another target's state each ask afresh and change nothing; a matching approval and the automatic round trip act",
    async (name, tool) => {
      const [a, b] = await targets.createMany(tool, 2);
      const unchanged = async (what: string) => {
        expect(await a!.changed(), `${what}: target A changed`).toBe(false);
        expect(await b!.changed(), `${what}: target B changed`).toBe(false);
      };
      await unchanged('fresh targets');

      // The first leg asks and does nothing.
      const first = expectQuestion(await rawCall(manual, name, a!.args), a!.ids, a!.shows);
      expect(first.message).toMatch(/^This will /);
      await unchanged('first leg');

      // A tampered state with an approval: a fresh question, not an error.
      const tampered = tamper(first.requestState);
      const afterTamper = expectQuestion(
        await rawCall(manual, name, a!.args, {
          requestState: tampered,
          inputResponses: APPROVE_RESPONSE,
        }),
        a!.ids,
      );
      expect(afterTamper.requestState).not.toBe(tampered);
      await unchanged('tampered state');

      // The same state after the approval window: a fresh question.
      clock.advance(APPROVAL_TTL_SECONDS + 1);
      const afterExpiry = expectQuestion(
        await rawCall(manual, name, a!.args, {
          requestState: first.requestState,
          inputResponses: APPROVE_RESPONSE,
        }),
        a!.ids,
      );
      expect(afterExpiry.requestState).not.toBe(first.requestState);
      clock.reset();
      await unchanged('expired state');

      // A state obtained for another target (for pause_queue, which has none: another tool's).
      const other = tool.hasTargets
        ? expectQuestion(await rawCall(manual, name, b!.args), b!.ids)
        : expectQuestion(await rawCall(manual, 'set_log_level', { level: 'disabled' }));
      const afterOther = expectQuestion(
        await rawCall(manual, name, a!.args, {
          requestState: other.requestState,
          inputResponses: APPROVE_RESPONSE,
        }),
        a!.ids,
      );
      expect(afterOther.requestState).not.toBe(other.requestState);
      await unchanged("another target's state");

      // An approval without any state, and the right state with a refusal: still nothing.
      expectQuestion(await rawCall(manual, name, a!.args, { inputResponses: APPROVE_RESPONSE }));
      const declined = await rawCall(manual, name, a!.args, {
        requestState: afterOther.requestState,
        inputResponses: { confirm: { action: 'decline' } },
      });
      expect(isInputRequired(declined)).toBe(false);
      expect((declined as { isError?: boolean }).isError).toBe(true);
      await unchanged('decline');

      // Control: the state minted for A, still within its window, with an approval, acts
      // (so the refusals above were about the state, not about a malformed retry).
      const acted = await rawCall(manual, name, a!.args, {
        requestState: afterOther.requestState,
        inputResponses: APPROVE_RESPONSE,
      });
      expect(isInputRequired(acted), JSON.stringify(acted).slice(0, 300)).toBe(false);
      expectActed(a!, acted as never);
      expect(await a!.changed(), 'a matching approval did not act').toBe(true);
      await a!.cleanup();
      await b!.rebase();
      expect(await b!.changed(), 'target B changed before it was asked about').toBe(false);

      // The client's own round trip: it shows the dialog, the person approves, it retries.
      const shown = auto.dialogs.length;
      const result = await auto.call(name, b!.args);
      expect(auto.dialogs.length).toBe(shown + 1);
      for (const id of b!.ids) expect(auto.dialogs.at(-1)).toMatch(new RegExp(`\\b${id}\\b`));
      for (const fact of b!.shows) expect(auto.dialogs.at(-1)).toContain(fact);
      expectActed(b!, result);
      expect(await b!.changed(), 'the automatic round trip did not act').toBe(true);
    },
  );

  it("an approval is bound to the person it was asked of: another account's state asks afresh", async () => {
    // A secret both accounts can see (the gate reads it before asking): in wp-user's own
    // repository, which the admin sees too.
    const repo = await createRepo({ owner: 'user' });
    await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
      name: 'shared_secret',
      value: 'v1',
      events: ['push'],
    });
    const args = { scope: 'repository', repo_id: repo.repoId, name: 'shared_secret' };
    const asUser = await openSession({ revision: '2026-07-28', autoFulfill: false, as: 'user' });
    try {
      const theirs = expectQuestion(await rawCall(asUser, 'delete_secret', args));
      expectQuestion(
        await rawCall(manual, 'delete_secret', args, {
          requestState: theirs.requestState,
          inputResponses: APPROVE_RESPONSE,
        }),
      );
      expect(
        (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/shared_secret`)).status,
      ).toBe(200);
    } finally {
      await asUser.close();
    }
  });
});
