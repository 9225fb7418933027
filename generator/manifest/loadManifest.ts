// Stage 1: read tools.yaml, keep where every node came from, and validate it against
// generator/manifest/manifest.schema.json. Schema errors become Problems with a line, a tool and
// a field, never a raw Ajv dump.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { LineCounter, parseDocument } from 'yaml';
import { ManifestError, fieldPath, type Problem } from '../manifestError.js';
import type { Manifest } from './manifestTypes.js';
import { expandParamSets } from './paramSets.js';
import { SourceLocator } from './sourceLocator.js';
import { yamlSyntaxProblems } from '../../runtime/core/yamlPlaces.js';

const schema: unknown = JSON.parse(
  readFileSync(new URL('./manifest.schema.json', import.meta.url), 'utf8'),
);

export interface LoadedManifest {
  readonly manifest: Manifest;
  readonly locator: SourceLocator;
  /** As given on the command line; prefixes every message. */
  readonly file: string;
}

export function loadManifest(file: string): LoadedManifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ManifestError(file, [
      {
        line: 1,
        tool: '(manifest)',
        field: '(file)',
        message: 'cannot be read; pass the path with --manifest',
      },
    ]);
  }
  return parseManifest(text, file);
}

export function parseManifest(text: string, file: string): LoadedManifest {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const locator = new SourceLocator(doc, lines);
  if (doc.errors.length > 0) {
    throw new ManifestError(
      file,
      yamlSyntaxProblems(doc, lines).map(({ line, message }) => ({
        line,
        tool: '(manifest)',
        field: '(yaml)',
        message,
      })),
    );
  }
  const data: unknown = doc.toJS();
  const problems = [...validateAgainstSchema(data, locator), ...policyFirstProblems(data, locator)];
  if (problems.length > 0) throw new ManifestError(file, problems);
  const expanded = expandParamSets(data as Manifest, locator);
  if (expanded.problems.length > 0) throw new ManifestError(file, expanded.problems);
  return { manifest: expanded.manifest, locator, file };
}

/**
 * A reviewer reads a tool's policy before its prose: the four annotations, the guard, who
 * may call it, which arguments the repository allowlist checks and what its answer may
 * carry come first, then description, params, calls.
 * The order is part of the manifest's format, so a diff of policy is never buried in text.
 */
export const TOOL_KEY_ORDER = [
  'name',
  'title',
  'group',
  'annotations',
  'guard',
  'admin_only',
  'essential',
  'repositories',
  'policy_facts',
  'output',
  'handler',
  'app',
  'description',
  'params_from',
  'params',
  'calls',
  'reads_first',
  'errors',
  'read_back',
];

function policyFirstProblems(data: unknown, locator: SourceLocator): Problem[] {
  const tools = (data as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return [];
  const problems: Problem[] = [];
  tools.forEach((tool: unknown, index) => {
    if (typeof tool !== 'object' || tool === null) return;
    let highest = -1;
    for (const key of Object.keys(tool)) {
      const rank = TOOL_KEY_ORDER.indexOf(key);
      if (rank === -1) continue;
      if (rank < highest) {
        problems.push({
          line: locator.lineOf(['tools', index, key]),
          tool: toolName(data, index),
          field: key,
          message: `comes after ${TOOL_KEY_ORDER[highest]}; write a tool's keys policy first, in this order: ${TOOL_KEY_ORDER.join(', ')}`,
        });
        return;
      }
      highest = rank;
    }
  });
  return problems;
}

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(schema as object);

function validateAgainstSchema(data: unknown, locator: SourceLocator): Problem[] {
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of mostSpecific(errors)) {
    const problem = toProblem(error, errors, data, locator);
    if (!problem) continue;
    const key = `${problem.line}|${problem.field}|${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems.sort((a, b) => a.line - b.line || a.field.localeCompare(b.field));
}

/**
 * `oneOf` reports every branch that failed. An error whose instance has a deeper error
 * under it is branch noise: the deeper one says what is really wrong.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject[] {
  return errors.filter(
    (error) => !errors.some((other) => other.instancePath.startsWith(`${error.instancePath}/`)),
  );
}

function segmentsOf(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function toProblem(
  error: ErrorObject,
  all: readonly ErrorObject[],
  data: unknown,
  locator: SourceLocator,
): Problem | undefined {
  const segments = segmentsOf(error.instancePath);
  const toolIndex =
    segments[0] === 'tools' && typeof segments[1] === 'number' ? segments[1] : undefined;
  const within = toolIndex === undefined ? segments : segments.slice(2);
  const tool = toolIndex === undefined ? '(manifest)' : toolName(data, toolIndex);
  const samePath = all.filter((other) => other.instancePath === error.instancePath);
  const inOneOf = samePath.some((other) => other.keyword === 'oneOf');

  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params['missingProperty']);
      if (inOneOf && !singleBranch(samePath.filter((other) => other.keyword === 'required')))
        return undefined;
      return {
        line: locator.lineOf(segments),
        tool,
        field: fieldPath([...within, missing]),
        message: `is missing; add it${safetyNote(missing)}`,
      };
    }
    case 'additionalProperties': {
      const extra = String(error.params['additionalProperty']);
      const known = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      return {
        line: locator.lineOf([...segments, extra]),
        tool,
        field: fieldPath([...within, extra]),
        message: `unknown key; remove it or correct its spelling${known.length > 0 ? ` (known here: ${known.join(', ')})` : ''}`,
      };
    }
    case 'oneOf': {
      // Reported only when no branch said anything more specific at this place.
      const specific = samePath.some(
        (other) =>
          other.keyword === 'additionalProperties' ||
          (other.keyword === 'required' &&
            singleBranch(samePath.filter((e) => e.keyword === 'required'))),
      );
      if (specific) return undefined;
      const description = (error.parentSchema as { description?: string } | undefined)?.description;
      return {
        line: locator.lineOf(segments),
        tool,
        field: fieldPath(within),
        message: `not understood; it must be ${description ?? 'one of the documented forms'}`,
      };
    }
    case 'const':
    case 'type':
      if (inOneOf) return undefined;
      break;
    case 'enum':
      return {
        line: locator.lineOf(segments),
        tool,
        field: fieldPath(within),
        message: `must be one of ${(error.params['allowedValues'] as unknown[]).map(String).join(', ')}`,
      };
    default:
      break;
  }
  return {
    line: locator.lineOf(segments),
    tool,
    field: fieldPath(within),
    message: `${error.message ?? error.keyword}; see docs/manifest.md`,
  };
}

/** Required errors from several `oneOf` branches are noise; from one branch they are the answer. */
function singleBranch(errors: readonly ErrorObject[]): boolean {
  return new Set(errors.map((error) => error.schemaPath)).size === 1;
}

function toolName(data: unknown, index: number): string {
  const tools = (data as { tools?: unknown } | null)?.tools;
  const name = Array.isArray(tools)
    ? (tools[index] as { name?: unknown } | undefined)?.name
    : undefined;
  return typeof name === 'string' ? name : `tools[${index}]`;
}

const SAFETY_FIELDS = new Set([
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
  'guard',
  'redact',
  'reveal',
  'untrusted',
]);

function safetyNote(field: string): string {
  return SAFETY_FIELDS.has(field) ? ' explicitly (safety fields have no default)' : '';
}
