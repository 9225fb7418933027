// What the operator's policy adds to a call: a refusal naming the rule, a question bound
// to the call, or a limit on builds that refuses the call over it with when it may run,
// counting nothing. Facts come from the arguments or from the read tools.yaml declares.
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import type { ToolArgs, WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { OperatorPolicy, withPolicyQuestion } from '../../../runtime/policy/operatorPolicy.js';
import { parsePolicy } from '../../../runtime/policy/policyFile.js';

const byName = new Map(tools.map((tool) => [tool.name, tool] as const));

function policyOf(text: string, now: () => number = Date.now) {
  return new OperatorPolicy('policy.yaml', parsePolicy(text, 'policy.yaml', tools).rules, now);
}

function woodpecker(answers: Record<string, unknown>) {
  const sent: string[] = [];
  const send = async (request: WoodpeckerRequest) => {
    sent.push(request.path);
    if (!(request.path in answers)) throw new Error(`unexpected ${request.path}`);
    return { status: 200, body: answers[request.path], headers: {} } as never;
  };
  return { send, sent };
}

const decide = (
  policy: OperatorPolicy,
  tool: string,
  args: ToolArgs,
  answers = {},
  principal = 'p1',
) => policy.decide({ tool: byName.get(tool)!, args, principal, send: woodpecker(answers).send });

const textOf = (result: { content?: unknown }) =>
  ((result.content as { text: string }[])[0] ?? { text: '' }).text;

describe('the operator policy', () => {
  const example = `rules:
  - name: protect-main
    tools: [trigger_pipeline, restart_pipeline, run_cron]
    branches: [main]
    effect: ask
    because: main deploys to production
  - name: no-prod
    tools: [restart_pipeline]
    repositories: ["acme/*"]
    deploy_to: [prod*]
    effect: deny
  - name: two-an-hour
    groups: [pipelines, crons]
    effect: limit
    limit: { builds: 2, per: repository, window: 1h }
`;

  it('asks about a build on main, bound to a single use, without showing the branch', async () => {
    const verdict = await decide(policyOf(example), 'trigger_pipeline', {
      repo_id: 5,
      branch: 'main',
    });
    expect(verdict.kind).toBe('proceed');
    if (verdict.kind !== 'proceed') return;
    expect(verdict.rules).toEqual(['protect-main', 'two-an-hour']);
    expect(verdict.question?.singleUse).toBe(true);
    expect(verdict.question?.rules).toEqual(['protect-main']);
    expect(verdict.question?.text).toContain('trigger_pipeline with repo_id 5');
    expect(verdict.question?.text).toContain('rule "protect-main" (main deploys to production)');
    expect(verdict.question?.text).not.toContain('main.');
  });

  it('does not ask about another branch', async () => {
    const verdict = await decide(policyOf(example), 'trigger_pipeline', {
      repo_id: 5,
      branch: 'dev',
    });
    expect(verdict).toMatchObject({ kind: 'proceed', rules: ['two-an-hour'] });
    expect(verdict.kind === 'proceed' && verdict.question).toBeFalsy();
  });

  it('reads the pipeline a restart re-runs for its branch, and the repository for its name', async () => {
    const { send, sent } = woodpecker({
      '/api/repos/5/pipelines/12': { branch: 'main', event: 'push', deploy_to: '' },
      '/api/repos/5': { full_name: 'acme/web' },
    });
    const policy = policyOf(example);
    const asked = await policy.decide({
      tool: byName.get('restart_pipeline')!,
      args: { repo_id: 5, number: 12 },
      principal: 'p',
      send,
    });
    expect(asked).toMatchObject({ kind: 'proceed', question: { rules: ['protect-main'] } });
    const denied = await policy.decide({
      tool: byName.get('restart_pipeline')!,
      args: { repo_id: 5, number: 12, event: 'deployment', deploy_to: 'production' },
      principal: 'p',
      send,
    });
    expect(denied.kind).toBe('refused');
    if (denied.kind !== 'refused') return;
    expect(denied.rules).toEqual(['no-prod']);
    expect(textOf(denied.result)).toContain(
      `restart_pipeline: refused by the operator's policy (rule "no-prod")`,
    );
    expect(sent).toContain('/api/repos/5');
  });

  it('treats a fact it could not read as matching: a rule never lapses because a read failed', async () => {
    const verdict = await decide(policyOf(example), 'run_cron', { repo_id: 5, cron_id: 3 }, {});
    expect(verdict).toMatchObject({ kind: 'proceed', question: { rules: ['protect-main'] } });
  });

  it('limits builds per repository: the call over it is refused with when, and counts nothing', async () => {
    let now = 1_000_000;
    const policy = policyOf(example, () => now);
    const start = async (repo: number) => {
      const verdict = await decide(policy, 'trigger_pipeline', { repo_id: repo, branch: 'dev' });
      if (verdict.kind === 'refused') return verdict.result;
      return policy.take(byName.get('trigger_pipeline')!, verdict).refused;
    };
    expect(await start(5)).toBeUndefined();
    now += 60_000;
    expect(await start(5)).toBeUndefined();
    now += 60_000;
    const refused = (await start(5))!;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('rule "two-an-hour": at most 2 builds per repository in 1h');
    expect(textOf(refused)).toContain('Nothing was started and nothing was counted');
    // The first build leaves the window an hour after it started: 58 minutes from now.
    expect(refused.structuredContent).toEqual({
      refused_by_rule: 'two-an-hour',
      retry_after_seconds: 3480,
      retry_at: new Date(1_000_000 + 3_600_000).toISOString(),
    });
    // Another repository has its own count.
    expect(await start(6)).toBeUndefined();
    // The refused call counted nothing: once the first build left the window, one more fits.
    now = 1_000_000 + 3_600_001;
    expect(await start(5)).toBeUndefined();
    expect(await start(5)).toBeDefined();
  });

  it('counts at send: a call that passed the check is refused if the limit filled meanwhile', async () => {
    const policy = policyOf(example);
    const first = await decide(policy, 'trigger_pipeline', { repo_id: 5, branch: 'dev' });
    const second = await decide(policy, 'trigger_pipeline', { repo_id: 5, branch: 'dev' });
    const third = await decide(policy, 'trigger_pipeline', { repo_id: 5, branch: 'dev' });
    const tool = byName.get('trigger_pipeline')!;
    expect(policy.take(tool, first).refused).toBeUndefined();
    expect(policy.take(tool, second).refused).toBeUndefined();
    expect(textOf(policy.take(tool, third).refused!)).toContain('two-an-hour');
  });

  it('limits per credential', async () => {
    const policy = policyOf(
      `rules:\n  - name: one-each\n    tools: [trigger_pipeline]\n    effect: limit\n    limit: { builds: 1, per: credential, window: 10m }\n`,
    );
    const tool = byName.get('trigger_pipeline')!;
    const as = async (principal: string, repo: number) =>
      policy.take(
        tool,
        await decide(policy, 'trigger_pipeline', { repo_id: repo, branch: 'x' }, {}, principal),
      ).refused;
    expect(await as('alice', 1)).toBeUndefined();
    expect(await as('bob', 1)).toBeUndefined();
    const verdict = await decide(
      policy,
      'trigger_pipeline',
      { repo_id: 2, branch: 'x' },
      {},
      'alice',
    );
    expect(verdict.kind).toBe('refused');
  });

  it('gives a tool it may ask about a confirm_token, and leaves the others as they are', () => {
    const policy = policyOf(example);
    const trigger = withPolicyQuestion(byName.get('trigger_pipeline')!, policy);
    expect(trigger.inputSchema.properties).toHaveProperty('confirm_token');
    expect(trigger.description).toContain('may have it ask a person first');
    const cancel = byName.get('cancel_pipeline')!;
    expect(withPolicyQuestion(cancel, policy)).toBe(cancel);
  });
});
