// One test per rule of docs/manifest.md: each refusal names the tool, the field and the
// line where a person has to look.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { formatProblem } from '../../generator/manifestError.js';
import { findRuleProblems } from '../../generator/rules/manifestRules.js';
import { bend, lineOf, manifest, manifestFile, readTool, writeTool } from './manifestText.js';

function problemsOf(text: string): string[] {
  const loaded = parseManifest(text, 'tools.yaml');
  return findRuleProblems({ ...loaded, file: manifestFile }).map((problem) =>
    formatProblem('tools.yaml', problem),
  );
}

function expectRefusal(
  text: string,
  marker: string,
  tool: string,
  field: string,
  words: RegExp,
): void {
  const problems = problemsOf(text);
  const line = lineOf(text, marker);
  const expected = problems.filter((problem) =>
    problem.startsWith(`tools.yaml:${line}: ${tool}: ${field}: `),
  );
  expect(expected, `problems were:\n${problems.join('\n')}`).toHaveLength(1);
  expect(expected[0]).toMatch(words);
}

const valid = manifest(readTool, writeTool);

describe('manifest rules', () => {
  it('accepts the valid base manifest (so each refusal below comes from its one change)', () => {
    expect(problemsOf(valid)).toEqual([]);
  });

  it('refuses a parameter named like a credential unless it says secret: true', () => {
    const text = manifest(
      readTool,
      bend(
        writeTool,
        'note: { type: string, description: Free text. }',
        'note: { type: string, description: Free text. }\n      password: { type: string, description: A password. }',
      ),
    );
    expectRefusal(
      text,
      'password:',
      'update_thing',
      'params.password',
      /looks like a credential; add `secret: true`/,
    );
    const marked = manifest(
      readTool,
      bend(
        writeTool,
        'note: { type: string, description: Free text. }',
        'note: { type: string, description: Free text. }\n      password: { type: string, description: A password., secret: true }',
      ),
    );
    expect(problemsOf(marked)).toEqual([]);
  });

  it('refuses a guarded tool without idempotentHint: true', () => {
    const text = bend(
      valid,
      'destructiveHint: true\n      idempotentHint: true',
      'destructiveHint: true\n      idempotentHint: false # here',
    );
    expectRefusal(
      text,
      'idempotentHint: false # here',
      'update_thing',
      'annotations.idempotentHint',
      /must be true on a guarded tool/,
    );
  });

  it('refuses a DELETE call that is not guarded', () => {
    const text = bend(readTool, '      - method: GET', '      - method: DELETE # here').replace(
      'readOnlyHint: true',
      'readOnlyHint: false',
    );
    expectRefusal(
      manifest(text),
      'DELETE # here',
      'get_thing',
      'calls[0].method',
      /every delete asks a person/,
    );
  });

  it('takes body values from the current object only through a `current` read, and reads for a reason', () => {
    const fromCurrent = bend(
      writeTool,
      'body: { note: note, mode: mode, open: open }',
      'body: { note: { param: note, or_current: note }, mode: mode, open: open } # here',
    );
    expectRefusal(
      manifest(readTool, fromCurrent),
      '# here',
      'update_thing',
      'calls[0].body.note',
      /names no `current` read; add `current: <read-only tool>`/,
    );
    const withRead = bend(fromCurrent, '# here', '\n        current: get_thing');
    expect(problemsOf(manifest(readTool, withRead))).toEqual([]);
    const idle = bend(
      writeTool,
      'body: { note: note, mode: mode, open: open }',
      'body: { note: note, mode: mode, open: open }\n        current: get_thing # idle',
    );
    expectRefusal(
      manifest(readTool, idle),
      '# idle',
      'update_thing',
      'calls[0].current',
      /is read for nothing/,
    );
    const writing = bend(withRead, 'current: get_thing', 'current: update_thing # writes');
    expectRefusal(
      manifest(readTool, writing),
      '# writes',
      'update_thing',
      'calls[0].current',
      /not read-only/,
    );
  });

  it('refuses a read-only tool with a guard', () => {
    // The write tool first, so its `guard:` is the first one in the text.
    const text = manifest(bend(writeTool, 'readOnlyHint: false', 'readOnlyHint: true'), readTool);
    expectRefusal(text, 'guard:', 'update_thing', 'guard', /must be `never` on a read-only tool/);
  });

  it('refuses a read-only tool with a non-GET call', () => {
    const text = bend(valid, 'readOnlyHint: false', 'readOnlyHint: true');
    expectRefusal(
      text,
      'method: PATCH',
      'update_thing',
      'calls[0].method',
      /read-only tool makes only GET calls/,
    );
  });

  it('refuses a dialog that interpolates a free-text string parameter', () => {
    const text = bend(valid, 'to mode {mode}.', 'to mode {mode}, noted {note}.');
    expectRefusal(
      text,
      'dialog: This will change',
      'update_thing',
      'guard.dialog',
      /\{note\}, a free-text string parameter/,
    );
  });

  it('accepts a web UI link built from integer ids and chosen by an enum argument', () => {
    const text = bend(
      valid,
      '      dialog: This will change',
      "      link:\n        - when: { mode: strict }\n          where: 'thing {thing_id}'\n          path: '/things/{thing_id}'\n      dialog: This will change",
    );
    expect(problemsOf(text)).toEqual([]);
  });

  it('shows a URL host only for a parameter declared format: http_url', () => {
    const refused = bend(valid, 'to mode {mode}.', 'to mode {mode} at {note.host}.');
    expectRefusal(
      refused,
      'dialog: This will change',
      'update_thing',
      'guard.dialog',
      /\{note\.host\}, but note is not a parameter with `format: http_url`/,
    );
    const accepted = bend(
      refused,
      'note: { type: string, description: Free text. }',
      'note: { type: string, description: A URL., format: http_url }',
    );
    expect(problemsOf(accepted)).toEqual([]);
  });

  it('refuses a web UI link that interpolates anything but an integer id', () => {
    const text = bend(
      valid,
      '      dialog: This will change',
      "      link:\n        - where: 'thing {thing_id}'\n          path: '/things/{note}'\n      dialog: This will change",
    );
    expectRefusal(
      text,
      "path: '/things/{note}'",
      'update_thing',
      'guard.link[0].path',
      /\{note\}, which is not an integer parameter.*only from WOODPECKER_URL and numeric ids/,
    );
  });

  it('refuses a web UI link chosen by a value that is not an enum value', () => {
    const text = bend(
      valid,
      '      dialog: This will change',
      "      link:\n        - when: { mode: sloppy }\n          where: 'thing {thing_id}'\n          path: '/things/{thing_id}'\n      dialog: This will change",
    );
    expectRefusal(
      text,
      'when: { mode: sloppy }',
      'update_thing',
      'guard.link[0].when.mode',
      /sloppy is not an enum value/,
    );
  });

  it('refuses a dialog that interpolates a boolean or something read from an answer', () => {
    const withBoolean = bend(valid, 'to mode {mode}.', 'open {open}.');
    expectRefusal(
      withBoolean,
      'dialog: This will change',
      'update_thing',
      'guard.dialog',
      /\{open\}, a free-text boolean parameter/,
    );
    const withAnswer = bend(valid, 'to mode {mode}.', 'named {answer.name}.');
    expectRefusal(
      withAnswer,
      'dialog: This will change',
      'update_thing',
      'guard.dialog',
      /\{answer\.name\}, which is not a parameter/,
    );
  });

  it('leaves {current.<field>} with a read to the spec check (which allows only integers), and refuses it without a read', () => {
    expect(problemsOf(bend(valid, 'to mode {mode}.', 'number {current.id}.'))).toEqual([]);
    const withoutRead = bend(
      bend(valid, 'to mode {mode}.', 'number {current.id}.'),
      '      read: get_thing\n      when:\n        any:\n          - grants: { param: open, current: open }\n          - becomes: { param: mode, value: loose, current: mode }',
      '      when: always',
    );
    expectRefusal(
      withoutRead,
      'dialog: This will change',
      'update_thing',
      'guard.dialog',
      /\{current\.id\}, a value read from Woodpecker, but the guard has no `read`/,
    );
  });

  it('accepts a counted list from the answer in a dialog but not in a web UI link', () => {
    expect(problemsOf(bend(valid, 'to mode {mode}.', 'with {current.tags:count} tags.'))).toEqual(
      [],
    );
    // A link's schema pattern has no room for `:count`: only ids build a link.
    const text = bend(
      valid,
      '      dialog: This will change',
      "      link:\n        - where: 'thing {current.tags:count}'\n          path: '/things/{thing_id}'\n      dialog: This will change",
    );
    expect(() => problemsOf(text)).toThrow(
      /update_thing: guard\.link\[0\]\.where: must match pattern/,
    );
  });

  it('refuses an identity without a read', () => {
    const text = bend(
      valid,
      '      read: get_thing\n      when:\n        any:\n          - grants: { param: open, current: open }\n          - becomes: { param: mode, value: loose, current: mode }',
      '      identity: id # here\n      when: always',
    );
    expectRefusal(text, 'identity: id # here', 'update_thing', 'guard.identity', /has no `read`/);
  });

  it('refuses a dialog that interpolates a string list or map without an enum', () => {
    const text = bend(
      bend(
        valid,
        '      open: { type: boolean, description: A flag. }',
        '      open: { type: boolean, description: A flag. }\n      tags: { type: string_list, description: Tags. }',
      ),
      'to mode {mode}.',
      'tags {tags}.',
    );
    expectRefusal(
      text,
      'dialog: This will change',
      'update_thing',
      'guard.dialog',
      /\{tags\}, a free-text string_list parameter/,
    );
  });

  it('refuses targets that name undeclared parameters', () => {
    const text = bend(valid, 'targets: [thing_id]', 'targets: [thing_id, owner]');
    expectRefusal(
      text,
      'targets: [thing_id, owner]',
      'update_thing',
      'guard.targets[1]',
      /owner is not a parameter of this tool/,
    );
  });

  it('refuses a read naming a missing tool', () => {
    const text = bend(valid, 'read: get_thing', 'read: get_thingy');
    expectRefusal(
      text,
      'read: get_thingy',
      'update_thing',
      'guard.read',
      /get_thingy, which is not a tool/,
    );
  });

  it('refuses a read naming a tool that is not read-only', () => {
    const other = writeTool
      .replace('name: update_thing', 'name: patch_thing')
      .replace('read: get_thing', 'read: update_thing');
    const text = manifest(readTool, writeTool, other);
    expectRefusal(
      text,
      'read: update_thing',
      'patch_thing',
      'guard.read',
      /update_thing, which is not read-only/,
    );
  });

  it('refuses a read whose required parameters this tool lacks', () => {
    const read = readTool
      .replace(
        'path_params: { thing_id: thing_id }',
        'path_params: { thing_id: thing_id }\n        query: { owner: owner_id }',
      )
      .replace(
        'thing_id: { type: integer, description: Id., required: true }',
        'thing_id: { type: integer, description: Id., required: true }\n      owner_id: { type: integer, description: Owner., required: true }',
      );
    const text = manifest(read, writeTool);
    expectRefusal(
      text,
      'read: get_thing',
      'update_thing',
      'guard.read',
      /get_thing requires owner_id, which this tool does not have/,
    );
  });

  it('refuses a predicate with current but no read', () => {
    const text = bend(valid, '      read: get_thing\n', '');
    expectRefusal(
      text,
      'grants: { param: open, current: open }',
      'update_thing',
      'guard.when.any[0].grants.current',
      /has no `read`/,
    );
  });

  it("refuses path_params that do not cover the path's placeholders", () => {
    const bent = bend(writeTool, 'path: /things/{thing_id}', 'path: /things/{thing_id}/{part}');
    const text = manifest(bent, readTool);
    expectRefusal(
      text,
      'path_params: { thing_id: thing_id }',
      'update_thing',
      'calls[0].path_params',
      /does not map \{part\}/,
    );
  });

  it('refuses a `when` on a parameter that is neither an enum nor a boolean', () => {
    const text = bend(
      valid,
      '      - method: PATCH',
      '      - when: { note: hello }\n        method: PATCH',
    );
    expectRefusal(
      text,
      'when: { note: hello }',
      'update_thing',
      'calls[0].when.note',
      /may only test a boolean or a string parameter with an enum/,
    );
  });

  it('refuses duplicate tool names', () => {
    const text = manifest(
      readTool,
      writeTool,
      readTool.replace('name: get_thing', 'name: get_thing # again'),
    );
    expectRefusal(text, 'name: get_thing # again', 'get_thing', 'name', /must be unique/);
  });

  it('refuses a handler whose file does not exist in runtime/handlers/', () => {
    const text = bend(
      valid,
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    description: Returns a thing.',
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    handler: get_thing\n    description: Returns a thing.',
    );
    expectRefusal(
      text,
      'handler: get_thing',
      'get_thing',
      'handler',
      /runtime\/handlers\/get_thing\.ts does not exist/,
    );
  });

  it('refuses a handler not named after its tool (the runtime types it by that name)', () => {
    const text = bend(
      valid,
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    description: Returns a thing.',
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    handler: get_status\n    description: Returns a thing.',
    );
    expectRefusal(
      text,
      'handler: get_status',
      'get_thing',
      'handler',
      /is get_status; a handler is named after its tool \(handler: get_thing/,
    );
  });

  it('refuses a view (app) on a tool that is not read-only, and accepts it on a read', () => {
    const onWrite = bend(
      valid,
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    description: Changes a thing.',
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    app: pipeline\n    description: Changes a thing.',
    );
    expectRefusal(onWrite, 'app: pipeline', 'update_thing', 'app', /only for read-only tools/);
    const onRead = bend(
      valid,
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    description: Returns a thing.',
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    app: pipeline\n    description: Returns a thing.',
    );
    expect(problemsOf(onRead)).toEqual([]);
  });

  it('accepts a handler whose file exists', () => {
    const text = bend(
      bend(
        bend(valid, 'name: get_thing', 'name: get_status'),
        'read: get_thing',
        'read: get_status',
      ),
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    description: Returns a thing.',
      '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    handler: get_status\n    description: Returns a thing.',
    );
    expect(problemsOf(text)).toEqual([]);
  });

  it('refuses a query or body that names an undeclared parameter', () => {
    const text = bend(
      valid,
      'body: { note: note, mode: mode, open: open }',
      'body: { note: note, mode: mode, open: opened }',
    );
    expectRefusal(
      text,
      'open: opened',
      'update_thing',
      'calls[0].body.open',
      /maps to opened, which the tool does not declare/,
    );
  });

  it('refuses a call before the last one without `when`', () => {
    const text = bend(
      valid,
      '        body: { note: note, mode: mode, open: open }',
      '        body: { note: note, mode: mode, open: open }\n      - method: PATCH\n        path: /things/{thing_id}\n        path_params: { thing_id: thing_id }',
    );
    expectRefusal(
      text,
      '      - method: PATCH',
      'update_thing',
      'calls[0].when',
      /only the last call may omit `when`/,
    );
  });

  it('refuses a predicate value outside the parameter enum', () => {
    const text = bend(valid, 'value: loose', 'value: lax');
    expectRefusal(
      text,
      'value: lax',
      'update_thing',
      'guard.when.any[1].becomes.value',
      /"lax" is not one of mode's enum values/,
    );
  });

  it('refuses a body that names both an object and one of its dotted fields', () => {
    const text = bend(
      valid,
      'body: { note: note, mode: mode, open: open }',
      'body: { note: note, mode: mode, note.inner: open }',
    );
    expectRefusal(
      text,
      'note.inner: open',
      'update_thing',
      'calls[0].body.note',
      /parent of a dotted field/,
    );
  });

  it('refuses declaring confirm_token by hand', () => {
    const text = bend(
      valid,
      '      open: { type: boolean, description: A flag. }',
      '      open: { type: boolean, description: A flag. }\n      confirm_token: { type: string, description: Token. }',
    );
    expectRefusal(
      text,
      'confirm_token: { type: string',
      'update_thing',
      'params.confirm_token',
      /added by the generator/,
    );
  });

  it('refuses an integer bound beyond what a JSON number carries exactly', () => {
    const read = bend(
      readTool,
      '      thing_id: { type: integer, description: Id., required: true }',
      '      thing_id: { type: integer, description: Id., required: true, maximum: 18446744073709551616 }',
    );
    expectRefusal(
      manifest(read, writeTool),
      'maximum: 18446744073709551616',
      'get_thing',
      'params.thing_id.maximum',
      /largest whole number JSON carries exactly/,
    );
  });

  it('refuses a widens order that leaves out an enum value', () => {
    const text = bend(
      valid,
      'becomes: { param: mode, value: loose, current: mode }',
      'widens: { param: mode, current: mode, order: [strict, lax] }',
    );
    expectRefusal(
      text,
      'widens: { param: mode',
      'update_thing',
      'guard.when.any[1].widens.order',
      /does not place loose/,
    );
  });

  it('refuses adds_any on a parameter that is not a list', () => {
    const text = bend(
      valid,
      'becomes: { param: mode, value: loose, current: mode }',
      'adds_any: { param: mode, current: mode }',
    );
    expectRefusal(
      text,
      'adds_any: { param: mode',
      'update_thing',
      'guard.when.any[1].adds_any.param',
      /adds_any needs a string_list parameter; mode is string/,
    );
  });

  it('refuses shadows on a tool without the scope, repo_id and org_id it compares levels with, and reads that cannot take them', () => {
    const text = bend(
      valid,
      'becomes: { param: mode, value: loose, current: mode }',
      'shadows: { param: note, list: get_thing, organization_of: get_thingy, fold: letter_case, same_level: true }',
    );
    const line = lineOf(text, 'shadows: { param: note');
    const problems = problemsOf(text).filter((problem) =>
      problem.startsWith(`tools.yaml:${line}: update_thing: guard.when.any[1].shadows`),
    );
    const expected = [
      /shadows: needs a scope parameter with enum \[repository, organization, global\]/,
      /shadows: needs an integer repo_id parameter/,
      /shadows: needs an integer org_id parameter/,
      /shadows\.list: names get_thing, which takes no scope/,
      /shadows\.list: names get_thing, which also requires thing_id/,
      /shadows\.organization_of: names get_thingy, which is not a tool/,
    ];
    for (const words of expected)
      expect(
        problems.some((problem) => words.test(problem)),
        `${String(words)} in:\n${problems.join('\n')}`,
      ).toBe(true);
  });
});
