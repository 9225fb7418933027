// A cron is a build start that happens later: rules that cover starting builds
// (trigger_pipeline, restart_pipeline, run_cron, approve_pipeline) cover creating a cron,
// enabling one and changing its branch or schedule (issue 34: a cron on main with
// "* * * * *" went through with no question and started 6 builds in 145 s past a limit of 3).
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import type { ToolArgs, WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { OperatorPolicy } from '../../../runtime/policy/operatorPolicy.js';
import { parsePolicy } from '../../../runtime/policy/policyFile.js';

const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
const POLICY = `rules:
  - name: protect-main
    tools: [trigger_pipeline, restart_pipeline, run_cron, approve_pipeline]
    branches: [main]
    effect: ask
  - name: no-release-crons
    tools: [run_cron]
    branches: [release/*]
    effect: deny
  - name: three-an-hour
    groups: [pipelines]
    effect: limit
    limit: { builds: 3, per: repository, window: 1h }
`;
const policy = () => new OperatorPolicy('p.yaml', parsePolicy(POLICY, 'p.yaml', tools).rules);

function decide(tool: string, args: ToolArgs, answers: Record<string, unknown> = {}) {
  const sent: string[] = [];
  const send = async (request: WoodpeckerRequest) => {
    sent.push(request.path);
    if (!(request.path in answers)) throw new Error(`unexpected ${request.path}`);
    return { status: 200, headers: {}, body: answers[request.path] };
  };
  return {
    sent,
    verdict: policy().decide({
      tool: byName.get(tool)!,
      args,
      principal: 'p',
      send: send as never,
    }),
  };
}

const cron = { repo_id: 5, name: 'nightly', enabled: true };
const repository = { '/api/repos/5': { id: 5, default_branch: 'main', full_name: 'a/b' } };

describe('creating a cron is starting builds', () => {
  it('asks about a cron on main', async () => {
    const verdict = await decide('create_cron', { ...cron, schedule: '0 3 * * *', branch: 'main' })
      .verdict;
    expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
  });

  it('asks about a cron on the default branch when none is given, reading which that is', async () => {
    const { verdict, sent } = decide('create_cron', { ...cron, schedule: '0 3 * * *' }, repository);
    const decided = await verdict;
    expect(decided.kind === 'proceed' && decided.question?.rules).toEqual(['protect-main']);
    expect(sent).toEqual(['/api/repos/5']);
  });

  it('denies a cron where running crons is denied', async () => {
    const verdict = await decide('create_cron', {
      ...cron,
      schedule: '0 3 * * *',
      branch: 'release/2',
    }).verdict;
    expect(verdict.kind).toBe('refused');
  });

  it('refuses a schedule that would start more builds than a limit allows, saying how many', async () => {
    const verdict = await decide('create_cron', { ...cron, schedule: '* * * * *', branch: 'dev' })
      .verdict;
    expect(verdict.kind).toBe('refused');
    if (verdict.kind !== 'refused') return;
    expect(verdict.rules).toEqual(['three-an-hour']);
    const text = (verdict.result.content as { text: string }[])[0]!.text;
    expect(text).toContain('60 builds');
    expect(text).toContain('at most 3 builds per repository in 1h');
  });

  it('lets a schedule within the limit through without counting a build now', async () => {
    const p = policy();
    const tool = byName.get('create_cron')!;
    const send = (() => Promise.reject(new Error('no read expected'))) as never;
    for (let i = 0; i < 5; i++) {
      const verdict = await p.decide({
        tool,
        args: { ...cron, schedule: '0 3 * * *', branch: 'dev' },
        principal: 'p',
        send,
      });
      expect(verdict.kind).toBe('proceed');
      expect(p.take(tool, verdict)).toEqual({});
    }
    const trigger = await p.decide({
      tool: byName.get('trigger_pipeline')!,
      args: { repo_id: 5, branch: 'dev' },
      principal: 'p',
      send,
    });
    expect(trigger.kind).toBe('proceed');
  });

  it('a cron created disabled schedules nothing, and is not asked about', async () => {
    const verdict = await decide('create_cron', {
      ...cron,
      enabled: false,
      schedule: '* * * * *',
      branch: 'main',
    }).verdict;
    expect(verdict).toMatchObject({ kind: 'proceed' });
    expect(verdict.kind === 'proceed' && verdict.question).toBeFalsy();
  });
});

describe('changing a cron', () => {
  const current = {
    '/api/repos/5/cron/9': { id: 9, branch: 'main', schedule: '0 3 * * *', enabled: false },
  };

  it('enabling a cron on main asks (the branch read from the cron)', async () => {
    const verdict = await decide('update_cron', { repo_id: 5, cron_id: 9, enabled: true }, current)
      .verdict;
    expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
  });

  it('moving a cron to main asks', async () => {
    const verdict = await decide(
      'update_cron',
      { repo_id: 5, cron_id: 9, branch: 'main' },
      { '/api/repos/5/cron/9': { id: 9, branch: 'dev', schedule: '0 3 * * *' } },
    ).verdict;
    expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
  });

  it('a faster schedule is held to the limit, with the schedule given', async () => {
    const verdict = await decide(
      'update_cron',
      { repo_id: 5, cron_id: 9, schedule: '*/10 * * * *' },
      { '/api/repos/5/cron/9': { id: 9, branch: 'dev', schedule: '0 3 * * *' } },
    ).verdict;
    expect(verdict.kind).toBe('refused');
  });

  it('enabling a cron whose stored schedule is too fast is held to the limit', async () => {
    const verdict = await decide(
      'update_cron',
      { repo_id: 5, cron_id: 9, enabled: true },
      { '/api/repos/5/cron/9': { id: 9, branch: 'dev', schedule: '* * * * *' } },
    ).verdict;
    expect(verdict.kind).toBe('refused');
  });

  it('renaming or disabling a cron is not a build start', async () => {
    for (const change of [{ name: 'renamed' }, { enabled: false }]) {
      const verdict = await decide(
        'update_cron',
        { repo_id: 5, cron_id: 9, ...change },
        { '/api/repos/5/cron/9': { id: 9, branch: 'main', schedule: '* * * * *' } },
      ).verdict;
      expect(verdict).toMatchObject({ kind: 'proceed' });
      expect(verdict.kind === 'proceed' && verdict.question).toBeFalsy();
    }
  });

  it('a schedule the read could not return counts as the fastest', async () => {
    const verdict = await decide('update_cron', { repo_id: 5, cron_id: 9, enabled: true }).verdict;
    expect(verdict.kind).toBe('refused');
  });
});

describe('a cron without a branch runs the default branch', () => {
  // Outside attack (third round) B2: a cron stored with branch "" (every cron created
  // without one) is run on the repository's default branch, yet a rule on main did not see it.
  const stored = {
    '/api/repos/5/cron/9': { id: 9, branch: '', schedule: '0 3 * * *', enabled: false },
    ...repository,
  };

  it('run_cron of such a cron asks under a rule on main', async () => {
    const verdict = await decide('run_cron', { repo_id: 5, cron_id: 9 }, stored).verdict;
    expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
  });

  it('enabling such a cron asks', async () => {
    const verdict = await decide('update_cron', { repo_id: 5, cron_id: 9, enabled: true }, stored)
      .verdict;
    expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
  });

  it('create_cron refuses an empty branch (omit it for the default branch)', async () => {
    const { ArgumentValidator } = await import('../../../runtime/call/argumentValidator.js');
    const tool = byName.get('create_cron')!;
    const result = new ArgumentValidator().getValidator(tool.inputSchema as never)({
      ...cron,
      schedule: '@daily',
      branch: '',
    });
    expect(result.valid).toBe(false);
    expect(result.errorMessage).toMatch(/^branch /);
  });
});

describe('doctor shows the crons a rule covers', () => {
  it('names the tools added because they schedule builds', () => {
    const described = policy().describe();
    expect(described[0]).toContain('create_cron');
    expect(described[0]).toContain('update_cron');
  });
});
