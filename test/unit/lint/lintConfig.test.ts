// Our own cases for the config check, beyond Woodpecker's tests (woodpeckerSources.test.ts):
// places in the text (a merged key's place is its anchor's), Woodpecker's list merge,
// the closest branch of a failed oneOf, what differs between releases, the release a
// server is judged by, and the bounds on what a file may expand to.
import { describe, expect, it } from 'vitest';
import { lintConfig, type LintFinding } from '../../../runtime/lint/lintConfig.js';
import { releaseName, schemaFor } from '../../../runtime/lint/pipelineSchemas.js';
import { imageName } from '../../../runtime/lint/woodpeckerRules.js';

const lines = (...text: string[]) => `${text.join('\n')}\n`;
const rules = (findings: readonly LintFinding[]) => findings.map((finding) => finding.rule);
const V317 = '3.17.0';
const V318 = '3.18.0-dev+a4cb541';

describe('places', () => {
  it('puts an unknown key at its own line and column, and suggests the key meant', () => {
    const report = lintConfig(
      lines(
        'when:',
        '  event: push',
        'steps:',
        '  test:',
        '    image: golang',
        '    comands: [go test]',
      ),
      V317,
    );
    expect(report.errors).toEqual([
      {
        line: 6,
        column: 5,
        field: 'steps.test.comands',
        rule: 'schema',
        message: '`comands` is not a key Woodpecker knows here; did you mean `commands`?',
      },
    ]);
  });

  it('puts a missing key at the map that lacks it, and a wrong value at the value', () => {
    const report = lintConfig(
      lines(
        'when: { event: push }',
        'steps:',
        '  - name: a',
        '    commands: [x]',
        '  - name: b',
        '    image: alpine',
        '    commands: [y]',
        '    privileged: maybe',
      ),
      V317,
    );
    const places = report.errors.map((finding) => [finding.field, finding.line, finding.column]);
    expect(places).toContainEqual(['steps[0]', 3, 5]);
    expect(places).toContainEqual(['steps[1].privileged', 8, 17]);
  });

  it('reports the closest form of a oneOf, not every form it could have been', () => {
    // A step list that is a list with one bad step: not "must be a map" for the list.
    const report = lintConfig(
      lines(
        'when: { event: push }',
        'steps:',
        '  - name: a',
        '    image: alpine',
        '    commands: [x]',
        '    timeout: 5',
      ),
      V317,
    );
    expect(report.errors).toEqual([
      expect.objectContaining({ field: 'steps[0].timeout', line: 6, column: 5 }),
    ]);
  });

  it("finds a merged key's problem where the anchor writes it", () => {
    const report = lintConfig(
      lines(
        'variables:',
        '  base: &base',
        '    image: golang',
        '    pull: maybe',
        'when: { event: push }',
        'steps:',
        '  test:',
        '    <<: *base',
        '    commands: [go test]',
      ),
      V317,
    );
    expect(report.errors).toEqual([
      expect.objectContaining({ field: 'steps.test.pull', line: 4, column: 11 }),
    ]);
  });

  it("reads Woodpecker's list merge (- <<: *list) as the list spliced in", () => {
    const report = lintConfig(
      lines(
        'variables:',
        '  cmds: &cmds',
        '    - go version',
        'when: { event: push }',
        'steps:',
        '  test:',
        '    image: golang',
        '    commands:',
        '      - <<: *cmds',
        '      - go test',
      ),
      V317,
    );
    expect(report.errors).toEqual([]);
  });

  it('places a deprecated variable where the text first uses it', () => {
    const report = lintConfig(
      lines(
        'when: { event: push }',
        'steps:',
        '  a:',
        '    image: alpine',
        '    commands: ["echo ${CI_COMMIT_AUTHOR_AVATAR}"]',
      ),
      V317,
    );
    expect(report.warnings).toEqual([
      expect.objectContaining({ rule: 'deprecated', line: 5, column: 22 }),
    ]);
  });
});

describe('the YAML itself', () => {
  it('refuses a duplicate key and a second document, with their places', () => {
    expect(lintConfig(lines('steps: {}', 'steps: {}'), V317).errors).toEqual([
      expect.objectContaining({ rule: 'yaml', line: 2, column: 1 }),
    ]);
    expect(rules(lintConfig(lines('steps: {}', '---', 'steps: {}'), V317).errors)).toEqual([
      'yaml',
    ]);
  });

  it('says in its own words that a workflow file holds one document, and where the second starts', () => {
    const [finding, ...rest] = lintConfig(
      lines('steps:', '  a: {image: x}', '---', 'steps: {}'),
      V317,
    ).errors;
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ rule: 'yaml', line: 3, column: 1 });
    // Not the YAML library's advice to its own callers.
    expect(finding!.message).not.toMatch(/parseAllDocuments|YAML\./);
    expect(finding!.message).toMatch(/one YAML document/);
    expect(finding!.message).toMatch(/line 3, column 1/);
  });

  it('refuses nesting deeper than any pipeline, without overflowing the stack', () => {
    const deep = `steps: ${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const report = lintConfig(deep, V317);
    expect(report.errors.length).toBeGreaterThan(0);
    expect(report.errors.every((finding) => finding.rule === 'yaml')).toBe(true);
  });

  it('warns of, and reads past, a stray closing bracket Woodpecker ignores', () => {
    const report = lintConfig(
      '{steps: { a: { image: alpine, commands: [x] } }, when: { event: push } } }',
      V317,
    );
    expect(report.errors).toEqual([]);
    expect(rules(report.warnings)).toEqual(['yaml']);
  });
});

describe('what differs between releases', () => {
  const services = lines(
    'when: { event: push }',
    'steps: { a: { image: alpine, commands: [x] } }',
    'services:',
    '  - { name: db, image: mysql }',
    '  - { name: db, image: postgres }',
  );
  it('duplicate service names are an error from 3.18 on only', () => {
    expect(rules(lintConfig(services, V318).errors)).toContain('service-name');
    expect(rules(lintConfig(services, V317).errors)).not.toContain('service-name');
  });

  it('network_mode none needs no trust after 3.11; any network_mode does on 3.11', () => {
    const none = lines(
      'when: { event: push }',
      'steps: { a: { image: alpine, commands: [x], network_mode: none } }',
    );
    expect(rules(lintConfig(none, V317).warnings)).not.toContain('trusted');
    expect(rules(lintConfig(none, '3.11.0').warnings)).toContain('trusted');
  });

  it('an optional dependency on a missing step is fine after 3.11', () => {
    const optional = lines(
      'when: { event: push }',
      'steps:',
      '  a: { image: alpine, commands: [x], depends_on: [{ name: gone, optional: true }] }',
    );
    expect(rules(lintConfig(optional, V317).errors)).not.toContain('depends_on');
    const required = optional.replace('optional: true', 'optional: false');
    expect(rules(lintConfig(required, V317).errors)).toContain('depends_on');
  });
});

describe('the release a server is judged by', () => {
  it('is the newest tested one not newer than it', () => {
    expect(schemaFor('3.11.0').version).toBe('3.11.0');
    expect(schemaFor('3.16.4').version).toBe('3.11.0');
    expect(schemaFor('3.17.2').version).toBe('3.17.0');
    expect(schemaFor('3.18.0').version).toBe(V318);
    expect(schemaFor('3.19.0').version).toBe(V318);
    expect(schemaFor('3.2.0').version).toBe('3.11.0');
    expect(schemaFor('next-a4cb541').version).toBe(V318);
    expect(schemaFor(undefined).version).toBe(V318);
  });

  it('names 3.18 by its name', () => {
    expect(releaseName(V318)).toBe('3.18 (main at a4cb541, before 3.18.0)');
    expect(releaseName('3.17.0')).toBe('3.17');
  });
});

describe('image names as Woodpecker compares them', () => {
  it.each([
    ['docker.io/woodpeckerci/plugin-git:2.9.2', 'woodpeckerci/plugin-git'],
    ['woodpeckerci/plugin-git@sha256:abc', 'woodpeckerci/plugin-git'],
    ['docker.io/library/alpine:3', 'alpine'],
    ['quay.io/woodpeckerci/plugin-git', 'quay.io/woodpeckerci/plugin-git'],
    ['registry:5000/team/image:1', 'registry:5000/team/image'],
  ])('%s → %s', (image, name) => expect(imageName(image)).toBe(name));
});
