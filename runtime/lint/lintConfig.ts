// A pipeline config checked the way a given Woodpecker release checks it: YAML syntax,
// that release's pipeline schema, then the linter's own checks. Nothing here sends the
// text anywhere; it is read and forgotten.
import { fieldPath } from '../core/yamlPlaces.js';
import {
  compareRelease,
  releaseNumbers,
  schemaFor,
  type PipelineSchema,
} from './pipelineSchemas.js';
import { SchemaCheck } from './schemaCheck.js';
import { woodpeckerRules } from './woodpeckerRules.js';
import { parseYamlTree } from './yamlTree.js';

export interface LintFinding {
  readonly line: number;
  readonly column: number;
  /** The path as people write it: steps.build.image ('' for the file as a whole). */
  readonly field: string;
  readonly rule: string;
  readonly message: string;
}

export interface LintReport {
  /** The release whose schema and checks judged it. */
  readonly judgedBy: string;
  readonly errors: readonly LintFinding[];
  readonly warnings: readonly LintFinding[];
  /** Findings past MAX_FINDINGS of a kind, counted but not placed or listed. */
  readonly unlisted: number;
}

// Errors, and warnings, listed at most: placing a finding reads the tree from its root (a
// file of 17,000 unknown keys: 17,000 reads, 20 s), and no one fixes more at once.
export const MAX_FINDINGS = 100;

const checks = new Map<string, SchemaCheck>();

function schemaCheckOf(schema: PipelineSchema): SchemaCheck {
  let check = checks.get(schema.version);
  if (!check) checks.set(schema.version, (check = new SchemaCheck(schema.schema)));
  return check;
}

export function lintConfig(text: string, serverVersion: string | undefined): LintReport {
  const schema = schemaFor(serverVersion);
  const tree = parseYamlTree(text);
  const errors: LintFinding[] = tree.syntax.map((finding) => ({
    ...finding,
    field: '',
    rule: 'yaml',
  }));
  const warnings: LintFinding[] = tree.ignored.map((finding) => ({
    ...finding,
    field: '',
    rule: 'yaml',
  }));
  let unlisted = 0;
  /** Whether a finding fits its list; one that does not is counted instead. */
  const room = (list: readonly LintFinding[]): boolean => {
    if (list.length < MAX_FINDINGS) return true;
    unlisted++;
    return false;
  };
  if (errors.length === 0) {
    const at = (segments: readonly (string | number)[], atKey = false) => ({
      ...tree.placeOf(segments, atKey),
      field: fieldPath(segments),
    });
    for (const finding of schemaCheckOf(schema).check(tree.value))
      if (room(errors))
        errors.push({
          ...at(finding.segments, finding.atKey),
          rule: 'schema',
          message: finding.message,
        });
    const release = releaseNumbers(schema.version) ?? [0, 0, 0];
    const rules = woodpeckerRules(tree.value, text, {
      after311: compareRelease(release, [3, 12, 0]) >= 0,
      since318: compareRelease(release, [3, 18, 0]) >= 0,
    });
    // The schema already says a step lacks `image`: the linter's same finding would repeat it.
    const schemaSaid = new Set(errors.map((finding) => `${finding.field}|${finding.message}`));
    for (const finding of rules) {
      if (
        finding.rule === 'image' &&
        schemaSaid.has(`${fieldPath(finding.segments)}|\`image\` is missing here`)
      )
        continue;
      if (!room(finding.severity === 'error' ? errors : warnings)) continue;
      const place =
        finding.offset === undefined
          ? at(finding.segments)
          : { ...tree.placeAtOffset(finding.offset), field: '' };
      (finding.severity === 'error' ? errors : warnings).push({
        ...place,
        rule: finding.rule,
        message: finding.message,
      });
    }
  }
  const order = (a: LintFinding, b: LintFinding) => a.line - b.line || a.column - b.column;
  unlisted +=
    Math.max(0, errors.length - MAX_FINDINGS) + Math.max(0, warnings.length - MAX_FINDINGS);
  return {
    judgedBy: schema.version,
    errors: errors.sort(order).slice(0, MAX_FINDINGS),
    warnings: warnings.sort(order).slice(0, MAX_FINDINGS),
    unlisted,
  };
}
