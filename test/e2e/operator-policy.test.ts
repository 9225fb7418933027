// The operator's policy against the real Woodpecker: a rule that denies starts nothing, a
// rule that asks makes trigger_pipeline (unguarded in tools.yaml) ask, and its approval
// starts exactly one build on both protocol revisions and the token path; a limit refuses
// the build over it with when it may run. The audit log names the rule each time.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminApi, createRepo, harnessInfo, serverOlderThan } from '../harness/fixtures.js';
import { APPROVE_RESPONSE, expectQuestion, isInputRequired, rawCall } from './guardRounds.js';
import { openSession, textOf, withSession } from './mcpSession.js';
import { harnessWoodpecker, runSourceServer } from './stdioServer.js';

function policyFile(text: string): { policy: string; audit: string } {
  const dir = mkdtempSync(join(tmpdir(), 'policy-'));
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, text);
  return { policy, audit: join(dir, 'audit.jsonl') };
}

const askOnMain = `rules:
  - name: protect-main
    tools: [trigger_pipeline]
    branches: [main]
    effect: ask
    because: main deploys to production
`;

async function pipelinesOf(repoId: number): Promise<number> {
  return (await adminApi().get<unknown[]>(`/api/repos/${repoId}/pipelines`)).length;
}

function auditLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('WOODPECKER_MCP_POLICY on the real Woodpecker', () => {
  it('a file that tries to remove caution stops the server, naming file and line', () => {
    const { policy } = policyFile(
      'rules:\n  - name: no-questions\n    tools: [delete_repository]\n    effect: ask\n    never_ask: true\n',
    );
    const started = runSourceServer([], { ...harnessWoodpecker(), WOODPECKER_MCP_POLICY: policy });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain(`${policy}:5: rules[0]: an unknown key;`);
    expect(started.stderr).toContain('a policy can only add caution');
    expect(started.stderr).not.toContain(harnessInfo().adminToken);
  });

  it('deny: refused naming the rule, nothing started, the audit line names the rule', async () => {
    const repo = await createRepo();
    const { policy, audit } = policyFile(`rules:
  - name: no-builds-here
    tools: [trigger_pipeline]
    repositories: [${repo.repoId}]
    effect: deny
    because: this repository is frozen
`);
    await withSession(
      {
        revision: '2025-11-25',
        env: { WOODPECKER_MCP_POLICY: policy, WOODPECKER_MCP_AUDIT_LOG: audit },
      },
      async (session) => {
        const result = await session.call('trigger_pipeline', {
          repo_id: repo.repoId,
          branch: 'main',
        });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(
          `trigger_pipeline: refused by the operator's policy (rule "no-builds-here": this repository is frozen). Nothing was done.`,
        );
        expect(session.dialogs).toEqual([]);
      },
    );
    expect(await pipelinesOf(repo.repoId)).toBe(0);
    expect(auditLines(audit)).toEqual([
      expect.objectContaining({
        tool: 'trigger_pipeline',
        outcome: 'refused',
        rules: ['no-builds-here'],
      }),
    ]);
  });

  // Before 3.15 a cron has no `enabled` and every cron fires. create_cron needs `enabled`
  // on every release and takes only true before 3.15 (what such a release does anyway), so
  // a cron that fires always arrives as `enabled: true`, which the policy counts; a cron
  // that never fires (false, from 3.15) is not a build start.
  it('create_cron on main under a deny: every cron that fires is refused, a disabled one is created', async () => {
    const repo = await createRepo();
    const { policy } = policyFile(`rules:
  - name: no-builds-on-main
    tools: [trigger_pipeline]
    repositories: [${repo.repoId}]
    branches: [main]
    effect: deny
`);
    const cron = { repo_id: repo.repoId, name: 'nightly', schedule: '0 3 * * *', branch: 'main' };
    await withSession(
      { revision: '2025-11-25', env: { WOODPECKER_MCP_POLICY: policy } },
      async (session) => {
        const unflagged = await session.call('create_cron', cron);
        expect(unflagged.isError).toBe(true);
        expect(textOf(unflagged)).toContain('enabled is required');
        const firing = await session.call('create_cron', { ...cron, enabled: true });
        expect(firing.isError).toBe(true);
        expect(textOf(firing)).toContain('rule "no-builds-on-main"');
        const disabled = await session.call('create_cron', { ...cron, enabled: false });
        if (serverOlderThan('3.15.0')) {
          expect(disabled.isError).toBe(true);
          expect(textOf(disabled)).toContain('enabled needs Woodpecker ≥ 3.15');
        } else {
          expect(disabled.isError, textOf(disabled)).toBeFalsy();
        }
      },
    );
    // 3.11 answers an empty list as null.
    const crons =
      (await adminApi().get<{ enabled?: boolean }[] | null>(`/api/repos/${repo.repoId}/cron`)) ??
      [];
    expect(crons.map((entry) => entry.enabled)).toEqual(serverOlderThan('3.15.0') ? [] : [false]);
  });

  it('ask on 2026-07-28: the approval starts one build; the same approval again starts nothing and says so', async () => {
    const repo = await createRepo();
    const { policy, audit } = policyFile(askOnMain);
    const session = await openSession({
      revision: '2026-07-28',
      autoFulfill: false,
      env: { WOODPECKER_MCP_POLICY: policy, WOODPECKER_MCP_AUDIT_LOG: audit },
    });
    try {
      const args = { repo_id: repo.repoId, branch: 'main' };
      const question = expectQuestion(await rawCall(session, 'trigger_pipeline', args), [
        repo.repoId,
      ]);
      expect(question.message).toContain('rule "protect-main" (main deploys to production)');
      expect(await pipelinesOf(repo.repoId)).toBe(0);
      const retry = { requestState: question.requestState, inputResponses: APPROVE_RESPONSE };
      const started = await rawCall(session, 'trigger_pipeline', args, retry);
      expect(isInputRequired(started)).toBe(false);
      expect((started as { isError?: boolean }).isError).toBeFalsy();
      expect(await pipelinesOf(repo.repoId)).toBe(1);
      const replayed = await rawCall(session, 'trigger_pipeline', args, retry);
      expect((replayed as { isError?: boolean }).isError).toBe(true);
      expect(JSON.stringify(replayed)).toContain(
        'Nothing was started: this approval was used already',
      );
      expect(await pipelinesOf(repo.repoId)).toBe(1);
      // Another branch is not asked about.
      const other = await rawCall(session, 'trigger_pipeline', {
        ...args,
        branch: 'no-such-branch',
      });
      expect(isInputRequired(other)).toBe(false);
    } finally {
      await session.close();
    }
    expect(auditLines(audit).slice(0, 2)).toEqual([
      expect.objectContaining({
        outcome: 'done',
        approval: 'sealed answer',
        rules: ['protect-main'],
      }),
      expect.objectContaining({ outcome: 'refused', rules: ['protect-main'] }),
    ]);
  });

  it('ask on 2025-11-25: each build is a dialog of its own', async () => {
    const repo = await createRepo();
    const { policy } = policyFile(askOnMain);
    await withSession(
      { revision: '2025-11-25', env: { WOODPECKER_MCP_POLICY: policy } },
      async (session) => {
        const args = { repo_id: repo.repoId, branch: 'main' };
        for (const expected of [1, 2]) {
          const result = await session.call('trigger_pipeline', args);
          expect(result.isError, textOf(result)).toBeFalsy();
          expect(session.dialogs).toHaveLength(expected);
          expect(await pipelinesOf(repo.repoId)).toBe(expected);
        }
        expect(session.dialogs[0]).toContain('protect-main');
        session.answer = 'decline';
        expect((await session.call('trigger_pipeline', args)).isError).toBe(true);
        expect(await pipelinesOf(repo.repoId)).toBe(2);
      },
    );
  });

  it('ask without a dialog: the confirm_token starts one build; the same token again starts nothing', async () => {
    const repo = await createRepo();
    const { policy } = policyFile(askOnMain);
    await withSession(
      { revision: '2025-11-25', canElicit: false, env: { WOODPECKER_MCP_POLICY: policy } },
      async (session) => {
        const args = { repo_id: repo.repoId, branch: 'main' };
        const first = await session.call('trigger_pipeline', args);
        const token = (first.structuredContent as { confirm_token?: string }).confirm_token;
        expect(typeof token).toBe('string');
        expect(await pipelinesOf(repo.repoId)).toBe(0);
        const started = await session.call('trigger_pipeline', { ...args, confirm_token: token });
        expect(started.isError, textOf(started)).toBeFalsy();
        expect(await pipelinesOf(repo.repoId)).toBe(1);
        const again = await session.call('trigger_pipeline', { ...args, confirm_token: token });
        expect(again.isError).toBe(true);
        expect(textOf(again)).toContain('this approval was used already');
        expect(await pipelinesOf(repo.repoId)).toBe(1);
      },
    );
  });

  it('limit: the build over it is refused with when it may run, and counts nothing', async () => {
    const repo = await createRepo();
    const { policy, audit } = policyFile(`rules:
  - name: two-an-hour
    groups: [pipelines]
    effect: limit
    limit: { builds: 2, per: repository, window: 1h }
`);
    await withSession(
      {
        revision: '2025-11-25',
        env: { WOODPECKER_MCP_POLICY: policy, WOODPECKER_MCP_AUDIT_LOG: audit },
      },
      async (session) => {
        const args = { repo_id: repo.repoId, branch: 'main' };
        for (const _ of [1, 2]) {
          const result = await session.call('trigger_pipeline', args);
          expect(result.isError, textOf(result)).toBeFalsy();
        }
        const refused = await session.call('trigger_pipeline', args);
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain(
          'refused by the operator\'s policy (rule "two-an-hour": at most 2 builds per repository in 1h)',
        );
        expect(textOf(refused)).toMatch(
          /The next build may start at \d{4}-\d\d-\d\dT[\d:.]+Z \(in \d+ minutes\)/,
        );
        expect(refused.structuredContent).toMatchObject({ refused_by_rule: 'two-an-hour' });
      },
    );
    expect(await pipelinesOf(repo.repoId)).toBe(2);
    expect(auditLines(audit).map((line) => [line.outcome, line.rules])).toEqual([
      ['done', ['two-an-hour']],
      ['done', ['two-an-hour']],
      ['refused', ['two-an-hour']],
    ]);
  });

  it('restart_pipeline: the branch and target a rule matches come from the pipeline it re-runs', async () => {
    const repo = await createRepo();
    const { policy } = policyFile(`rules:
  - name: restart-main
    tools: [restart_pipeline]
    branches: [main]
    effect: ask
  - name: no-prod
    tools: [restart_pipeline]
    deploy_to: [prod*]
    effect: deny
`);
    await withSession(
      { revision: '2025-11-25', env: { WOODPECKER_MCP_POLICY: policy } },
      async (session) => {
        const started = await session.ok<{ number: number }>('trigger_pipeline', {
          repo_id: repo.repoId,
          branch: 'main',
        });
        // trigger_pipeline is named by no rule: nobody was asked.
        expect(session.dialogs).toEqual([]);
        await session.call('wait_for_pipeline', {
          repo_id: repo.repoId,
          number: started.number,
          timeout_seconds: 120,
        });
        const denied = await session.call('restart_pipeline', {
          repo_id: repo.repoId,
          number: started.number,
          event: 'deployment',
          deploy_to: 'production',
        });
        expect(textOf(denied)).toContain('(rule "no-prod")');
        expect(session.dialogs).toEqual([]);
        // No branch in the arguments: the rule matched main by reading the pipeline.
        const restarted = await session.call('restart_pipeline', {
          repo_id: repo.repoId,
          number: started.number,
        });
        expect(restarted.isError, textOf(restarted)).toBeFalsy();
        expect(session.dialogs).toHaveLength(1);
        expect(session.dialogs[0]).toContain('restart-main');
        expect(await pipelinesOf(repo.repoId)).toBe(2);
      },
    );
  }, 240_000);
});
