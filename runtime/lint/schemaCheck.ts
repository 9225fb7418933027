// A config checked against the pipeline schema of one Woodpecker release. Ajv reports
// every branch of a failed `oneOf`/`anyOf` (a step is a commands step or a plugin step; a
// step list is a map or a list), which would tell the reader both "commands is not
// allowed" and "settings is not allowed". Woodpecker's own check (gojsonschema) reports
// the closest branch only, and drops the bare "matches no branch" when a more precise
// finding says why; so does this, by validating the value against each branch again.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { lazyModule } from '../core/lazyModule.js';

const ajvModule = lazyModule<typeof import('ajv')>('ajv');

export interface SchemaFinding {
  /** The path of the value in the document (`steps`, `build`, `image`). */
  readonly segments: readonly (string | number)[];
  /** The finding is about a key (one that is not allowed), not its value. */
  readonly atKey: boolean;
  readonly message: string;
}

type Json = Record<string, unknown>;
/** Composition nested deeper than this is not explained further (Woodpecker's nests 3). */
const MAX_BRANCH_DEPTH = 8;

export class SchemaCheck {
  private readonly ajv: InstanceType<typeof import('ajv').Ajv>;
  private readonly root: ValidateFunction;
  private readonly id: string;
  /** Each subschema object of the schema → its JSON pointer, to validate a branch on its own. */
  private readonly pointers = new Map<object, string>();

  constructor(schema: Json) {
    this.id = typeof schema.$id === 'string' ? schema.$id : 'urn:woodpecker-pipeline-schema';
    const rooted = { ...schema, $id: this.id };
    const Ajv = ajvModule().Ajv;
    // verbose: each error carries the schema it failed, so a oneOf error names its branches.
    this.ajv = new Ajv({
      allErrors: true,
      strict: false,
      verbose: true,
      validateFormats: false,
      logger: false,
    });
    this.root = this.ajv.compile(rooted);
    this.index(rooted, '');
  }

  check(value: unknown): SchemaFinding[] {
    return dedupe(this.explain(this.root, value, [], 0)).map((error) => findingOf(error));
  }

  private index(node: unknown, pointer: string): void {
    if (node === null || typeof node !== 'object') return;
    if (!this.pointers.has(node)) this.pointers.set(node, pointer);
    const entries = Array.isArray(node)
      ? node.map((item, i) => [String(i), item] as const)
      : Object.entries(node);
    for (const [key, child] of entries)
      this.index(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }

  private branch(schema: unknown): ValidateFunction | undefined {
    const pointer = typeof schema === 'object' && schema ? this.pointers.get(schema) : undefined;
    if (pointer === undefined) return undefined;
    const fragment = pointer.split('/').map(encodeURIComponent).join('/');
    return this.ajv.getSchema(`${this.id}#${fragment}`);
  }

  /** The errors of `value` against `validate`, with each failed composition narrowed to its closest branch. */
  private explain(
    validate: ValidateFunction,
    value: unknown,
    at: readonly string[],
    depth: number,
  ): Located[] {
    if (validate(value)) return [];
    const kept: Located[] = (validate.errors ?? [])
      .filter((error) => error.keyword !== 'if')
      .map((error) => ({ error, path: [...at, ...pointerSegments(error.instancePath)] }));
    // Entries by key and those dropped, so that each composition's narrowing costs what it
    // says, not the length of the whole list: a file of 3,000 steps (each a oneOf) took 12 s.
    const byKey = new Map<string, Located[]>();
    const dropped = new Set<Located>();
    const keep = (entry: Located) => {
      const key = keyOf(entry.error, entry.path);
      const same = byKey.get(key);
      if (same) same.push(entry);
      else byKey.set(key, [entry]);
    };
    kept.forEach(keep);
    const compositions = kept
      .filter(({ error }) => error.keyword === 'oneOf' || error.keyword === 'anyOf')
      .sort((a, b) => a.path.length - b.path.length);
    for (const composition of compositions) {
      if (dropped.has(composition) || depth >= MAX_BRANCH_DEPTH) continue;
      const branches = Array.isArray(composition.error.schema) ? composition.error.schema : [];
      const inner = valueAt(value, composition.path.slice(at.length));
      const validators = branches.map((branch) => this.branch(branch));
      if (validators.some((validator) => validator === undefined)) continue;
      // What every branch said, unexplained: these errors are the composition's, not the value's.
      const said = new Set<string>();
      for (const validator of validators as ValidateFunction[]) {
        if (validator(inner)) continue;
        for (const error of validator.errors ?? [])
          said.add(keyOf(error, [...composition.path, ...pointerSegments(error.instancePath)]));
      }
      const explained = (validators as ValidateFunction[]).map((validator) =>
        this.explain(validator, inner, composition.path, depth + 1),
      );
      const closest = closestBranch(explained, composition.path);
      for (const key of said)
        for (const entry of byKey.get(key) ?? []) if (entry !== composition) dropped.add(entry);
      // A precise reason replaces the bare "matches none of them", as Woodpecker filters it.
      if (closest.length > 0) dropped.add(composition);
      for (const entry of closest) {
        kept.push(entry);
        keep(entry);
      }
    }
    return kept.filter((entry) => !dropped.has(entry));
  }
}

interface Located {
  readonly error: ErrorObject;
  readonly path: readonly string[];
}

/** The branch with the fewest errors, where one whose type does not fit counts as far. */
function closestBranch(explained: readonly Located[][], at: readonly string[]): Located[] {
  const distance = (errors: readonly Located[]) =>
    errors.length +
    // Farther than any count of errors: 3,000 steps of one mistake each are still a map.
    (errors.some((e) => e.error.keyword === 'type' && e.path.length === at.length) ? 1e9 : 0);
  let best: Located[] = [];
  let bestDistance = Infinity;
  for (const errors of explained) {
    const d = distance(errors);
    if (d < bestDistance) [best, bestDistance] = [errors, d];
  }
  return best;
}

function keyOf(error: ErrorObject, path: readonly string[]): string {
  return `${path.join('/')}|${error.keyword}|${JSON.stringify(error.params)}`;
}

function dedupe(entries: readonly Located[]): Located[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = keyOf(entry.error, entry.path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** "/steps/build~1x" → ["steps", "build/x"]. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(value: unknown, segments: readonly string[]): unknown {
  let at = value;
  for (const segment of segments) at = (at as Json | undefined)?.[segment];
  return at;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  array: 'a list',
  object: 'a map',
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function findingOf({ error, path }: Located): SchemaFinding {
  const params = error.params as Json;
  const segments = path.map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as Json | undefined)?.properties ?? {});
      const near = nearest(key, allowed);
      return {
        segments: [...segments, key],
        atKey: true,
        message: `\`${key}\` is not a key Woodpecker knows here${near ? `; did you mean \`${near}\`?` : ''}`,
      };
    }
    case 'required':
      return {
        segments,
        atKey: false,
        message: `\`${String(params.missingProperty)}\` is missing here`,
      };
    case 'type': {
      const types = String(params.type)
        .split(',')
        .map((type) => TYPE_WORDS[type] ?? type);
      return { segments, atKey: false, message: `must be ${types.join(' or ')}` };
    }
    case 'enum':
      return {
        segments,
        atKey: false,
        message: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
      };
    case 'const':
      return { segments, atKey: false, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'minProperties':
    case 'minItems':
    case 'minLength':
      return { segments, atKey: false, message: 'must not be empty' };
    case 'minimum':
      return { segments, atKey: false, message: `must be at least ${String(params.limit)}` };
    case 'oneOf':
    case 'anyOf':
      return { segments, atKey: false, message: 'has none of the forms Woodpecker accepts here' };
    default:
      return { segments, atKey: false, message: error.message ?? 'is not valid here' };
  }
}

/** The allowed key one or two edits away (a typo: `matri` for `matrix`), if exactly one is. */
function nearest(key: string, allowed: readonly string[]): string | undefined {
  const close = allowed.filter((name) => name !== key && editDistance(key, name) <= 2);
  return close.length === 1 ? close[0] : undefined;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}
