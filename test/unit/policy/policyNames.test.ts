// Issue 34's attacks on the policy's names: a deny on a deployment target or a branch must
// hold for every spelling Woodpecker, the forge or a pipeline's script reads as that name.
// Arguments with invisible characters or surrounding whitespace never get here (the
// argument check refuses them, test/unit/call/plainArguments.test.ts); what Woodpecker
// stored (a pipeline's deploy_to read back) can hold anything, and is compared folded.
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import type { ToolArgs, WoodpeckerRequest } from '../../../runtime/core/tool.js';
import { OperatorPolicy } from '../../../runtime/policy/operatorPolicy.js';
import { parsePolicy } from '../../../runtime/policy/policyFile.js';

const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
const policy = () =>
  new OperatorPolicy(
    'policy.yaml',
    parsePolicy(
      `rules:
  - name: no-production
    tools: [restart_pipeline, approve_pipeline]
    deploy_to: [production, prod-*]
    effect: deny
  - name: protect-main
    tools: [trigger_pipeline, restart_pipeline, run_cron, approve_pipeline]
    branches: [main, release/*]
    effect: ask
`,
      'policy.yaml',
      tools,
    ).rules,
  );

async function verdictOf(tool: string, args: ToolArgs, pipeline: Record<string, unknown> = {}) {
  const send = async (request: WoodpeckerRequest) => {
    if (request.path === '/api/repos/5/cron/2')
      return {
        status: 200,
        headers: {},
        body: { id: 2, name: 'n', branch: 'dev', schedule: '@daily', enabled: true },
      };
    if (request.path === '/api/repos/5/cron') return { status: 200, headers: {}, body: [] };
    if (request.path.startsWith('/api/repos/5/pipelines/'))
      return {
        status: 200,
        headers: {},
        body: { id: 77, branch: 'dev', event: 'push', ...pipeline },
      };
    throw new Error(`unexpected ${request.path}`);
  };
  return policy().decide({ tool: byName.get(tool)!, args, principal: 'p', send: send as never });
}

describe('deployment targets are compared as a deployment reads them', () => {
  it.each(['production', 'Production', 'PRODUCTION', 'PROD-EU', 'Prod-us', 'ｐｒｏｄｕｃｔｉｏｎ'])(
    'restart as a deployment to %j is denied',
    async (target) => {
      const verdict = await verdictOf('restart_pipeline', {
        repo_id: 5,
        number: 3,
        event: 'deployment',
        deploy_to: target,
      });
      expect(verdict.kind).toBe('refused');
    },
  );

  it.each(['production ', 'production\n', ' production', 'produ\u200bction', 'PRODUCTION\u00a0'])(
    'a pipeline stored with deploy_to %j is denied on approval',
    async (stored) => {
      const verdict = await verdictOf(
        'approve_pipeline',
        { repo_id: 5, number: 3 },
        { event: 'deployment', deploy_to: stored },
      );
      expect(verdict.kind).toBe('refused');
    },
  );

  it('another target is not denied', async () => {
    const verdict = await verdictOf('restart_pipeline', {
      repo_id: 5,
      number: 3,
      event: 'deployment',
      deploy_to: 'staging',
    });
    expect(verdict.kind).toBe('proceed');
  });
});

describe('a question is about the object the policy read', () => {
  it('carries the pipeline id a restart would re-run, even when no rule needs a fact', async () => {
    const rules = parsePolicy(
      'rules:\n  - name: ask-restarts\n    tools: [restart_pipeline]\n    effect: ask\n',
      'p.yaml',
      tools,
    ).rules;
    const send = async () => ({ status: 200, headers: {}, body: { id: 77, branch: 'dev' } });
    const verdict = await new OperatorPolicy('p.yaml', rules).decide({
      tool: byName.get('restart_pipeline')!,
      args: { repo_id: 5, number: 8 },
      principal: 'p',
      send: send as never,
    });
    expect(verdict.kind === 'proceed' && verdict.question?.identity).toBe(77);
  });
});

describe('branches are compared as the forge reads them', () => {
  it.each(['main', 'Main', 'refs/heads/main', 'Release/1.2', 'refs/heads/release/2'])(
    'a trigger on %j asks',
    async (branch) => {
      const verdict = await verdictOf('trigger_pipeline', { repo_id: 5, branch });
      expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
    },
  );

  it.each(['main ', 'refs/heads/main\n', 'mai\u200bn'])(
    'a restart of a pipeline stored on branch %j asks',
    async (branch) => {
      const verdict = await verdictOf('restart_pipeline', { repo_id: 5, number: 3 }, { branch });
      expect(verdict.kind === 'proceed' && verdict.question?.rules).toEqual(['protect-main']);
    },
  );

  it('another branch does not ask', async () => {
    const verdict = await verdictOf('trigger_pipeline', { repo_id: 5, branch: 'maintenance' });
    expect(verdict.kind === 'proceed' && verdict.question).toBeFalsy();
  });
});

describe('characters Unicode says to show as nothing do not hide a name', () => {
  // Default_Ignorable_Code_Point: the argument check refuses them
  // (test/unit/call/plainArguments.test.ts), but the policy compares what reaches it, and
  // what Woodpecker stored, folded: "main\u3164" reads as main.
  const ignorable = [
    ['U+3164', '\u3164'],
    ['U+115F', '\u115f'],
    ['U+FFA0', '\uffa0'],
    ['U+034F', '\u034f'],
    ['U+FE0F', '\ufe0f'],
  ] as const;

  it.each(ignorable)('%s: restart_pipeline deploy_to is denied', async (_, char) => {
    const verdict = await verdictOf('restart_pipeline', {
      repo_id: 5,
      number: 3,
      event: 'deployment',
      deploy_to: `production${char}`,
    });
    expect(verdict.kind).toBe('refused');
    const stored = await verdictOf(
      'approve_pipeline',
      { repo_id: 5, number: 3 },
      { event: 'deployment', deploy_to: `produc${char}tion` },
    );
    expect(stored.kind).toBe('refused');
  });

  it.each(ignorable)(
    '%s: a branch of trigger_pipeline, create_cron and update_cron asks',
    async (_, char) => {
      const branch = `main${char}`;
      const calls: [string, ToolArgs][] = [
        ['trigger_pipeline', { repo_id: 5, branch }],
        ['create_cron', { repo_id: 5, name: 'n', schedule: '@daily', branch, enabled: true }],
        ['update_cron', { repo_id: 5, cron_id: 2, branch }],
      ];
      for (const [tool, args] of calls) {
        const verdict = await verdictOf(tool, args);
        expect(verdict.kind === 'proceed' && verdict.question?.rules, tool).toEqual([
          'protect-main',
        ]);
      }
    },
  );

  it('a rule that names a branch with one matches the plain name', async () => {
    const rules = parsePolicy(
      'rules:\n  - name: r\n    tools: [trigger_pipeline]\n    branches: ["main\\u3164"]\n    effect: deny\n',
      'p.yaml',
      tools,
    ).rules;
    const verdict = await new OperatorPolicy('p.yaml', rules).decide({
      tool: byName.get('trigger_pipeline')!,
      args: { repo_id: 5, branch: 'main' },
      principal: 'p',
      send: (async () => {
        throw new Error('no read expected');
      }) as never,
    });
    expect(verdict.kind).toBe('refused');
  });
});
