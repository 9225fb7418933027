// The two-call token: a client that cannot show a dialog, and (separately) a client that
// can while the server runs with ELICITATION=false. The first call changes nothing and
// returns a confirm_token; only the same call with that token acts. A token proves the
// call was made twice with the same arguments, so it must not stretch to other targets,
// a wider body or another tool.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { APPROVAL_TTL_SECONDS } from '../../runtime/gate/gate.js';
import { adminApi, createRepo, stepLogLines } from '../harness/fixtures.js';
import { runsOnPinnedRelease } from '../harness/woodpecker-binaries.js';
import { expectActed, GUARDED_TOOLS, guardedTool, Targets } from './guardedTools.js';
import { approvalRepo, blockedPipelines, finishedPipeline } from './guardFixtures.js';
import { Clock, tamper } from './guardRounds.js';
import type { McpSession, Revision, SessionOptions } from './mcpSession.js';
import { openSession, textOf } from './mcpSession.js';

const targets = new Targets();
afterEach(() => targets.cleanupAll());

interface TokenPath {
  readonly label: string;
  readonly options: SessionOptions;
  /** Who the text says did not ask. */
  readonly why: 'client' | 'server';
}

// Both revisions on the pinned release. On another release one: the revisions differ in
// this server's transport, not in what Woodpecker is asked or answers.
const REVISIONS: Revision[] = runsOnPinnedRelease() ? ['2025-11-25', '2026-07-28'] : ['2026-07-28'];
const PATHS: readonly TokenPath[] = REVISIONS.flatMap((revision) => [
  {
    label: `${revision}, client without dialogs`,
    options: { revision, canElicit: false },
    why: 'client' as const,
  },
  {
    label: `${revision}, client with dialogs, ELICITATION=false`,
    options: { revision, env: { ELICITATION: 'false' } },
    why: 'server' as const,
  },
]);

function tokenOf(result: CallToolResult): string {
  const structured = result.structuredContent as
    { confirm_token?: unknown; confirmation_required?: unknown } | undefined;
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(structured?.confirmation_required).toBe(true);
  expect(typeof structured?.confirm_token, `no confirm_token in ${textOf(result)}`).toBe('string');
  return structured!.confirm_token as string;
}

function expectTokenText(result: CallToolResult, name: string, why: 'client' | 'server'): void {
  const text = textOf(result);
  expect(text).toContain(`call ${name} again with exactly the same arguments and confirm_token`);
  expect(text).toContain(
    'The token proves only that the call was made twice with the same arguments.',
  );
  expect(text).toContain('It does not prove that a person saw or approved it');
  expect((result.structuredContent as { proves?: unknown }).proves).toBe(
    'only that the call was made twice with the same arguments',
  );
  if (why === 'server') {
    expect(text).toContain('woodpecker-ci-mcp did not ask a person');
    expect(text).toContain('ELICITATION=false');
    expect(text).not.toMatch(/client did not declare/);
  } else {
    expect(text).toContain('this MCP client did not declare support for dialogs');
    expect(text).not.toContain('ELICITATION=false');
  }
}

/** A token that was given but does not fit: nothing done, a fresh token instead. */
function expectRefusedToken(result: CallToolResult, given: string): void {
  expect(textOf(result)).toMatch(/^The confirm_token given does not belong to this call/);
  expect(tokenOf(result)).not.toBe(given);
}

// First in the file: the swapped pair needs as many pipelines as the repository ids are
// large, and ids only grow during a run.
describe('a token does not stretch', () => {
  const clock = new Clock();
  let session: McpSession;
  beforeAll(async () => {
    session = await openSession({ revision: '2025-11-25', canElicit: false, now: clock.now });
  });
  afterAll(() => session?.close());
  afterEach(() => clock.reset());

  it('approve_pipeline: a token for (repo_id: X, number: Y) does not approve (repo_id: Y, number: X)', async () => {
    const [first, second] = [await approvalRepo(), await approvalRepo()];
    // Pipeline numbers count per repository: give each enough blocked pipelines that the
    // other's id is one of its numbers, so both the pair and the swapped pair are real.
    await blockedPipelines(first, second.repoId);
    await blockedPipelines(second, first.repoId);
    const status = async (repoId: number, number: number) =>
      (await adminApi().get<{ status: string }>(`/api/repos/${repoId}/pipelines/${number}`)).status;
    expect(await status(first.repoId, second.repoId)).toBe('blocked');
    expect(await status(second.repoId, first.repoId)).toBe('blocked');

    const asked = await session.call('approve_pipeline', {
      repo_id: first.repoId,
      number: second.repoId,
    });
    const token = tokenOf(asked);
    const swapped = await session.call('approve_pipeline', {
      repo_id: second.repoId,
      number: first.repoId,
      confirm_token: token,
    });
    expectRefusedToken(swapped, token);
    expect(await status(second.repoId, first.repoId)).toBe('blocked');
    expect(await status(first.repoId, second.repoId)).toBe('blocked');

    const right = await session.call('approve_pipeline', {
      repo_id: first.repoId,
      number: second.repoId,
      confirm_token: token,
    });
    expect(right.isError, textOf(right)).toBeFalsy();
    expect(await status(first.repoId, second.repoId)).not.toBe('blocked');
    expect(await status(second.repoId, first.repoId)).toBe('blocked');
  });

  it('update_repository: a token for trusted_network does not carry visibility: public', async () => {
    const repo = await createRepo({ private: true });
    const read = async () =>
      adminApi().get<{ visibility: string; trusted: { network: boolean } }>(
        `/api/repos/${repo.repoId}`,
      );
    expect(await read()).toMatchObject({ visibility: 'private', trusted: { network: false } });

    const token = tokenOf(
      await session.call('update_repository', { repo_id: repo.repoId, trusted_network: true }),
    );
    const wider = await session.call('update_repository', {
      repo_id: repo.repoId,
      trusted_network: true,
      visibility: 'public',
      confirm_token: token,
    });
    expectRefusedToken(wider, token);
    expect(await read()).toMatchObject({ visibility: 'private', trusted: { network: false } });

    const agreed = await session.call('update_repository', {
      repo_id: repo.repoId,
      trusted_network: true,
      confirm_token: token,
    });
    expect(agreed.isError, textOf(agreed)).toBeFalsy();
    expect(await read()).toMatchObject({ visibility: 'private', trusted: { network: true } });
  });

  it('a token for one tool does not work for another tool with the same arguments', async () => {
    const { repo, number, stepId } = await finishedPipeline();
    const args = { repo_id: repo.repoId, number };
    const logsToken = tokenOf(await session.call('delete_pipeline_logs', args));
    const other = await session.call('delete_pipeline', { ...args, confirm_token: logsToken });
    expectRefusedToken(other, logsToken);
    expect(
      (await adminApi().request('GET', `/api/repos/${repo.repoId}/pipelines/${number}`)).status,
    ).toBe(200);

    const repoToken = tokenOf(await session.call('delete_repository', { repo_id: repo.repoId }));
    expectRefusedToken(
      await session.call('chown_repository', { repo_id: repo.repoId, confirm_token: repoToken }),
      repoToken,
    );
    expect((await adminApi().get<{ active: boolean }>(`/api/repos/${repo.repoId}`)).active).toBe(
      true,
    );
    expect(await stepLogLines(repo.repoId, number, stepId)).toContain('guarded-log-line');
  });

  it('an expired or tampered token does nothing', async () => {
    const target = await targets.create(guardedTool('delete_agent'));
    const token = tokenOf(await session.call('delete_agent', target.args));
    expectRefusedToken(
      await session.call('delete_agent', { ...target.args, confirm_token: tamper(token) }),
      tamper(token),
    );
    expect(await target.changed()).toBe(false);
    clock.advance(APPROVAL_TTL_SECONDS + 1);
    expectRefusedToken(
      await session.call('delete_agent', { ...target.args, confirm_token: token }),
      token,
    );
    expect(await target.changed()).toBe(false);
    clock.reset();
    expectActed(
      target,
      await session.call('delete_agent', { ...target.args, confirm_token: token }),
    );
    expect(await target.changed()).toBe(true);
  });

  it('a token issued to one account does not act for another', async () => {
    // delete_repository asks before any read, so an account that cannot see the repository
    // still gets a token (delete_agent of a server agent is refused to a non-admin first).
    const target = await targets.create(guardedTool('delete_repository'));
    const asUser = await openSession({ revision: '2025-11-25', canElicit: false, as: 'user' });
    try {
      const theirs = tokenOf(await asUser.call('delete_repository', target.args));
      expectRefusedToken(
        await session.call('delete_repository', { ...target.args, confirm_token: theirs }),
        theirs,
      );
      expect(await target.changed()).toBe(false);
    } finally {
      await asUser.close();
    }
  });
});

describe.each(PATHS)('$label', ({ options, why }) => {
  let session: McpSession;
  beforeAll(async () => {
    session = await openSession(options);
  });
  afterAll(() => session?.close());

  it.each(GUARDED_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s: the first call only returns a token, it does not fit another target, the second call with it acts',
    async (name, tool) => {
      const [a, b] = await targets.createMany(tool, tool.hasTargets ? 2 : 1);
      expect(await a!.changed()).toBe(false);

      const first = await session.call(name, a!.args);
      const token = tokenOf(first);
      expectTokenText(first, name, why);
      for (const fact of a!.shows) expect(textOf(first)).toContain(fact);
      expect(session.dialogs, 'a dialog was shown on the token path').toHaveLength(0);
      expect(await a!.changed(), 'the first call acted').toBe(false);

      if (b) {
        const misused = await session.call(name, { ...b.args, confirm_token: token });
        expectRefusedToken(misused, token);
        expect(await b.changed(), "another target's token acted").toBe(false);
        expect(await a!.changed()).toBe(false);
      }

      const second = await session.call(name, { ...a!.args, confirm_token: token });
      expectActed(a!, second);
      expect(await a!.changed(), 'the second call with the token did not act').toBe(true);
      expect(session.dialogs).toHaveLength(0);
    },
  );
});
