// The predicate table is the one place the generator learns what a kind means. These
// tests hold it against the other places a kind has to exist: the JSON schema that
// accepts tools.yaml, the runtime helpers the generated code calls, and the docs table
// (the TypeScript union in manifestTypes.ts is held by tsc: the table is a mapped type
// over it). Adding a kind in one place but not another fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PREDICATE_KINDS,
  predicateFacts,
  type LeafPredicate,
} from '../../generator/rules/predicateKinds.js';
import * as guardPredicates from '../../runtime/gate/guardPredicates.js';
import { repoRoot } from './fixturePaths.js';

interface BodySchema {
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
}
interface Branch {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, BodySchema>>;
}

const schema = JSON.parse(
  readFileSync(join(repoRoot, 'generator', 'manifest', 'manifest.schema.json'), 'utf8'),
) as { definitions: { predicate: { description: string; oneOf: readonly Branch[] } } };
const predicateSchema = schema.definitions.predicate;

/** The kind of each `oneOf` branch: its one required key. */
const schemaBranches = new Map(
  predicateSchema.oneOf.map((branch) => {
    expect(branch.required).toHaveLength(1);
    const kind = branch.required[0] ?? '';
    return [kind, branch.properties[kind] ?? {}] as const;
  }),
);
/** `any` combines kinds; it is the only branch without an entry. */
const COMBINATOR = 'any';
const tableKinds = Object.keys(PREDICATE_KINDS).sort();

describe('the predicate kind table', () => {
  it('has an entry for every kind the schema accepts, and the schema accepts every entry', () => {
    const schemaKinds = [...schemaBranches.keys()].filter((kind) => kind !== COMBINATOR).sort();
    expect(schemaBranches.has(COMBINATOR)).toBe(true);
    expect(tableKinds).toEqual(schemaKinds);
  });

  it('is what the schema names when it refuses a predicate it does not understand', () => {
    // loadManifest quotes this description in "not understood; it must be …".
    const listed = /one of ([a-z_, ]+) \(/.exec(predicateSchema.description)?.[1]?.split(', ');
    expect(listed?.slice().sort()).toEqual([...tableKinds, COMBINATOR].sort());
  });

  it.each(tableKinds)('%s: its entry reads the fields its schema branch has', (kind) => {
    const entry = PREDICATE_KINDS[kind as keyof typeof PREDICATE_KINDS];
    const body = schemaBranches.get(kind) ?? {};
    const fields = Object.keys(body.properties ?? {});
    if (body.$ref === '#/definitions/name') {
      // `present: name`: the body is the parameter's name.
      expect(entry.paramAt).toEqual([]);
    } else {
      expect(fields).toContain('param');
      expect(entry.paramAt).toEqual(['param']);
    }
    // A kind with `current` must say so, or the rule "current needs read" never runs.
    expect('current' in entry, `current in ${kind}`).toBe(fields.includes('current'));
  });

  it('names a runtime helper for every kind, documented as that kind, and no helper is left over', () => {
    const source = readFileSync(join(repoRoot, 'runtime', 'gate', 'guardPredicates.ts'), 'utf8');
    for (const [kind, entry] of Object.entries(PREDICATE_KINDS)) {
      expect(typeof guardPredicates[entry.helper as keyof typeof guardPredicates]).toBe('function');
      const doc = new RegExp(
        `/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*export function ${entry.helper}\\(`,
      );
      expect(doc.exec(source)?.[1], `${entry.helper}'s doc comment`).toContain(`\`${kind}\``);
    }
    // The rest of the module serves every kind (current values, dialog text).
    const shared = [
      'valueAt',
      'dialogValue',
      'dialogId',
      'dialogChoices',
      'dialogCount',
      'dialogHost',
    ];
    const helpers = Object.values(PREDICATE_KINDS).map((entry) => entry.helper);
    const exported = Object.keys(guardPredicates).filter((name) => !shared.includes(name));
    expect(exported.sort()).toEqual(helpers.sort());
  });

  it('is the list docs/manifest.md explains, row by row', () => {
    const docs = readFileSync(join(repoRoot, 'docs', 'manifest.md'), 'utf8');
    const start = docs.indexOf('| predicate | asks when |');
    expect(start).toBeGreaterThan(0);
    const table = docs.slice(start, docs.indexOf('\n\n', start));
    const rows = [...table.matchAll(/^\| `([a-z_]+)[:`]/gm)].map((match) => match[1]);
    expect(rows.filter((kind) => kind !== 'always' && kind !== COMBINATOR).sort()).toEqual(
      tableKinds,
    );
  });

  it('refuses to look up a kind it has no entry for instead of passing it over', () => {
    const unknown = { narrows: { param: 'visibility' } } as unknown as LeafPredicate;
    expect(() => predicateFacts(unknown)).toThrow(
      /predicate kind "narrows" has no entry in generator\/rules\/predicateKinds\.ts/,
    );
  });
});
