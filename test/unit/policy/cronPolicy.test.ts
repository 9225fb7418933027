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
/** The repository's crons, read when a limit covers a cron (none here). */
const noCrons = { '/api/repos/5/cron': [] };

describe('creating a cron is starting builds', () => {
  it('asks about a cron on main', async () => {
    const verdict = await decide(
      'create_cron',
      { ...cron, schedule: '0 3 * * *', branch: 'main' },
      noCrons,
    ).verdict;
    expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
  });

  it('asks about a cron on the default branch when none is given, reading which that is', async () => {
    const { verdict, sent } = decide(
      'create_cron',
      { ...cron, schedule: '0 3 * * *' },
      { ...repository, ...noCrons },
    );
    const decided = await verdict;
    expect(decided.kind === 'proceed' && decided.question?.rules).toEqual(['protect-main']);
    expect(sent).toEqual(['/api/repos/5', '/api/repos/5/cron']);
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
    const send = (async (request: WoodpeckerRequest) => {
      if (request.path === '/api/repos/5/cron') return { status: 200, headers: {}, body: [] };
      throw new Error(`no read of ${request.path} expected`);
    }) as never;
    const verdict = await p.decide({
      tool,
      args: { ...cron, schedule: '0 3 * * *', branch: 'dev' },
      principal: 'p',
      send,
    });
    expect(verdict.kind).toBe('proceed');
    expect(p.take(tool, verdict)).toEqual({});
    // Nothing was counted now: the limit's three builds are all still there.
    for (let i = 0; i < 3; i++) {
      const trigger = await p.decide({
        tool: byName.get('trigger_pipeline')!,
        args: { repo_id: 5, branch: 'dev' },
        principal: 'p',
        send,
      });
      expect(trigger.kind).toBe('proceed');
      expect(p.take(byName.get('trigger_pipeline')!, trigger).refused).toBeUndefined();
    }
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
    '/api/repos/5/cron': [],
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
      { '/api/repos/5/cron/9': { id: 9, branch: 'dev', schedule: '0 3 * * *' }, ...noCrons },
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
    '/api/repos/5/cron': [],
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

describe("a limit counts the repository's other crons with the new one", () => {
  // Audit: a limit judged one cron at a time, so three "*/20" crons under a limit of three
  // builds an hour all went through, nine builds an hour between them.
  const every20 = (id: number, more: Record<string, unknown> = {}) => ({
    id,
    name: `c${id}`,
    branch: 'dev',
    schedule: '*/20 * * * *',
    enabled: true,
    ...more,
  });

  function textOf(verdict: Awaited<ReturnType<OperatorPolicy['decide']>>): string {
    if (verdict.kind !== 'refused') throw new Error(`expected a refusal, got ${verdict.kind}`);
    return (verdict.result.content as { text: string }[])[0]!.text;
  }

  it('the second "*/20" cron under three an hour is refused, naming the total and the room', async () => {
    const first = decide(
      'create_cron',
      { ...cron, schedule: '*/20 * * * *', branch: 'dev' },
      { '/api/repos/5/cron': [] },
    );
    expect((await first.verdict).kind).toBe('proceed');
    const second = decide(
      'create_cron',
      { ...cron, schedule: '*/20 * * * *', branch: 'dev' },
      { '/api/repos/5/cron': [every20(1)] },
    );
    const text = textOf(await second.verdict);
    expect(text).toContain('rule "three-an-hour": at most 3 builds per repository in 1h');
    expect(text).toContain('1 other enabled cron');
    expect(text).toContain('up to 3 builds in 1h');
    expect(text).toMatch(/no schedule fits/i);
    expect(text).not.toContain('c1');
    // One read of the list, one page of Woodpecker's largest.
    expect(second.sent.filter((path) => path === '/api/repos/5/cron')).toHaveLength(1);
  });

  it('what fits is said: 1 an hour already there leaves room for 2', async () => {
    const existing = { '/api/repos/5/cron': [every20(1, { schedule: '0 * * * *' })] };
    const fits = await decide(
      'create_cron',
      { ...cron, schedule: '*/30 * * * *', branch: 'dev' },
      existing,
    ).verdict;
    expect(fits.kind).toBe('proceed');
    const text = textOf(
      await decide('create_cron', { ...cron, schedule: '*/20 * * * *', branch: 'dev' }, existing)
        .verdict,
    );
    expect(text).toContain('at most 2 builds in 1h fits');
  });

  it('disabled crons, and crons on a branch the limit does not cover, are not counted', async () => {
    const onMain = new OperatorPolicy(
      'p.yaml',
      parsePolicy(
        'rules:\n  - name: main-limit\n    tools: [trigger_pipeline]\n    branches: [main]\n    effect: limit\n    limit: { builds: 3, per: repository, window: 1h }\n',
        'p.yaml',
        tools,
      ).rules,
    );
    const list = [
      every20(1, { enabled: false, branch: 'main' }),
      every20(2, { branch: 'dev' }),
      every20(3, { branch: '' }),
    ];
    const send = (async (request: WoodpeckerRequest) => {
      if (request.path === '/api/repos/5/cron') return { status: 200, headers: {}, body: list };
      if (request.path === '/api/repos/5')
        return { status: 200, headers: {}, body: { id: 5, default_branch: 'trunk' } };
      throw new Error(`unexpected ${request.path}`);
    }) as never;
    const verdict = await onMain.decide({
      tool: byName.get('create_cron')!,
      args: { ...cron, schedule: '*/20 * * * *', branch: 'main' },
      principal: 'p',
      send,
    });
    expect(verdict.kind).toBe('proceed');
    // The cron without a branch runs the default branch: when that is main, it counts.
    const onDefault = await onMain.decide({
      tool: byName.get('create_cron')!,
      args: { ...cron, schedule: '*/20 * * * *', branch: 'main' },
      principal: 'p',
      send: (async (request: WoodpeckerRequest) =>
        request.path === '/api/repos/5'
          ? { status: 200, headers: {}, body: { id: 5, default_branch: 'main' } }
          : (send as (r: WoodpeckerRequest) => Promise<unknown>)(request)) as never,
    });
    expect(textOf(onDefault)).toContain('1 other enabled cron');
  });

  it('a crons list without `enabled` (before Woodpecker 3.17) counts every cron', async () => {
    const { enabled: _, ...old } = every20(1);
    const verdict = await decide(
      'create_cron',
      { ...cron, schedule: '*/20 * * * *', branch: 'dev' },
      { '/api/repos/5/cron': [old] },
    ).verdict;
    expect(verdict.kind).toBe('refused');
  });

  it('update_cron leaves out the cron it changes', async () => {
    const answers = {
      '/api/repos/5/cron/9': every20(9, { enabled: false, schedule: '0 3 * * *' }),
      '/api/repos/5/cron': [every20(9, { enabled: true })],
    };
    const faster = await decide(
      'update_cron',
      { repo_id: 5, cron_id: 9, schedule: '*/20 * * * *' },
      answers,
    ).verdict;
    expect(faster.kind).toBe('proceed');
    const enabling = await decide(
      'update_cron',
      { repo_id: 5, cron_id: 9, enabled: true },
      { ...answers, '/api/repos/5/cron': [every20(9), every20(4)] },
    ).verdict;
    expect(textOf(enabling)).toContain('1 other enabled cron');
  });

  it('a list that cannot be read refuses: the limit is not judged blind', async () => {
    const text = textOf(
      await decide('create_cron', { ...cron, schedule: '0 3 * * *', branch: 'dev' }).verdict,
    );
    expect(text).toContain("the repository's crons could not be read");
    expect(text).toContain('Nothing was changed');
  });

  it('a full page of crons refuses: the ones after it are not seen', async () => {
    const list = Array.from({ length: 50 }, (_, index) => every20(index + 1, { enabled: false }));
    const text = textOf(
      await decide(
        'create_cron',
        { ...cron, schedule: '0 3 * * *', branch: 'dev' },
        { '/api/repos/5/cron': list },
      ).verdict,
    );
    expect(text).toContain('50 crons or more');
  });
});
