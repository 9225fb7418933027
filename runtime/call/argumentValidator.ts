// Validates tool arguments against the tool's JSON Schema before anything reaches
// Woodpecker, with messages that name the parameter, say what is wrong and what fits:
// a model fixes a call faster from "events[0] must be one of push, tag, …" than from
// "data/events/0 must be equal to one of the allowed values".
// A rejected value is repeated only when it is a short scalar of a field that is not a
// credential: a secret sent with the wrong shape must not come back in the error text.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { lazyModule } from '../core/lazyModule.js';
import { HTTP_URL_PATTERN } from '../core/httpUrl.js';
import { unreadableArgument } from './plainArguments.js';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';

type Schema = {
  properties?: Record<
    string,
    { description?: string; writeOnly?: boolean } & Record<string, unknown>
  >;
} & Record<string, unknown>;

const ajvModule = lazyModule<typeof import('ajv')>('ajv');

export class ArgumentValidator implements jsonSchemaValidator {
  private ajv: Ajv | undefined;
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate = this.compiled.get(schema as object);
    if (!validate) {
      this.ajv ??= new (ajvModule().Ajv)({ allErrors: true, strict: false });
      validate = this.ajv.compile(schema as object);
      this.compiled.set(schema as object, validate);
    }
    const check = validate;
    return (given: unknown) => {
      const input = alignedScalars(given, schema as Schema);
      if (check(input)) {
        const broken = illFormedField(input, '');
        if (broken !== undefined)
          return {
            valid: false,
            data: undefined,
            errorMessage: `${fieldName(broken)} is not valid Unicode text (it holds half of a UTF-16 surrogate pair), which cannot go into a URL and would reach Woodpecker changed. Fix the arguments and call again.`,
          };
        const unreadable = unreadableArgument(input, schema as Schema);
        if (unreadable !== undefined)
          return { valid: false, data: undefined, errorMessage: unreadable };
        return { valid: true, data: input as T, errorMessage: undefined };
      }
      // An anyOf is described once, as a whole, not branch by branch.
      const errors = (check.errors ?? []).filter((error) => !error.schemaPath.includes('/anyOf/'));
      const messages = [
        ...new Set(errors.map((error) => describe(error, schema as Schema, input))),
      ];
      return {
        valid: false,
        data: undefined,
        errorMessage: `${messages.join('; ')}. Fix the arguments and call again.`,
      };
    };
  }
}

/**
 * A model passes the type it saw for the same name elsewhere: a pipeline number is an
 * integer in every answer but a string where "latest" is allowed, an id may arrive as
 * "3". A whole number given for a string, or a canonical decimal given for an integer, is
 * taken as the other type before the schema is checked (patterns and limits still apply).
 */
function alignedScalars(input: unknown, schema: Schema): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(input)) {
    const property = schema.properties?.[name];
    const type =
      property?.type ?? (branchTypes(property).includes('integer') ? 'integer' : undefined);
    let aligned = value;
    if (type === 'string' && typeof value === 'number' && Number.isSafeInteger(value))
      aligned = String(value);
    else if (
      type === 'integer' &&
      typeof value === 'string' &&
      /^-?(0|[1-9][0-9]{0,15})$/.test(value)
    )
      aligned = Number.isSafeInteger(Number(value)) ? Number(value) : value;
    if (aligned !== value) (copy ??= { ...(input as Record<string, unknown>) })[name] = aligned;
  }
  return copy ?? input;
}

function describe(error: ErrorObject, schema: Schema, input: unknown): string {
  const field = fieldName(error.instancePath);
  const got = ` (got ${shown(valueAtInstancePath(input, error.instancePath), isCredential(schema, error.instancePath))})`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const description = schema.properties?.[missing]?.description;
      return `${missing} is required${description ? `: ${firstSentence(description)}` : ''}`;
    }
    case 'additionalProperties': {
      const known = Object.keys(schema.properties ?? {});
      return `${String(params.additionalProperty)} is not a parameter of this tool; it takes ${known.length ? known.join(', ') : 'no parameters'}`;
    }
    case 'type':
      return `${field} must be ${params.type === 'integer' ? 'a whole number' : params.type === 'array' ? 'a list' : `a ${String(params.type)}`}${got}`;
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}${got}`;
    case 'minimum':
      return `${field} must be at least ${String(params.limit)}${got}`;
    case 'maximum':
      // Above 2^53 - 1 JSON numbers are rounded: say why, since the "got" value is already wrong.
      return params.limit === Number.MAX_SAFE_INTEGER
        ? `${field} must be at most ${String(params.limit)}, the largest whole number JSON carries exactly (larger ids arrive rounded)${got}`
        : `${field} must be at most ${String(params.limit)}${got}`;
    case 'not':
      return `${field} must not be ${notAllowed(schema, error.instancePath)}: as a URL path segment it would address another route${got}`;
    case 'minLength':
      return `${field} must not be shorter than ${String(params.limit)} characters`;
    case 'maxLength':
      return `${field} must not be longer than ${String(params.limit)} characters`;
    case 'minItems':
      return `${field} needs at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'anyOf':
      return `${field} must be ${alternatives(schema, error.instancePath)}${got}`;
    case 'pattern':
      return params.pattern === HTTP_URL_PATTERN
        ? `${field} must be an http:// or https:// URL whose host is a hostname or IPv4 address, without a user name or spaces (for example https://gitea.example.com)${got}`
        : `${field} must match ${String(params.pattern)}${got}`;
    default:
      return `${field} ${error.message ?? 'is not valid'}`;
  }
}

/** The types of an anyOf's branches (get_pipeline's number: integer, string). */
function branchTypes(property: Record<string, unknown> | undefined): unknown[] {
  const branches = property?.anyOf;
  return Array.isArray(branches) ? branches.map((branch) => (branch as Schema).type) : [];
}

/** What an anyOf takes, in words: "a whole number of at least 1 or "latest"". */
function alternatives(schema: Schema, instancePath: string): string {
  const property = schema.properties?.[instancePath.split('/')[1] ?? ''];
  const branches = (property?.anyOf ?? []) as Record<string, unknown>[];
  return branches
    .map((branch) =>
      Array.isArray(branch.enum)
        ? branch.enum.map((value) => JSON.stringify(value)).join(' or ')
        : branch.type === 'integer'
          ? `a whole number${branch.minimum === undefined ? '' : ` of at least ${String(branch.minimum)}`}`
          : `a ${String(branch.type)}`,
    )
    .join(' or ');
}

/** The values a `not: { enum }` excludes, e.g. `"." or ".."` for a path value. */
function notAllowed(schema: Schema, instancePath: string): string {
  const property = schema.properties?.[instancePath.split('/')[1] ?? ''] as
    { not?: { enum?: unknown[] } } | undefined;
  const values = property?.not?.enum ?? [];
  return values.length > 0
    ? values.map((value) => JSON.stringify(value)).join(' or ')
    : 'this value';
}

/** `/events/0` → `events[0]`; the root is "the arguments". */
function fieldName(instancePath: string): string {
  if (!instancePath) return 'the arguments';
  return instancePath
    .split('/')
    .slice(1)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

function valueAtInstancePath(input: unknown, instancePath: string): unknown {
  let node = input;
  for (const part of instancePath.split('/').slice(1))
    node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

/** tools.yaml marks credentials `secret: true`, which the generator emits as writeOnly. */
function isCredential(schema: Schema, instancePath: string): boolean {
  const root = instancePath.split('/')[1];
  return root !== undefined && schema.properties?.[root]?.writeOnly === true;
}

/**
 * What the caller sent, as far as it is safe to repeat: a credential or a container
 * (which may hold anything, a pasted secret included) is described by its kind only.
 */
function shown(value: unknown, credential: boolean): string {
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;
  if (value === undefined) return 'nothing';
  if (credential || typeof value === 'object') return kind;
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

// A lone surrogate survives JSON but not encodeURIComponent (URIError) nor Woodpecker's
// UTF-8 decoding (it becomes U+FFFD): the value sent would not be the value given.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The instance path of the first string (or key) that is not well-formed UTF-16, if any. */
function illFormedField(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = `${path}/${key}`;
    if (LONE_SURROGATE.test(key)) return childPath;
    const found = illFormedField(child, childPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstSentence(text: string): string {
  const end = text.indexOf('. ');
  return (end === -1 ? text : text.slice(0, end)).replace(/\.$/, '');
}
