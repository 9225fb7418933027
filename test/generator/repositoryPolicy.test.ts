// The `repositories` field (docs/manifest.md): a tool with a parameter that names a
// repository cannot escape WOODPECKER_REPOS by leaving it undeclared, and a declaration
// must name a real parameter of the right type. Each refusal names the tool, the field
// and the line, like every other rule.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { formatProblem } from '../../generator/manifestError.js';
import { findRuleProblems } from '../../generator/rules/manifestRules.js';
import { bend, lineOf, manifest, manifestFile, refusalOf } from './manifestText.js';

const repositoryTool = `
  - name: get_repo_thing
    title: Get a repository's thing
    group: repositories
    annotations:
      readOnlyHint: false
      destructiveHint: false
      idempotentHint: true
      openWorldHint: false
    guard: never
    admin_only: false
    essential: false
    repositories:
      args: { repo_id: id, full_name: full_name, new_name: new_full_name, remote: forge_remote_id }
      refuse:
        when: { scope: all }
        because: at scope "all" it reaches every repository.
    output: { kind: object, redact: [], reveal: [], untrusted: false }
    description: Returns a thing of a repository.
    params:
      repo_id: { type: integer, description: Id. }
      full_name: { type: string, description: Name. }
      new_name: { type: string, description: A new name. }
      remote: { type: string, description: The forge's id. }
      scope: { type: string, description: Which., enum: [one, all] }
      label: { type: string, description: Free text. }
      open: { type: boolean, description: A flag. }
    calls:
      - method: POST
        path: /things/{thing_id}
        path_params: { thing_id: repo_id }
`;

const valid = manifest(repositoryTool);

function problemsOf(text: string): string[] {
  const loaded = parseManifest(text, 'tools.yaml');
  return findRuleProblems({ ...loaded, file: manifestFile }).map((problem) =>
    formatProblem('tools.yaml', problem),
  );
}

/** The one problem reported at `marker`'s line for `field`, which must say `words`. */
function expectRefusal(text: string, marker: string, field: string, words: RegExp): void {
  const problems = problemsOf(text);
  const prefix = `tools.yaml:${lineOf(text, marker)}: get_repo_thing: ${field}: `;
  const found = problems.filter((problem) => problem.startsWith(prefix));
  expect(found, `problems were:\n${problems.join('\n')}`).toHaveLength(1);
  expect(found[0]).toMatch(words);
}

describe('repositories: what WOODPECKER_REPOS checks', () => {
  it('accepts the valid base tool (so each refusal below comes from its one change)', () => {
    expect(problemsOf(valid)).toEqual([]);
  });

  it('refuses a repo_id parameter that is not declared, at the parameter, saying how to declare it', () => {
    const text = bend(valid, 'args: { repo_id: id, ', 'args: { ');
    expectRefusal(
      text,
      'repo_id: { type: integer',
      'params.repo_id',
      /names a repository, and `repositories.args` does not declare it, so WOODPECKER_REPOS would not look at it; add `repositories: \{ args: \{ repo_id: id \} \}`/,
    );
  });

  it('refuses a full_name parameter on a tool with no repositories field at all', () => {
    const text = bend(
      valid,
      valid.slice(valid.indexOf('    repositories:'), valid.indexOf('    output:')),
      '',
    );
    expect(text).not.toContain('repositories:');
    const problems = problemsOf(text);
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^tools\\.yaml:${lineOf(text, 'repo_id: { type')}: get_repo_thing: params\\.repo_id: names a repository`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^tools\\.yaml:${lineOf(text, 'full_name: { type')}: get_repo_thing: params\\.full_name: names a repository, .*full_name: full_name`,
        ),
      ),
    ]);
  });

  it('refuses full_name declared as a kind that skips the lookup of its current name', () => {
    const text = bend(valid, 'full_name: full_name,', 'full_name: new_full_name,');
    expectRefusal(
      text,
      'args: {',
      'repositories.args.full_name',
      /declares full_name as new_full_name; full_name names a repository as full_name/,
    );
  });

  it('refuses a declaration naming a parameter that does not exist, with its line', () => {
    const text = bend(
      valid,
      'remote: forge_remote_id }',
      'remote: forge_remote_id, to: new_full_name }',
    );
    const line = lineOf(text, 'to: new_full_name');
    expect(problemsOf(text)).toEqual([
      `tools.yaml:${line}: get_repo_thing: repositories.args.to: names a parameter the tool does not declare; declare it under params or remove it here`,
    ]);
  });

  it('refuses a declaration whose kind arrives as another type than the parameter has', () => {
    const text = bend(valid, 'remote: forge_remote_id }', 'remote: forge_remote_id, open: id }');
    expectRefusal(
      text,
      'args: {',
      'repositories.args.open',
      /is id, which arrives as integer, but open is boolean/,
    );
  });

  it('refuses a refusal condition on an undeclared parameter, a value outside the enum, and free text', () => {
    expectRefusal(
      bend(valid, 'when: { scope: all }', 'when: { level: all }'),
      'when: { level: all }',
      'repositories.refuse.when.level',
      /names a parameter the tool does not declare/,
    );
    expectRefusal(
      bend(valid, 'when: { scope: all }', 'when: { scope: every }'),
      'when: { scope: every }',
      'repositories.refuse.when.scope',
      /"every" is not one of scope's enum values \(one, all\)/,
    );
    expectRefusal(
      bend(valid, 'when: { scope: all }', 'when: { label: all }'),
      'when: { label: all }',
      'repositories.refuse.when.label',
      /may only test a boolean or a string parameter with an enum/,
    );
  });

  it('refuses a kind the runtime does not know, naming the kinds it does', () => {
    const text = bend(valid, 'remote: forge_remote_id }', 'remote: slug }');
    expect(refusalOf(text)).toBe(
      `tools.yaml:${lineOf(text, 'remote: slug')}: get_repo_thing: repositories.args.remote: must be one of id, full_name, new_full_name, forge_remote_id`,
    );
  });

  it('refuses a refusal without its reason', () => {
    const text = bend(valid, '        because: at scope "all" it reaches every repository.\n', '');
    expect(refusalOf(text)).toBe(
      `tools.yaml:${lineOf(text, 'refuse:')}: get_repo_thing: repositories.refuse.because: is missing; add it`,
    );
  });

  it('is policy: written before output, or refused naming the order', () => {
    const block = valid.slice(valid.indexOf('    repositories:'), valid.indexOf('    output:'));
    const text = bend(bend(valid, block, ''), '    description:', `${block}    description:`);
    expect(refusalOf(text)).toContain(
      `tools.yaml:${lineOf(text, 'repositories:')}: get_repo_thing: repositories: comes after output; write a tool's keys policy first, in this order: name, title, group, annotations, guard, admin_only, essential, repositories, policy_facts, output`,
    );
  });
});
