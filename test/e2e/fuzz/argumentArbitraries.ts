// fast-check arbitraries for a tool's arguments, built from its input schema: mostly
// values a careless or hostile caller would send (wrong types, missing and extra fields,
// huge and unicode strings, control characters, `..` and `/` in names, ids at and past
// their bounds, deep nesting), with enough valid values mixed in that calls also get
// past validation and reach Woodpecker.
import fc from 'fast-check';
import type { ToolDefinition } from '../../../runtime/core/tool.js';
import { sampleValue } from '../toolArguments.js';

type PropertySchema = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  items?: PropertySchema;
  anyOf?: PropertySchema[];
};

/** 2,000 levels of arrays: deeper than a careless recursive walk survives. */
const DEEP_ARRAY: unknown = JSON.parse('['.repeat(2000) + ']'.repeat(2000));
const DEEP_OBJECT: unknown = JSON.parse('{"a":'.repeat(500) + '1' + '}'.repeat(500));

const NASTY_STRINGS = [
  '',
  '.',
  '..',
  '/',
  '../..',
  '../../api/user',
  'a/b',
  'a/../b',
  '%2e%2e',
  '%2F',
  '?x=1',
  '#frag',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\t\u0007\u001b[31m',
  '\u202eevil',
  '\ud800',
  '😀'.repeat(50),
  'ﬁ',
  'İ',
  '<script>alert(1)</script>',
  '{{.Token}}',
  '${WOODPECKER_TOKEN}',
  'x'.repeat(100_000),
  'ä'.repeat(70_000),
];

const WRONG_TYPES: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    '',
    '1',
    [],
    {},
    [1],
    { id: 1 },
    DEEP_ARRAY,
    DEEP_OBJECT,
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

function integerArbitrary(schema: PropertySchema): fc.Arbitrary<unknown> {
  const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        min,
        max,
        min - 1,
        max + 1,
        0,
        -1,
        2 ** 53,
        2 ** 53 + 2,
        1e308,
        -0,
        0.5,
        1.000001,
      ),
    },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double({ noNaN: true }) },
  );
}

function stringArbitrary(name: string, schema: PropertySchema): fc.Arbitrary<unknown> {
  const valid = schema.enum
    ? fc.constantFrom(...schema.enum)
    : fc.constant(sampleValue(name, schema));
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom('.', '/', '\\', '%', '?', '#', '\u0000', '\n'),
        maxLength: 8,
      }),
    },
  );
}

function valueArbitrary(name: string, schema: PropertySchema): fc.Arbitrary<unknown> {
  // Integer or a word (get_pipeline's number): either branch, the words included.
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch) => valueArbitrary(name, branch)));
  let right: fc.Arbitrary<unknown>;
  switch (schema.type) {
    case 'integer':
    case 'number':
      right = integerArbitrary(schema);
      break;
    case 'boolean':
      right = fc.boolean();
      break;
    case 'array':
      right = fc.oneof(
        fc.array(valueArbitrary(name, schema.items ?? {}), { maxLength: 5 }),
        fc.constant([]),
        fc.array(fc.constant(sampleValue(name, schema.items ?? {})), {
          minLength: 1000,
          maxLength: 1000,
        }),
      );
      break;
    case 'object':
      right = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), {
        maxKeys: 5,
      });
      break;
    default:
      right = stringArbitrary(name, schema);
  }
  return fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: WRONG_TYPES });
}

/** Extra fields: names that look like parameters of other tools, or anything short. */
const extraFields = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'token',
      'repo',
      'id',
      '__proto__',
      'constructor',
      'repo_id ',
      'REPO_ID',
      'confirm',
    ),
    fc.string({ minLength: 1, maxLength: 12 }),
  ),
  WRONG_TYPES,
  { maxKeys: 3 },
);

export function argumentsFor(tool: ToolDefinition): fc.Arbitrary<Record<string, unknown>> {
  const properties = tool.inputSchema.properties as Record<string, PropertySchema>;
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, valueArbitrary(name, schema)]),
  );
  // Every field may be missing; one call in five also carries fields the tool does not take.
  const record = fc.record(fields, { requiredKeys: [] });
  return fc.oneof(
    { weight: 4, arbitrary: record },
    {
      weight: 1,
      arbitrary: fc.tuple(record, extraFields).map(([known, extra]) => ({ ...extra, ...known })),
    },
  ) as fc.Arbitrary<Record<string, unknown>>;
}
