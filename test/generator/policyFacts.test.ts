// The `policy_facts` field (docs/manifest.md): what an operator policy rule may match on.
// A fact must come from a real string parameter or from a declared read, a read must be a
// read-only tool this one can call, and only a write that names a repository starts builds.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { formatProblem } from '../../generator/manifestError.js';
import { findRuleProblems } from '../../generator/rules/manifestRules.js';
import { bend, lineOf, manifest, manifestFile } from './manifestText.js';

const getThing = `
  - name: get_thing
    title: Get a thing
    group: pipelines
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    guard: never
    admin_only: false
    essential: false
    repositories: { args: { repo_id: id } }
    output: { kind: object, redact: [], reveal: [], untrusted: false }
    description: Returns a thing.
    params:
      repo_id: { type: integer, description: Id., required: true }
      number: { type: string, description: Number., required: true }
    calls:
      - method: GET
        path: /things/{thing_id}/{n}
        path_params: { thing_id: repo_id, n: number }
`;

const startThing = `
  - name: start_thing
    title: Start a thing
    group: pipelines
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
    guard: never
    admin_only: false
    essential: false
    repositories: { args: { repo_id: id } }
    policy_facts:
      starts_builds: true
      read: get_thing
      branch: { arg: branch, read: branch }
      event: { value: manual }
    output: { kind: object, redact: [], reveal: [], untrusted: false }
    description: Starts a thing.
    params:
      repo_id: { type: integer, description: Id., required: true }
      number: { type: integer, description: Number., required: true }
      branch: { type: string, description: Branch. }
      count: { type: integer, description: How many. }
    calls:
      - method: POST
        path: /things/{thing_id}
        path_params: { thing_id: repo_id }
`;

const valid = manifest(getThing, startThing);

function problemsOf(text: string): string[] {
  const loaded = parseManifest(text, 'tools.yaml');
  return findRuleProblems({ ...loaded, file: manifestFile }).map((problem) =>
    formatProblem('tools.yaml', problem),
  );
}

describe('policy_facts: what operator policy rules match on', () => {
  it('accepts the valid pair (an integer number read as text included)', () => {
    expect(problemsOf(valid)).toEqual([]);
  });

  it('refuses a fact taken from a parameter the tool does not have, at its line', () => {
    const text = bend(valid, '{ arg: branch, read: branch }', '{ arg: ref, read: branch }');
    expect(problemsOf(text)).toEqual([
      `tools.yaml:${lineOf(text, 'arg: ref')}: start_thing: policy_facts.branch.arg: names ref, which is not a parameter of this tool`,
    ]);
  });

  it('refuses a fact taken from a parameter that is not text', () => {
    const text = bend(valid, '{ arg: branch, read: branch }', '{ arg: count }');
    expect(problemsOf(text)).toEqual([
      `tools.yaml:${lineOf(text, 'arg: count')}: start_thing: policy_facts.branch.arg: names count, which is integer; a branch is a string`,
    ]);
  });

  it('refuses a fact read from an answer when no read is declared', () => {
    const text = bend(valid, '      read: get_thing\n', '');
    expect(problemsOf(text)).toEqual([
      `tools.yaml:${lineOf(text, 'read: branch')}: start_thing: policy_facts.branch.read: takes a field of the read, but policy_facts has no \`read\`; add \`read: <get tool>\``,
    ]);
  });

  it('refuses a read that is not a read-only tool', () => {
    const text = bend(valid, 'read: get_thing', 'read: start_thing');
    expect(problemsOf(text).join('\n')).toMatch(
      /start_thing: policy_facts\.read: names start_thing, which is not read-only/,
    );
  });

  it('refuses starts_builds on a tool no limit per repository could count', () => {
    const text = bend(
      valid,
      '    repositories: { args: { repo_id: id } }\n    policy_facts:',
      '    policy_facts:',
    );
    expect(problemsOf(text).join('\n')).toMatch(
      /start_thing: policy_facts\.starts_builds: is true, but no argument names a repository/,
    );
  });
});
