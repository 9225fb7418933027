// The policy file is checked at startup like tools.yaml: anything it does not understand,
// and anything that would take caution away, stops the server naming file and line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { parsePolicy, PolicyFileRefused } from '../../../runtime/policy/policyFile.js';
import { describeRule } from '../../../runtime/policy/policyRule.js';

const refusalOf = (text: string): string => {
  try {
    parsePolicy(text, 'policy.yaml', tools);
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyFileRefused);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};

const base = `rules:
  - name: protect-main
    tools: [trigger_pipeline]
    branches: [main]
    effect: ask
`;

describe('the policy file', () => {
  it('loads the worked example of docs/configuration.md, every rule in force', () => {
    const text = readFileSync('docs/examples/policy.yaml', 'utf8');
    const { rules } = parsePolicy(text, 'docs/examples/policy.yaml', tools);
    expect(rules.map((rule) => rule.name)).toEqual([
      'protect-main',
      'ask-before-deploying',
      'no-payments-production',
      'ten-builds-an-hour',
    ]);
    expect(rules[3]!.limit).toEqual({
      builds: 10,
      per: 'repository',
      window: '1h',
      windowMs: 3_600_000,
    });
    expect(describeRule(rules[0]!)).toMatch(
      /^protect-main \(line 5\): ask on tools trigger_pipeline, /,
    );
  });

  it('accepts a minimal rule (so each refusal below comes from its one change)', () => {
    expect(parsePolicy(base, 'policy.yaml', tools).rules).toHaveLength(1);
  });

  it('refuses an unknown tool at its line', () => {
    expect(refusalOf(base.replace('[trigger_pipeline]', '[trigger_pipelines]'))).toContain(
      'policy.yaml:3: rules[0].tools: trigger_pipelines is not a tool of this server',
    );
  });

  it('refuses an unknown group', () => {
    // A near miss is named; anything else by its place (the file may hold a password).
    expect(refusalOf(base.replace('tools: [trigger_pipeline]', 'groups: [pipeline]'))).toMatch(
      /policy\.yaml:3: rules\[0\]\.groups: pipeline is not a group \(known: .*pipelines/,
    );
    const far = refusalOf(base.replace('tools: [trigger_pipeline]', 'groups: [hunter2]'));
    expect(far).toContain('rules[0].groups[0] is not a group');
    expect(far).not.toContain('hunter2');
  });

  it('refuses an unknown key, naming the keys it knows', () => {
    expect(refusalOf(`${base}    branch: main\n`)).toMatch(
      /policy\.yaml:6: rules\[0\]: an unknown key \(did you mean branches\?\); remove it or correct its spelling \(known here: name, tools, groups, repositories, branches/,
    );
  });

  it('refuses an unknown top-level key', () => {
    expect(refusalOf(`version: 2\n${base}`)).toContain('policy.yaml:1: an unknown key');
  });

  it('refuses a file that tries to allow what is asked: there is no allow', () => {
    const message = refusalOf(base.replace('effect: ask', 'effect: allow'));
    expect(message).toContain('policy.yaml:5: rules[0].effect: must be ask, deny or limit');
    expect(message).toContain('a policy can only add caution');
  });

  it('refuses a key that tries to remove a question or widen the lists', () => {
    for (const key of ['never_ask: true', 'read_only: false', 'allow_tools: [delete_repository]']) {
      const message = refusalOf(`${base}    ${key}\n`);
      expect(message).toMatch(/policy\.yaml:6: rules\[0\]: an unknown key/);
      expect(message).toContain('cannot remove a question tools.yaml asks');
    }
    expect(refusalOf(`repositories_allow: [acme/*]\n${base}`)).toContain(
      'a policy can only add caution',
    );
  });

  it('refuses a rule that cannot apply to the tool it names', () => {
    expect(refusalOf(base.replace('[trigger_pipeline]', '[delete_pipeline]'))).toContain(
      'rules[0].tools: cannot apply to delete_pipeline: delete_pipeline has no branch to match',
    );
    expect(
      refusalOf(
        base
          .replace('[trigger_pipeline]', '[list_pipelines]')
          .replace('    branches: [main]\n', ''),
      ),
    ).toContain('cannot apply to list_pipelines: list_pipelines only reads');
    expect(
      refusalOf(
        base
          .replace('[trigger_pipeline]', '[cancel_pipeline]')
          .replace('    branches: [main]\n', '')
          .replace(
            'effect: ask',
            'effect: limit\n    limit: { builds: 1, per: repository, window: 1h }',
          ),
      ),
    ).toContain('cancel_pipeline starts no builds');
  });

  it('refuses a limit without its numbers, a bad window and an unknown event', () => {
    expect(refusalOf(base.replace('effect: ask', 'effect: limit'))).toContain(
      'rules[0].effect: is limit, but the rule has no `limit: { builds, per, window }`',
    );
    expect(
      refusalOf(
        base.replace(
          'effect: ask',
          'effect: limit\n    limit: { builds: 3, per: repository, window: 1 hour }',
        ),
      ),
    ).toContain('policy.yaml:6: rules[0].limit.window: a window is a number and a unit');
    expect(refusalOf(`${base}    events: [merge]\n`)).toContain(
      'rules[0].events[0]: must be one of push, pull_request',
    );
  });

  it('refuses two rules of the same name and a rule with neither tools nor groups', () => {
    expect(refusalOf(`${base}${base.replace('rules:\n', '')}`)).toContain(
      'policy.yaml:6: rules[1].name: is the name of the rule at line 2 already; rule names must be unique',
    );
    expect(refusalOf(base.replace('    tools: [trigger_pipeline]\n', ''))).toContain(
      'a rule names `tools` or `groups`',
    );
  });

  it('names a repeated rule name by the line of the first, never repeating it', () => {
    const rule = (name: string) =>
      `  - name: ${name}\n    tools: [trigger_pipeline]\n    effect: deny\n`;
    const message = refusalOf(`rules:\n${rule('hunter2')}${rule('other')}${rule('hunter2')}`);
    expect(message).toContain(
      'policy.yaml:8: rules[2].name: is the name of the rule at line 2 already',
    );
    expect(message).not.toContain('hunter2');
  });

  it('says an alias without its anchor is one, at its line, without its name', () => {
    const message = refusalOf('rules:\n  - name: r\n    tools: [*hunter2]\n    effect: deny\n');
    expect(message).toContain(
      'policy.yaml:3: an alias (*) to an anchor (&) not set before it; set the anchor first or write the value out',
    );
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('100 uses');
  });

  it('refuses YAML it cannot read, naming the line', () => {
    expect(refusalOf(`${base}  - name: [unclosed\n`)).toMatch(/policy\.yaml:\d+: not valid YAML/);
    // The same sentence as tools.yaml's (runtime/core/yamlPlaces.ts): line, column, cause, fix.
    expect(refusalOf(`${base}rules: []\n`)).toContain(
      'policy.yaml:6: not valid YAML at column 1: Map keys must be unique (DUPLICATE_KEY); fix the YAML syntax',
    );
  });
});
