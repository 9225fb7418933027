// lint_pipeline_config against Woodpecker's own tests, read from the source archive of
// each tested release (never copied here): the schema test's configs, good and broken,
// and the linter tests' cases (errors, deprecations, bad habits, configs that must pass).
// What each case expects is read from the Go test files too, so a release whose tests
// change is checked against its own expectations. Also: the schema artefacts in
// specs/pipeline-schema/ are the schemas those archives ship, byte for byte.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { knownWoodpeckerBuilds } from '../../harness/woodpecker-binaries.js';
import { lintConfig, type LintFinding } from '../../../runtime/lint/lintConfig.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCES = process.env.WOODPECKER_SRC_DIR || join(ROOT, '..', 'shared', 'woodpecker-src');
const LINTER = 'pipeline/frontend/yaml/linter';

function archiveOf(tag: string): string {
  const archive = join(SOURCES, `woodpecker-${tag}.tar.gz`);
  if (!existsSync(archive))
    throw new Error(
      `${archive} is missing: set WOODPECKER_SRC_DIR to the folder of source archives`,
    );
  return archive;
}

const read = (archive: string, tag: string, path: string): string =>
  execFileSync('tar', ['-xzOf', archive, `woodpecker-${tag}/${path}`], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });

/** A Go interpreted string literal's text ("a\nb" → a, newline, b). */
const goString = (literal: string): string => JSON.parse(`"${literal}"`) as string;
const GO_STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const GO_RAW = '`([^`]*)`';

/** The body of one Go test function. */
function testFunction(source: string, name: string): string {
  const start = source.indexOf(`func ${name}(`);
  if (start < 0) return '';
  const next = source.indexOf('\nfunc ', start + 1);
  return source.slice(start, next < 0 ? undefined : next);
}

/** Woodpecker's message for a finding → the rule of ours that reports the same thing. */
const RULE_OF: readonly (readonly [RegExp, string])[] = [
  [/`steps` section/, 'steps'],
  [/missing image/, 'image'],
  [/trust level/, 'trusted'],
  [/`settings`/, 'settings'],
  [/Additional property/, 'schema'],
  [/formerly privileged/, 'privileged-plugin'],
  [/clone image/, 'clone-image'],
  [/dependencies/, 'depends_on'],
  [/Service names/, 'service-name'],
  [/deprecated/, 'deprecated'],
  [/event filter|`event`/, 'event-filter'],
];

function ruleOf(message: string): string {
  const rule = RULE_OF.find(([pattern]) => pattern.test(message))?.[1];
  if (!rule) throw new Error(`no rule of ours stands for Woodpecker's "${message}"`);
  return rule;
}

const everything = (report: ReturnType<typeof lintConfig>): LintFinding[] => [
  ...report.errors,
  ...report.warnings,
];

const builds = knownWoodpeckerBuilds();

describe.each(builds)('Woodpecker $tag ($version)', ({ tag, version }) => {
  const archive = archiveOf(tag);
  const linterTests = read(archive, tag, `${LINTER}/linter_test.go`);

  it('its artefact in specs/pipeline-schema/ is the schema its archive ships', () => {
    const shipped = read(archive, tag, `${LINTER}/schema/schema.json`);
    const artefact = JSON.parse(
      readFileSync(join(ROOT, 'specs', 'pipeline-schema', `${version}.json`), 'utf8'),
    ) as { 'x-woodpecker-version': string; source: { sha256: string }; schema: unknown };
    expect(artefact['x-woodpecker-version']).toBe(version);
    expect(artefact.source.sha256).toBe(createHash('sha256').update(shipped).digest('hex'));
    expect(artefact.schema).toEqual(JSON.parse(shipped));
  });

  it('judges the schema test configs as Woodpecker does: the broken ones broken, the rest clean', () => {
    const table = testFunction(read(archive, tag, `${LINTER}/schema/schema_test.go`), 'TestSchema');
    const cases = [...table.matchAll(/testFile:\s*"([^"]+)",(?:\s*fail:\s*(true|false),)?/g)].map(
      (match) => ({ file: match[1]!, fail: match[2] === 'true' }),
    );
    expect(cases.length).toBeGreaterThan(15);
    expect(cases.filter((c) => c.fail).length).toBeGreaterThanOrEqual(3);
    for (const { file, fail } of cases) {
      const report = lintConfig(read(archive, tag, `${LINTER}/schema/${file}`), version);
      expect(report.judgedBy, file).toBe(version);
      const schemaErrors = report.errors.filter((finding) => finding.rule === 'schema');
      if (fail) expect(schemaErrors.length, `${file} is broken`).toBeGreaterThan(0);
      else expect(report.errors, `${file} is a good config`).toEqual([]);
      for (const finding of everything(report)) {
        expect(finding.line, `${file}: ${finding.message}`).toBeGreaterThan(0);
        expect(finding.column, `${file}: ${finding.message}`).toBeGreaterThan(0);
      }
    }
  });

  it("finds what each of the linter's error cases wants, by the rule that stands for it", () => {
    const body = testFunction(linterTests, 'TestLintErrors');
    const cases = [
      ...body.matchAll(new RegExp(`from:\\s*${GO_STRING},\\s*want:\\s*${GO_STRING}`, 'g')),
    ];
    expect(cases.length).toBeGreaterThan(15);
    for (const [, from, want] of cases) {
      const rule = ruleOf(goString(want!));
      const found = everything(lintConfig(goString(from!), version)).map((finding) => finding.rule);
      expect(found, `${goString(from!)} → ${goString(want!)}`).toContain(rule);
    }
  });

  it('warns of a step without an event filter where the bad-habit cases want it', () => {
    const body = testFunction(linterTests, 'TestBadHabits');
    const cases = [
      ...body.matchAll(new RegExp(`from:\\s*${GO_STRING},\\s*want:\\s*${GO_STRING}`, 'g')),
    ];
    expect(cases.length).toBeGreaterThanOrEqual(2);
    for (const [, from] of cases) {
      const report = lintConfig(goString(from!), version);
      expect(
        report.warnings.map((finding) => finding.rule),
        goString(from!),
      ).toContain('event-filter');
    }
  });

  it('warns of a deprecated variable exactly where the deprecation cases want one', () => {
    const body = testFunction(linterTests, 'TestDeprecations');
    const cases = [
      ...body.matchAll(new RegExp(`from:\\s*${GO_RAW},\\s*want:\\s*${GO_STRING}`, 'g')),
    ];
    // 3.11 has no such test: its release does not deprecate these variables.
    if (body === '') return expect(cases).toEqual([]);
    expect(cases.length).toBeGreaterThan(5);
    for (const [, from, want] of cases) {
      const variables = everything(lintConfig(from!, version)).filter(
        (finding) => finding.rule === 'deprecated' && !finding.message.includes('runs_on'),
      );
      const wanted = /`(CI_[A-Z_]+)`/.exec(goString(want!))?.[1];
      if (wanted === undefined) expect(variables, from).toEqual([]);
      else expect(variables.map((finding) => finding.message).join(' '), from).toContain(wanted);
    }
  });

  it('finds no error in the configs the linter test says are clean', () => {
    const body = testFunction(linterTests, 'TestLint');
    const configs = [
      ...[...body.matchAll(new RegExp(`Data:\\s*${GO_RAW}`, 'g'))].map((match) => match[1]!),
      ...[...body.matchAll(new RegExp(`Data:\\s*${GO_STRING}`, 'g'))].map((match) =>
        goString(match[1]!),
      ),
    ];
    expect(configs.length).toBeGreaterThanOrEqual(3);
    for (const config of configs) expect(lintConfig(config, version).errors, config).toEqual([]);
  });
});
