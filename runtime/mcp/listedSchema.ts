// The input schema as the tool list shows it, and the one arguments are checked against.
// They differ in bounds that only the server needs, because no sensible call comes near
// them: every integer's maximum of 2^53 - 1 (JSON cannot carry a larger whole number
// exactly), a minimum of 1 (ids, pages and counts come from answers or start at 1; the
// descriptions say so), the ban on "." and ".." in path values, a minimum length of 1,
// maximum lengths of 255 characters and more, and `additionalProperties: false` (an unknown
// argument is refused naming it and the parameters there are), the marks of the checks
// after the schema (`x-format: git_branch`, `x-free-text`: which strings may hold what,
// runtime/call/plainArguments.ts), and a forge URL's pattern (listed as format uri).
// All are enforced on every
// call with an error that names the field; printing them in the list cost tokens on every turn of the model
// (docs/configuration.md, "What the tool list costs"). A parameter every read tool shares
// and the server's instructions explain once (`detail`) is marked `x-unlisted` and left
// out of the list; the listed schema is open, so a client still sends it.
import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { StandardSchemaWithJSON, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { HTTP_URL_PATTERN } from '../core/httpUrl.js';
import type { JsonSchemaObject, ToolArgs } from '../core/tool.js';

export function listedSchemaOf(schema: JsonSchemaObject): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, property]) => (property as Record<string, unknown>)['x-unlisted'] !== true)
      .map(([name, property]) => [name, listedProperty(property as Record<string, unknown>)]),
  );
  const {
    required,
    additionalProperties: _closed,
    dependencies: _needs,
    ...rest
  } = schema as JsonSchemaObject & { dependencies?: unknown };
  return { ...rest, properties, ...(required && required.length > 0 ? { required } : {}) };
}

/** A property without the server-only bounds, in each branch of an anyOf too. */
function listedProperty(property: Record<string, unknown>): Record<string, unknown> {
  const {
    minimum,
    maximum,
    not,
    minLength,
    maxLength,
    anyOf,
    'x-format': _format,
    'x-free-text': _freeText,
    pattern,
    ...rest
  } = property;
  return {
    ...rest,
    // The forge URL's long pattern is the server's check; a client reads format uri.
    ...(pattern === undefined
      ? {}
      : pattern === HTTP_URL_PATTERN
        ? { format: 'uri' }
        : { pattern }),
    ...(Array.isArray(anyOf)
      ? { anyOf: anyOf.map((branch) => listedProperty(branch as Record<string, unknown>)) }
      : {}),
    ...(minimum === undefined || minimum === 1 ? {} : { minimum }),
    ...(maximum === undefined || maximum === Number.MAX_SAFE_INTEGER ? {} : { maximum }),
    ...(not === undefined || isDotSegmentBan(not) ? {} : { not }),
    ...(minLength === undefined || minLength === 1 ? {} : { minLength }),
    ...(maxLength === undefined || (typeof maxLength === 'number' && maxLength >= 255)
      ? {}
      : { maxLength }),
  };
}

function isDotSegmentBan(not: unknown): boolean {
  const values = (not as { enum?: unknown[] } | undefined)?.enum;
  return Array.isArray(values) && values.every((value) => value === '.' || value === '..');
}

/** Lists the short schema, validates against the full one. */
export function toolInputSchema(
  schema: JsonSchemaObject,
  validator: jsonSchemaValidator,
): StandardSchemaWithJSON<ToolArgs> {
  const checked = fromJsonSchema<ToolArgs>(schema as Record<string, unknown> as never, validator);
  // Computed when first asked for: the tool list is built by the server's own handler
  // (toolListing.ts), so at start-up, when every tool is registered, nothing asks.
  let listed: Record<string, unknown> | undefined;
  const listedOnce = () => (listed ??= listedSchemaOf(schema));
  return {
    '~standard': {
      ...checked['~standard'],
      jsonSchema: { input: listedOnce, output: listedOnce },
    },
  } as StandardSchemaWithJSON<ToolArgs>;
}
