// Reads the operator's policy file (WOODPECKER_MCP_POLICY) at startup and refuses it,
// naming file and line, for anything it does not understand: an unknown tool, group,
// field or key, a rule that cannot apply to the tool it names, or an attempt to remove
// caution (there is no `allow`). The YAML parser and Ajv load only when the variable is set.
// The refusal reaches stderr and the MCP client, and the variable may point at the wrong
// file (an env file, a secret), so it says where and what, never what the file holds: the
// first problem with its line, no value, no key that is not close to a known one.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import type { Document, LineCounter } from 'yaml';
import { lazyModule } from '../core/lazyModule.js';
import type { ToolDefinition } from '../core/tool.js';
import { fieldPath, lineOfPath, yamlSyntaxProblems } from '../core/yamlPlaces.js';
import { POLICY_SCHEMA } from './policySchema.js';
import {
  unfitFor,
  withScheduling,
  type Effect,
  type LimitSpec,
  type PolicyRule,
} from './policyRule.js';

export const POLICY_VARIABLE = 'WOODPECKER_MCP_POLICY';

const yamlModule = lazyModule<typeof import('yaml')>('yaml');
const ajvModule = lazyModule<typeof import('ajv')>('ajv');

export class PolicyFileRefused extends Error {
  override readonly name = 'PolicyFileRefused';
}

/** Said wherever a file tries to take caution away. */
const ONLY_CAUTION =
  'a policy can only add caution (ask, deny, limit): it cannot remove a question tools.yaml asks, nor widen WOODPECKER_READ_ONLY, WOODPECKER_ALLOW_TOOLS / WOODPECKER_DENY_TOOLS or WOODPECKER_REPOS';

/** Keys that read like a way around a question or a refusal, answered with ONLY_CAUTION. */
const WIDENING_KEY = /allow|never|skip|bypass|unguard|read_?only|trust|exempt|override|except/i;

/** The largest policy file read; a real one is a few kilobytes. */
export const MAX_POLICY_BYTES = 1024 * 1024;

/**
 * A name is repeated only when it is a near miss of a known one (a typo, then, not
 * something the file holds); otherwise it is named by its place.
 */
function nearMiss(name: string, known: Iterable<string>): boolean {
  for (const candidate of known) if (withinTwoEdits(candidate, name)) return true;
  return false;
}

const WINDOW_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

interface RawRule {
  readonly name: string;
  readonly tools?: string[];
  readonly groups?: string[];
  readonly repositories?: (number | string)[];
  readonly branches?: string[];
  readonly events?: string[];
  readonly deploy_to?: string[];
  readonly effect: Effect;
  readonly because?: string;
  readonly limit?: { builds: number; per: 'repository' | 'credential'; window: string };
}

export interface LoadedPolicy {
  readonly file: string;
  readonly rules: readonly PolicyRule[];
}

/**
 * @param catalogue every tool this server has (not only the selected ones: a rule about
 *   a tool the selection hides is harmless, and stays in force if the selection changes).
 * @throws PolicyFileRefused naming the file, the line and the fix.
 */
export function loadPolicyFile(file: string, catalogue: readonly ToolDefinition[]): LoadedPolicy {
  return parsePolicy(readPolicyText(file), file, catalogue);
}

/**
 * The file's text, read only from a regular file (a symlink to one is fine: a Kubernetes
 * ConfigMap is mounted that way) of at most MAX_POLICY_BYTES. Opened without blocking, so
 * a FIFO is refused at once instead of waiting for a writer; /dev/zero is a device.
 */
function readPolicyText(file: string): string {
  const refuse = (why: string) =>
    new PolicyFileRefused(
      `${POLICY_VARIABLE}: ${file} ${why}. Point it at the policy's YAML file, or unset it to run without an operator policy.`,
    );
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const kind = stat.isDirectory()
        ? 'a directory'
        : stat.isFIFO()
          ? 'a FIFO'
          : stat.isSocket()
            ? 'a socket'
            : 'a device';
      throw refuse(`is not a regular file (${kind})`);
    }
    if (stat.size > MAX_POLICY_BYTES) throw refuse('is larger than 1 MiB, which no policy is');
    const buffer = Buffer.alloc(MAX_POLICY_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_POLICY_BYTES) throw refuse('is larger than 1 MiB, which no policy is');
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof PolicyFileRefused) throw error;
    throw refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  } finally {
    closeSync(fd);
  }
}

export function parsePolicy(
  text: string,
  file: string,
  catalogue: readonly ToolDefinition[],
): LoadedPolicy {
  const yaml = yamlModule();
  const lines = new yaml.LineCounter();
  // Keys are checked for repeats below, in one pass: the parser's own check compares each
  // key with every earlier one, which took minutes on a file of 60k keys.
  const doc = yaml.parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false,
    prettyErrors: false,
  });
  const problems = new Problems(file);
  for (const { line, message } of yamlSyntaxProblems(doc, lines))
    problems.add(
      () => line,
      '',
      () => message,
    );
  keyAndAliasProblems(yaml, doc, lines, problems);
  // A tag the YAML parser does not resolve (!!js/function) is something this file says that
  // nothing here understands: refused like an unknown key, never loaded as a plain string.
  for (const warning of doc.warnings)
    problems.add(
      () => lines.linePos(warning.pos[0]).line,
      '',
      () =>
        `a YAML tag this server does not understand (${warning.code}); write the value without a tag`,
    );
  let data: unknown;
  if (problems.count === 0) {
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch {
      // Every alias has its anchor (checked above), so what yaml refuses here is a
      // document whose aliases expand without bound (an "alias bomb").
      problems.add(
        () => 1,
        '',
        () => 'its aliases expand past 100 uses, which no policy needs; write the rules out',
      );
    }
  }
  if (problems.count === 0) {
    const ajv = new (ajvModule().Ajv)({ allErrors: true, strict: false, verbose: true });
    const validate = ajv.compile(POLICY_SCHEMA);
    if (!validate(data)) {
      for (const error of significant(validate.errors ?? [])) {
        const extra =
          error.keyword === 'additionalProperties'
            ? String(error.params['additionalProperty'])
            : undefined;
        const close = extra === undefined ? undefined : closeKey(error, extra);
        problems.add(
          () => {
            const segments = segmentsOf(error.instancePath);
            return lineOfPath(
              yaml,
              doc,
              lines,
              extra === undefined ? segments : [...segments, extra],
            );
          },
          fieldPath(segmentsOf(error.instancePath)),
          // An unknown key is named only when it is close to a known one (then it is a
          // typo, not something the file holds): the file may not be a policy at all.
          () => schemaMessage(error, extra, close),
          // A misspelt key explains the "missing" one beside it: it goes first.
          close !== undefined,
        );
      }
    } else {
      checkRules(
        (data as { rules: RawRule[] }).rules,
        catalogue,
        (index, key, message, place) => {
          const path = key === undefined ? ['rules', index] : ['rules', index, key];
          const line = place === undefined ? path : [...path, place];
          problems.add(() => lineOfPath(yaml, doc, lines, line), fieldPath(path), message);
        },
        (index) => lineOfPath(yaml, doc, lines, ['rules', index]),
      );
    }
  }
  problems.throwIfAny();
  const rules = (data as { rules: RawRule[] }).rules.map((raw, index) =>
    withScheduling(compile(raw, lineOfPath(yaml, doc, lines, ['rules', index])), catalogue),
  );
  return { file, rules };
}

/**
 * The first problem of a file and how many others. A problem is worded, and its line
 * found, only when it is the one shown: a file of a million bytes of problems is refused
 * in time that grows with its size, not with its square.
 */
class Problems {
  count = 0;
  private first: string | undefined;
  private firstExplains = false;

  constructor(private readonly file: string) {}

  /** @param explains the problem explains others (a misspelt key): shown before them. */
  add(line: () => number, field: string, message: () => string, explains = false): void {
    this.count++;
    if (this.first !== undefined && (this.firstExplains || !explains)) return;
    this.first = `${this.file}:${line()}: ${field ? `${field}: ` : ''}${message()}`;
    this.firstExplains = explains;
  }

  throwIfAny(): void {
    if (this.first === undefined) return;
    const more = this.count - 1;
    throw new PolicyFileRefused(
      `${POLICY_VARIABLE}: the policy file was refused, so the server did not start:\n${this.first}${more > 0 ? `\n(and ${more} more problem${more === 1 ? '' : 's'} after it; fix this one first)` : ''}`,
    );
  }
}

/**
 * A key written twice in one mapping (the later would silently win), a key that is not
 * plain text (an alias, a list or a map as a key), and an alias to an anchor not set
 * before it, each at its line: one pass in document order (the parser's own checks
 * compare each key with every earlier one, and look each alias up from the top).
 */
function keyAndAliasProblems(
  yaml: typeof import('yaml'),
  doc: Document,
  lines: LineCounter,
  problems: Problems,
): void {
  const anchors = new Set<string>();
  const lineAt = (node: unknown) => () =>
    lines.linePos((node as { range?: [number, number, number] } | null)?.range?.[0] ?? 0).line;
  const anchored = (_: unknown, node: { anchor?: string | undefined }) => {
    if (node.anchor) anchors.add(node.anchor);
  };
  yaml.visit(doc, {
    Scalar: anchored,
    Seq: anchored,
    Alias(_, alias) {
      // Its name is the file's text, so it is not repeated.
      if (!anchors.has(alias.source))
        problems.add(
          lineAt(alias),
          '',
          () =>
            'an alias (*) to an anchor (&) not set before it; set the anchor first or write the value out',
        );
    },
    Map(_, map) {
      anchored(_, map);
      const seen = new Set<string>();
      for (const { key } of map.items) {
        if (!yaml.isScalar(key)) {
          problems.add(
            lineAt(key),
            '',
            () => 'a key that is not plain text (an alias, a list or a map); write the key out',
          );
          continue;
        }
        const name = String(key.value);
        if (seen.has(name))
          problems.add(
            lineAt(key),
            '',
            () =>
              `not valid YAML at column ${lines.linePos(key.range?.[0] ?? 0).col}: Map keys must be unique (DUPLICATE_KEY); fix the YAML syntax`,
          );
        seen.add(name);
      }
    },
  });
}

function checkRules(
  rules: readonly RawRule[],
  catalogue: readonly ToolDefinition[],
  /** @param place the entry of a list (`tools`, `groups`) whose line to name. */
  refuse: (index: number, key: string | undefined, message: () => string, place?: number) => void,
  lineOfRule: (index: number) => number,
): void {
  const byName = new Map(catalogue.map((tool) => [tool.name, tool] as const));
  const groups = new Set(catalogue.map((tool) => tool.group));
  const seen = new Map<string, number>();
  rules.forEach((rule, index) => {
    const first = seen.get(rule.name);
    // The name is the file's text: the rule it repeats is named by its line.
    if (first !== undefined)
      refuse(
        index,
        'name',
        () =>
          `is the name of the rule at line ${lineOfRule(first)} already; rule names must be unique`,
      );
    else seen.set(rule.name, index);
    if (rule.effect === 'limit' && !rule.limit)
      refuse(
        index,
        'effect',
        () => 'is limit, but the rule has no `limit: { builds, per, window }`',
      );
    if (rule.effect !== 'limit' && rule.limit)
      refuse(
        index,
        'limit',
        () => `is given, but the effect is ${rule.effect}; write effect: limit`,
      );
    const probe = compile(rule, 0);
    (rule.tools ?? []).forEach((name, place) => {
      const tool = byName.get(name);
      if (!tool) {
        refuse(
          index,
          'tools',
          () =>
            `${nearMiss(name, byName.keys()) ? name : `rules[${index}].tools[${place}]`} is not a tool of this server (docs/tools.md lists them)`,
          place,
        );
        return;
      }
      const unfit = unfitFor(probe, tool);
      if (unfit) refuse(index, 'tools', () => `cannot apply to ${name}: ${unfit}`, place);
    });
    const fits = new Map<string, boolean>();
    (rule.groups ?? []).forEach((group, place) => {
      if (!groups.has(group)) {
        refuse(
          index,
          'groups',
          () =>
            `${nearMiss(group, groups) ? group : `rules[${index}].groups[${place}]`} is not a group (known: ${[...groups].sort().join(', ')})`,
          place,
        );
        return;
      }
      let fitting = fits.get(group);
      if (fitting === undefined) {
        fitting = catalogue.some(
          (tool) => tool.group === group && unfitFor(probe, tool) === undefined,
        );
        fits.set(group, fitting);
      }
      if (!fitting)
        refuse(
          index,
          'groups',
          () => `no tool of ${group} fits this rule (its effect or its conditions)`,
          place,
        );
    });
  });
}

function compile(raw: RawRule, line: number): PolicyRule {
  const limit: LimitSpec | undefined = raw.limit && {
    builds: raw.limit.builds,
    per: raw.limit.per,
    window: raw.limit.window,
    windowMs:
      Number(raw.limit.window.slice(0, -1)) *
      WINDOW_UNIT_MS[raw.limit.window.slice(-1) as keyof typeof WINDOW_UNIT_MS],
  };
  return {
    name: raw.name,
    line,
    effect: raw.effect,
    ...(raw.tools ? { tools: raw.tools } : {}),
    ...(raw.groups ? { groups: raw.groups } : {}),
    ...(raw.repositories ? { repositories: raw.repositories } : {}),
    ...(raw.branches ? { branches: raw.branches } : {}),
    ...(raw.events ? { events: raw.events } : {}),
    ...(raw.deploy_to ? { deployTo: raw.deploy_to } : {}),
    ...(raw.because ? { because: raw.because.trim().replace(/\s+/g, ' ') } : {}),
    ...(limit ? { limit } : {}),
  };
}

/** The keys the schema knows where an unknown key was found. */
function knownKeys(error: ErrorObject): string[] {
  return Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
}

/** A known key the unknown one is a near miss of, if any. */
function closeKey(error: ErrorObject, extra: string): string | undefined {
  return knownKeys(error).find((name) => withinTwoEdits(name, extra));
}

function schemaMessage(
  error: ErrorObject,
  extra: string | undefined,
  close: string | undefined,
): string {
  if (extra !== undefined) {
    const known = knownKeys(error);
    return `an unknown key${close ? ` (did you mean ${close}?)` : ''}; remove it or correct its spelling (known here: ${known.join(', ')})${WIDENING_KEY.test(extra) ? `. ${ONLY_CAUTION}` : ''}`;
  }
  const path = error.instancePath;
  if (path.endsWith('/effect')) return `must be ask, deny or limit; ${ONLY_CAUTION}`;
  switch (error.keyword) {
    case 'required':
      return `${String(error.params['missingProperty'])} is missing; add it`;
    case 'anyOf':
      return path.includes('/repositories/')
        ? 'must be a repository id (a number) or an "owner/name" pattern'
        : 'a rule names `tools` or `groups` (or both)';
    case 'enum':
      return `must be one of ${((error.params['allowedValues'] as unknown[]) ?? []).join(', ')}`;
    case 'pattern':
      return path.endsWith('/name')
        ? 'a rule name is lowercase letters, digits, ".", "_" and "-" (it appears in messages and the audit log)'
        : path.endsWith('/window')
          ? 'a window is a number and a unit: 90s, 30m, 1h, 1d'
          : `${error.message ?? 'does not fit'}`;
    default:
      return error.message ?? 'is not valid here';
  }
}

/**
 * At most two letters to change, add or remove turn one word into the other. Words whose
 * lengths differ by more are not compared (a key may be a hundred kilobytes long).
 */
function withinTwoEdits(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= 2 && editDistance(a, b) <= 2;
}

/** Letters to change, add or remove to turn one word into the other. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        row[j - 1]! + 1,
        previous[j]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length]!;
}

/** Ajv's anyOf reports each branch too; the branches say less than the anyOf itself. */
function significant(errors: readonly ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(
    errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath),
  );
  const kept = errors.filter(
    (error) =>
      error.keyword === 'anyOf' ||
      !(
        anyOfPaths.has(error.instancePath) &&
        (error.keyword === 'required' ||
          error.keyword === 'type' ||
          error.keyword === 'minimum' ||
          error.keyword === 'pattern')
      ),
  );
  const seen = new Set<string>();
  return kept.filter((error) => {
    const key = `${error.instancePath}|${error.keyword}|${String(error.params['additionalProperty'] ?? '')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function segmentsOf(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
