// 2025-11-25, a client that declared elicitation: every guarded tool pushes a dialog,
// and only a ticked approval lets the call reach Woodpecker.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import { expectActed, GUARDED_TOOLS, SPEC_GUARDED_TOOLS, Targets } from './guardedTools.js';
import type { PersonAnswer, McpSession } from './mcpSession.js';
import { openSession, textOf } from './mcpSession.js';
import { harnessInfo } from '../harness/fixtures.js';

const targets = new Targets();
const harnessUrl = (): string => harnessInfo().url.replace(/\/+$/, '');
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
afterEach(() => targets.cleanupAll());

describe('the guard table', () => {
  it("covers exactly the 26 guarded tools (the catalogue's 23, create_forge, create_secret, create_registry), and exactly the tools with a compiled guard", () => {
    expect(SPEC_GUARDED_TOOLS).toHaveLength(26);
    expect(GUARDED_TOOLS.map((tool) => tool.name).sort()).toEqual([...SPEC_GUARDED_TOOLS].sort());
    expect(
      tools
        .filter((tool) => tool.guard)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual([...SPEC_GUARDED_TOOLS].sort());
  });

  it('annotations as served: every guarded tool is idempotent and not read-only; the three build starters are neither guarded nor idempotent; all four build tools are destructive', async () => {
    const session = await openSession({ revision: '2025-11-25' });
    try {
      const served = new Map(
        (await session.client.listTools()).tools.map((tool) => [tool.name, tool.annotations ?? {}]),
      );
      for (const name of SPEC_GUARDED_TOOLS)
        expect(served.get(name), name).toMatchObject({ idempotentHint: true, readOnlyHint: false });
      for (const name of ['trigger_pipeline', 'restart_pipeline', 'run_cron']) {
        expect(served.get(name), name).toMatchObject({
          idempotentHint: false,
          destructiveHint: true,
        });
        expect(SPEC_GUARDED_TOOLS as readonly string[]).not.toContain(name);
      }
      expect(served.get('approve_pipeline')).toMatchObject({ destructiveHint: true });
    } finally {
      await session.close();
    }
  });
});

describe('2025-11-25 with a client that shows dialogs', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await openSession({ revision: '2025-11-25' });
  });
  afterAll(() => session.close());

  it.each(GUARDED_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s: decline, cancel and an unticked submit change nothing; approve acts',
    async (name, tool) => {
      const target = await targets.create(tool);
      expect(await target.changed(), 'the fresh target already shows the effect').toBe(false);

      const refusals: Array<[PersonAnswer, RegExp]> = [
        ['decline', /the person declined/],
        ['cancel', /the person dismissed the dialog/],
        ['submit-unticked', /the person submitted the dialog without approving/],
      ];
      for (const [answer, says] of refusals) {
        session.answer = answer;
        const shown = session.dialogs.length;
        const result = await session.call(name, target.args);
        expect(session.dialogs.length, `${answer}: exactly one dialog`).toBe(shown + 1);
        expect(result.isError, `${answer}: ${textOf(result)}`).toBe(true);
        expect(textOf(result)).toMatch(/^Nothing was changed/);
        expect(textOf(result)).toMatch(says);
        expect(textOf(result)).toContain(`${name} did not run`);
        expect(
          (result.structuredContent as Record<string, unknown> | undefined)?.confirm_token,
        ).toBeUndefined();
        expect(await target.changed(), `${answer} changed something`).toBe(false);
      }

      session.answer = 'approve';
      const shown = session.dialogs.length;
      const result = await session.call(name, target.args);
      expect(session.dialogs.length).toBe(shown + 1);
      const message = session.dialogs.at(-1)!;
      expect(message).toMatch(/^This will /);
      for (const id of target.ids) expect(message).toMatch(new RegExp(`\\b${id}\\b`));
      for (const fact of target.shows) expect(message).toContain(fact);
      // An id the call does not use is left out, never shown as a placeholder.
      expect(message).not.toContain('–');
      // The page to check it on: WOODPECKER_URL and ids only.
      if (tools.find((served) => served.name === name)?.guard?.links)
        expect(message).toMatch(
          new RegExp(`\\nCheck it in Woodpecker: [a-z0-9 ]+, ${escaped(harnessUrl())}/[a-z0-9/]+$`),
        );
      expectActed(target, result);
      expect(await target.changed(), 'an approved call did not act').toBe(true);
    },
  );
});
