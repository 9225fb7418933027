// Schema refusals: unknown keys anywhere, and every safety field required, each with
// the tool, the field and the line.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { bend, lineOf, manifest, readTool, refusalOf, writeTool } from './manifestText.js';

describe('manifest schema', () => {
  it('accepts the valid base manifest', () => {
    expect(parseManifest(manifest(readTool, writeTool), 'tools.yaml').manifest.tools).toHaveLength(
      2,
    );
  });

  for (const annotation of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
    it(`refuses a tool without ${annotation}`, () => {
      const text = manifest(readTool.replace(new RegExp(`\\n +${annotation}: \\w+`), ''));
      const line = lineOf(text, 'annotations:');
      expect(refusalOf(text)).toBe(
        `tools.yaml:${line}: get_thing: annotations.${annotation}: is missing; add it explicitly (safety fields have no default)`,
      );
    });
  }

  it('refuses YAML it cannot read, naming line, column and cause', () => {
    // The same sentence as the policy file's (runtime/core/yamlPlaces.ts).
    expect(refusalOf('views: {}\nviews: {}\ntools: []\n')).toBe(
      'tools.yaml:2: (manifest): (yaml): not valid YAML at column 1: Map keys must be unique (DUPLICATE_KEY); fix the YAML syntax',
    );
  });

  it('refuses a tool without guard', () => {
    const text = manifest(readTool.replace('    guard: never\n', ''));
    expect(refusalOf(text)).toBe(
      `tools.yaml:${lineOf(text, 'name: get_thing')}: get_thing: guard: is missing; add it explicitly (safety fields have no default)`,
    );
  });

  // Whether an answer is marked untrusted, and which fields are stripped or returned,
  // is policy: a tool that forgets to say must be refused, not quietly trusted.
  for (const field of ['redact', 'reveal', 'untrusted']) {
    it(`refuses a tool whose output omits ${field}`, () => {
      const text = manifest(readTool.replace(new RegExp(`, ${field}: [^,}]+`), ''));
      expect(text).not.toContain(`${field}:`);
      expect(refusalOf(text)).toBe(
        `tools.yaml:${lineOf(text, 'output:')}: get_thing: output.${field}: is missing; add it explicitly (safety fields have no default)`,
      );
    });
  }

  it('refuses a tool whose prose comes before its policy, naming the key and the order', () => {
    // description moved above the guard: a reviewer would read prose before policy.
    const moved = bend(readTool, '    guard: never\n', '').replace(
      '    params:\n',
      '    guard: never\n    params:\n',
    );
    const text = manifest(moved);
    expect(refusalOf(text)).toContain(
      `tools.yaml:${lineOf(text, 'guard: never')}: get_thing: guard: comes after description; write a tool's keys policy first`,
    );
  });

  it('refuses unknown keys in a tool, a param, a call and a guard', () => {
    const cases: [string, string, string][] = [
      [
        '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    description: Returns a thing.',
        '    output: { kind: object, redact: [], reveal: [], untrusted: false }\n    gaurd_note: x\n    description: Returns a thing.',
        'gaurd_note',
      ],
      [
        'thing_id: { type: integer, description: Id., required: true }\n    calls',
        'thing_id: { type: integer, description: Id., required: true, minimun: 1 }\n    calls',
        'params.thing_id.minimun',
      ],
      [
        '        path: /things/{thing_id}',
        '        path: /things/{thing_id}\n        headers: {}',
        'calls[0].headers',
      ],
    ];
    for (const [from, to, field] of cases) {
      const text = manifest(bend(readTool, from, to));
      const key =
        field
          .split('.')
          .pop()
          ?.replace(/\[\d+\]/, '') ?? field;
      expect(refusalOf(text)).toContain(
        `tools.yaml:${lineOf(text, `${key}`)}: get_thing: ${field}: unknown key`,
      );
    }
    const guard = manifest(
      readTool,
      bend(writeTool, '      bind_body: true', '      bind_body: true\n      confirm: true'),
    );
    expect(refusalOf(guard)).toContain(
      `tools.yaml:${lineOf(guard, 'confirm: true')}: update_thing: guard.confirm: unknown key`,
    );
  });

  it('refuses a misspelled predicate with the forms it accepts', () => {
    const text = manifest(
      readTool,
      bend(
        writeTool,
        '- grants: { param: open, current: open }',
        '- grant: { param: open, current: open }',
      ),
    );
    const message = refusalOf(text);
    expect(message).toContain(
      `tools.yaml:${lineOf(text, 'grant:')}: update_thing: guard.when.any[0]`,
    );
    expect(message).toMatch(/unknown key|equals, in, present, grants/);
  });

  it('refuses a wrong type with the line of the value', () => {
    const text = manifest(readTool.replace('readOnlyHint: true', 'readOnlyHint: yes please'));
    expect(refusalOf(text)).toBe(
      `tools.yaml:${lineOf(text, 'readOnlyHint')}: get_thing: annotations.readOnlyHint: must be boolean; see docs/manifest.md`,
    );
  });

  it('refuses YAML that does not parse, with its line', () => {
    const text = manifest(readTool).replace('    title: Get a thing', '    title: [Get a thing');
    expect(refusalOf(text)).toMatch(/^tools\.yaml:\d+: \(manifest\): \(yaml\): /);
  });
});
