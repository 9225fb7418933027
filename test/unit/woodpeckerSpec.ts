// Woodpecker's own description of its routes (woodpecker-openapi.json, pulled from the
// pinned release) as a check for test fixtures: a body a unit test serves or expects is
// held to the schema of the route it travels on, so a hand-written fixture cannot drift
// from what Woodpecker sends and accepts.
//
// Stricter than the spec on one point: an object may hold only the fields the spec names
// (the spec never says additionalProperties: false, so without this a misspelt field
// would pass). Answers captured from a real Woodpecker pass it (the test says so).
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

interface RequestBody {
  readonly $ref?: string;
  readonly content?: Record<string, { readonly schema?: unknown }>;
}

interface Operation {
  readonly requestBody?: RequestBody;
  readonly responses?: Record<
    string,
    { readonly content?: Record<string, { readonly schema?: unknown }> }
  >;
}

interface OpenApi {
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: {
    readonly schemas: Record<string, unknown>;
    readonly requestBodies?: Record<string, RequestBody>;
  };
}

const spec = JSON.parse(
  readFileSync(new URL('../../woodpecker-openapi.json', import.meta.url), 'utf8'),
) as OpenApi;

/** Every object that lists its properties admits no others; vendor keywords dropped. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) continue;
    // `properties` maps field names to schemas: its keys are names, not keywords.
    copy[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([n, s]) => [n, closed(s)]))
        : closed(value);
  }
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  // Go writes a nil slice or map as null, and Woodpecker does (an agent without custom
  // labels, a repository without approval_allowed_users): the spec cannot say so.
  if (copy.type === 'array' || (copy.type === 'object' && !('properties' in copy)))
    copy.type = [copy.type, 'null'];
  return copy;
}

const ajv = new Ajv({
  allErrors: true,
  strict: false,
  validateFormats: false,
  allowUnionTypes: true,
});
ajv.addSchema(
  { components: { schemas: closed(spec.components.schemas) } },
  'woodpecker-openapi.json',
);

/** The spec's route template for a concrete request path ("/api/repos/7" → "/repos/{repo_id}"). */
export function routeOf(path: string): string {
  const segments = path.replace(/^\/api/, '').split('/');
  let best: { template: string; literals: number } | undefined;
  for (const template of Object.keys(spec.paths)) {
    const parts = template.split('/');
    // A last parameter may span the rest ("/repos/lookup/{repo_full_name}" takes owner/name).
    const spans = parts.length < segments.length && /^\{.+\}$/.test(parts.at(-1) ?? '');
    if (parts.length !== segments.length && !spans) continue;
    const fits = parts.every(
      (part, index) => /^\{.+\}$/.test(part) || decodeURIComponent(segments[index]!) === part,
    );
    if (!fits) continue;
    const literals = parts.filter((part) => !/^\{.+\}$/.test(part)).length;
    if (!best || literals > best.literals) best = { template, literals };
  }
  if (!best) throw new Error(`no route of woodpecker-openapi.json fits ${path}`);
  return best.template;
}

const validators = new Map<unknown, ValidateFunction>();

function check(schema: unknown, value: unknown, what: string): void {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(
      JSON.parse(
        JSON.stringify(closed(schema)).replaceAll(
          '"#/components/',
          '"woodpecker-openapi.json#/components/',
        ),
      ) as object,
    );
    validators.set(schema, validate);
  }
  if (!validate(value))
    throw new Error(
      `${what} does not fit woodpecker-openapi.json: ${(validate.errors ?? [])
        .map((error) => {
          const extra = (error.params as { additionalProperty?: string }).additionalProperty;
          return `${error.instancePath || 'the body'} ${error.message ?? ''}${extra ? ` (${extra})` : ''}`;
        })
        .join('; ')}`,
    );
}

function operation(method: string, path: string): { route: string; op: Operation } {
  const route = routeOf(path);
  const op = spec.paths[route]?.[method.toLowerCase()];
  if (!op) throw new Error(`woodpecker-openapi.json has no ${method} ${route}`);
  return { route, op };
}

/**
 * Where the spec says other than what Woodpecker sends. Its handlers answer one object
 * here (server/api/org.go: c.JSON(http.StatusOK, org) and an OrgPerm), but their
 * annotations say "{array}".
 */
const ANSWERED_DIFFERENTLY: Record<string, unknown> = {
  'GET /orgs/{org_id}': { $ref: '#/components/schemas/Org' },
  'GET /orgs/{org_id}/permissions': { $ref: '#/components/schemas/OrgPerm' },
};

/**
 * Throws unless `body` fits what the route answers with `status`. A route whose answer
 * the spec does not describe (no JSON schema) accepts only an empty body.
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  const { route, op } = operation(method, path);
  const response = op.responses?.[String(status)];
  if (response === undefined)
    throw new Error(`woodpecker-openapi.json names no answer ${status} of ${method} ${route}`);
  const schema =
    ANSWERED_DIFFERENTLY[`${method} ${route}`] ?? response.content?.['application/json']?.schema;
  if (schema === undefined) {
    if (body !== undefined && body !== '')
      throw new Error(
        `woodpecker-openapi.json describes no JSON answer ${status} of ${method} ${route}`,
      );
    return;
  }
  check(schema, body, `the answer to ${method} ${route}`);
}

/** Throws unless `body` fits the request body of the route. */
export function checkRequestBody(method: string, path: string, body: unknown): void {
  const { route, op } = operation(method, path);
  // A shared body is a reference ("#/components/requestBodies/Agent").
  const shared = op.requestBody?.$ref?.replace('#/components/requestBodies/', '');
  const requestBody =
    shared === undefined ? op.requestBody : spec.components.requestBodies?.[shared];
  const schema = requestBody?.content?.['application/json']?.schema;
  if (schema === undefined) {
    if (body !== undefined) throw new Error(`${method} ${route} takes no JSON body`);
    return;
  }
  check(schema, body, `the body of ${method} ${route}`);
}
