// Stage 2: every call of the manifest against Woodpecker's OpenAPI 3 document. This is
// what makes an upgrade safe: a renamed or dropped path, parameter or body field fails
// here with the tool and the field, before any code is written.
import { placeholderNames } from '../placeholders.js';
import { readFileSync } from 'node:fs';
import type { LoadedManifest } from '../manifest/loadManifest.js';
import { ManifestError, fieldPath, type Problem } from '../manifestError.js';
import type {
  FieldSource,
  ManifestCall,
  ManifestParam,
  ManifestTool,
} from '../manifest/manifestTypes.js';
import { answerPath, answerPlaceholder } from '../rules/manifestRules.js';

export type JsonObject = { readonly [key: string]: unknown };

export interface OpenApiDocument {
  readonly openapi?: string;
  readonly servers?: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, JsonObject>>;
  readonly components?: JsonObject;
}

/** What the spec says about one manifest call, for the later stages. */
export interface CallFacts {
  /** Prefix the spec serves this path under: "/api", or "" for /version and /healthz. */
  readonly prefix: string;
  /** The spec's JSON type of each body field the call sends ("string", "integer", ...). */
  readonly bodyTypes: Readonly<Record<string, string | undefined>>;
}

export type SpecFacts = ReadonlyMap<string, readonly CallFacts[]>;

export function loadSpec(file: string): OpenApiDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SpecError(
      `${file}: cannot be read as JSON (${(error as Error).message}); run \`npm run spec:pull\` or pass --spec`,
    );
  }
  const doc = parsed as Partial<OpenApiDocument>;
  if (
    typeof doc.openapi !== 'string' ||
    !doc.openapi.startsWith('3.') ||
    typeof doc.paths !== 'object'
  ) {
    throw new SpecError(
      `${file}: is not an OpenAPI 3 document; \`npm run spec:pull\` converts Woodpecker's Swagger 2.0`,
    );
  }
  return doc as OpenApiDocument;
}

/** A spec that cannot be used at all (as opposed to a manifest that disagrees with it). */
export class SpecError extends Error {
  override readonly name = 'SpecError';
}

export function checkAgainstSpec(
  loaded: LoadedManifest,
  spec: OpenApiDocument,
  specName: string,
): SpecFacts {
  const problems: Problem[] = [];
  const facts = new Map<string, CallFacts[]>();
  loaded.manifest.tools.forEach((tool, index) => {
    const refuse = (segments: readonly (string | number)[], message: string): void => {
      problems.push({
        line: loaded.locator.toolLine(index, segments),
        tool: tool.name,
        field: fieldPath(segments),
        message,
      });
    };
    facts.set(
      tool.name,
      (tool.calls ?? []).map((call, c) =>
        checkCall(tool, call, spec, specName, (segments, message) =>
          refuse(['calls', c, ...segments], message),
        ),
      ),
    );
  });
  const byName = new Map(loaded.manifest.tools.map((tool) => [tool.name, tool] as const));
  loaded.manifest.tools.forEach((tool, index) => {
    const refuse = (segments: readonly (string | number)[], message: string): void => {
      problems.push({
        line: loaded.locator.toolLine(index, segments),
        tool: tool.name,
        field: fieldPath(segments),
        message,
      });
    };
    checkGuardAnswerFields(tool, byName, spec, specName, refuse);
  });
  if (problems.length > 0)
    throw new ManifestError(
      loaded.file,
      problems.sort((a, b) => a.line - b.line),
    );
  return facts;
}

type Refuse = (segments: readonly (string | number)[], message: string) => void;

function checkCall(
  tool: ManifestTool,
  call: ManifestCall,
  spec: OpenApiDocument,
  specName: string,
  refuse: Refuse,
): CallFacts {
  const where = `${call.method} ${call.path}`;
  const pathItem = spec.paths[call.path];
  const bodyTypes: Record<string, string | undefined> = {};
  if (!pathItem) {
    refuse(
      ['path'],
      `${call.path} is not a path of ${specName}; the route was renamed or removed, find its new path in the spec`,
    );
    return { prefix: '/api', bodyTypes };
  }
  const prefix = serverPrefix(spec, pathItem);
  const operation = pathItem[call.method.toLowerCase()] as JsonObject | undefined;
  if (!operation) {
    const methods = ['get', 'post', 'patch', 'put', 'delete']
      .filter((m) => m in pathItem)
      .map((m) => m.toUpperCase());
    refuse(
      ['method'],
      `${specName} has no ${where} (it offers ${methods.join(', ') || 'no operation'} there)`,
    );
    return { prefix, bodyTypes };
  }
  const parameters = [
    ...((pathItem['parameters'] as unknown[] | undefined) ?? []),
    ...((operation['parameters'] as unknown[] | undefined) ?? []),
  ].map((parameter) => resolve(spec, parameter) as JsonObject);
  const named = (location: string): Set<string> =>
    new Set(parameters.filter((p) => p['in'] === location).map((p) => String(p['name'])));

  const placeholders = placeholderNames(call.path);
  const specPathParams = named('path');
  for (const name of specPathParams) {
    if (!placeholders.includes(name)) {
      refuse(
        ['path'],
        `${where} declares path parameter ${name} that its path does not contain; the spec is inconsistent, fix the overlay in spec:pull`,
      );
    }
  }
  for (const placeholder of placeholders) {
    if (specPathParams.size > 0 && !specPathParams.has(placeholder)) {
      refuse(
        ['path_params', placeholder],
        `${where} does not declare path parameter ${placeholder} in ${specName}`,
      );
    }
  }

  for (const [placeholder, paramName] of Object.entries(call.path_params ?? {})) {
    const declared = parameters.find((p) => p['in'] === 'path' && p['name'] === placeholder);
    const schema = resolve(spec, declared?.['schema']) as JsonObject | undefined;
    const type = schema ? typeOf(spec, schema) : undefined;
    const param = tool.params[paramName];
    if (!param || type === undefined) continue;
    const fits =
      (param.type === 'integer' && ['integer', 'number', 'string'].includes(type)) ||
      (param.type === 'string' && (type === 'string' || param.pattern !== undefined));
    if (!fits) {
      const fix =
        param.type === 'string'
          ? `; give ${paramName} a \`pattern\` that allows only what the server accepts`
          : '';
      refuse(
        ['path_params', placeholder],
        `${where} takes {${placeholder}} as ${type}, ${paramName} is ${param.type}${fix}`,
      );
    }
  }

  const queryNames = named('query');
  for (const [name, source] of Object.entries(call.query ?? {})) {
    if (!queryNames.has(name)) {
      const known = [...queryNames].sort().join(', ');
      refuse(
        ['query', name],
        `${where} has no query parameter ${name} in ${specName} (it has ${known || 'none'}); rename it or remove it`,
      );
      continue;
    }
    const param = parameters.find((p) => p['in'] === 'query' && p['name'] === name);
    const schema = resolve(spec, param?.['schema']) as JsonObject | undefined;
    // A list goes out comma-separated, so a string query parameter takes it too.
    const joinedList =
      typeof source === 'string' &&
      tool.params[source]?.type === 'string_list' &&
      schema?.['type'] === 'string';
    const problem = joinedList ? undefined : incompatibility(tool, source, schema, spec);
    if (problem) refuse(['query', name], `${where} query ${name}: ${problem}`);
  }

  const body = requestBodySchema(spec, operation);
  const bodyEntries = Object.entries(call.body ?? {});
  if (bodyEntries.length > 0 && !body) {
    refuse(['body'], `${where} takes no JSON request body in ${specName}; remove \`body\``);
    return { prefix, bodyTypes };
  }
  for (const [field, source] of bodyEntries) {
    const schema = body ? schemaAtPath(spec, body, field.split('.')) : undefined;
    if (!schema) {
      refuse(
        ['body', field],
        `the request body of ${where} has no field ${field} in ${specName}; it was renamed or removed, use the spec's name or drop the field`,
      );
      continue;
    }
    bodyTypes[field] = typeOf(spec, schema);
    const problem = incompatibility(tool, source, schema, spec);
    if (problem)
      refuse(['body', field], `the request body of ${where}, field ${field}: ${problem}`);
  }
  return { prefix, bodyTypes };
}

/**
 * The fields a guard takes from its read's answer. Its `identity` and `{current.x}` in a
 * link must be integers in every answer the read can give: they are ids, bound into the
 * approval or built into a URL. In the dialog `{current.x}` may also be a closed
 * vocabulary, an enum or a list of enum values, which the runtime shows only as one of
 * the spec's values; `{current.x:count}` must be a list, shown as its size. Anything else
 * there could be free text written by whoever can push, so it is refused.
 */
function checkGuardAnswerFields(
  tool: ManifestTool,
  byName: ReadonlyMap<string, ManifestTool>,
  spec: OpenApiDocument,
  specName: string,
  refuse: Refuse,
): void {
  if (tool.guard === 'never' || tool.guard.read === undefined) return;
  const read = byName.get(tool.guard.read);
  if (!read) return; // the rules stage names a missing read
  type Shown = 'id' | 'fact' | 'count';
  const wanted: Array<{
    path: string;
    at: readonly (string | number)[];
    what: string;
    shown: Shown;
  }> = [];
  if (tool.guard.identity !== undefined)
    wanted.push({
      path: tool.guard.identity,
      at: ['guard', 'identity'],
      what: 'identity',
      shown: 'id',
    });
  for (const name of placeholderNames(tool.guard.dialog)) {
    const placeholder = answerPlaceholder(name);
    if (placeholder !== undefined)
      wanted.push({
        path: placeholder.path,
        at: ['guard', 'dialog'],
        what: `{${name}}`,
        shown: placeholder.count ? 'count' : 'fact',
      });
  }
  (tool.guard.link ?? []).forEach((link, l) => {
    for (const name of placeholderNames(`${link.where} ${link.path}`)) {
      const path = answerPath(name);
      if (path !== undefined)
        wanted.push({ path, at: ['guard', 'link', l], what: `{current.${path}}`, shown: 'id' });
    }
  });
  for (const { path, at, what, shown } of wanted) {
    for (const call of read.calls ?? []) {
      const answer = okAnswerSchema(spec, call);
      const schema = answer ? schemaAtPath(spec, answer, path.split('.')) : undefined;
      const type = schema ? typeOf(spec, schema) : undefined;
      const where = `the answer of ${read.name} (${call.method} ${call.path}) has ${type === undefined ? `no field ${path}` : `${path} as ${type}`} in ${specName}`;
      if (shown === 'count') {
        if (type !== 'array') refuse(at, `${what}: ${where}; only a list can be counted`);
      } else if (
        type !== 'integer' &&
        (shown === 'id' || closedVocabulary(spec, schema) === undefined)
      ) {
        refuse(
          at,
          shown === 'id'
            ? `${what}: ${where}; only integer fields (ids) may be read into a guard, never free text`
            : `${what}: ${where}, without an enum; a dialog shows only integer fields (ids), enum fields and lists of enum values, never free text (a list's size as {current.${path}:count})`,
        );
      }
    }
  }
}

/**
 * The values an enum field, or a list of enum values, can take: the closed vocabulary a
 * dialog may show. Undefined for anything else (free text, numbers, objects).
 */
function closedVocabulary(
  spec: OpenApiDocument,
  schema: JsonObject | undefined,
): readonly string[] | undefined {
  if (!schema) return undefined;
  const type = typeOf(spec, schema);
  const scalar =
    type === 'array' ? (resolve(spec, schema['items']) as JsonObject | undefined) : schema;
  if (!scalar || typeOf(spec, scalar) !== 'string') return undefined;
  const values = enumOf(scalar);
  return values !== undefined && values.length > 0 && values.every((v) => typeof v === 'string')
    ? (values as string[])
    : undefined;
}

/**
 * Per guarded tool, the closed vocabulary of each `{current.x}` its dialog shows that is
 * not an integer: the spec's enum values, joined over the read's calls. The runtime
 * prints only these and shows anything else Woodpecker answers as "other".
 */
export function dialogVocabularies(
  tools: readonly ManifestTool[],
  spec: OpenApiDocument,
): ReadonlyMap<string, Readonly<Record<string, readonly string[]>>> {
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  const result = new Map<string, Record<string, readonly string[]>>();
  for (const tool of tools) {
    if (tool.guard === 'never' || tool.guard.read === undefined) continue;
    const read = byName.get(tool.guard.read);
    for (const name of placeholderNames(tool.guard.dialog)) {
      const placeholder = answerPlaceholder(name);
      if (placeholder === undefined || placeholder.count) continue;
      const values = new Set<string>();
      for (const call of read?.calls ?? []) {
        const answer = okAnswerSchema(spec, call);
        const schema = answer ? schemaAtPath(spec, answer, placeholder.path.split('.')) : undefined;
        if (schema && typeOf(spec, schema) === 'integer') continue;
        for (const value of closedVocabulary(spec, schema) ?? []) values.add(value);
      }
      if (values.size > 0)
        result.set(tool.name, { ...result.get(tool.name), [placeholder.path]: [...values] });
    }
  }
  return result;
}

export function okAnswerSchema(spec: OpenApiDocument, call: ManifestCall): JsonObject | undefined {
  const operation = spec.paths[call.path]?.[call.method.toLowerCase()] as JsonObject | undefined;
  const responses = operation?.['responses'] as JsonObject | undefined;
  const ok = resolve(spec, responses?.['200']) as JsonObject | undefined;
  const json = (ok?.['content'] as JsonObject | undefined)?.['application/json'] as
    JsonObject | undefined;
  return resolve(spec, json?.['schema']) as JsonObject | undefined;
}

function serverPrefix(spec: OpenApiDocument, pathItem: JsonObject): string {
  const servers = (pathItem['servers'] as OpenApiDocument['servers']) ?? spec.servers ?? [];
  const url = servers[0]?.url ?? '';
  const path = /^[a-z]+:\/\//i.test(url) ? new URL(url).pathname : url;
  return path.replace(/\/+$/, '');
}

export function requestBodySchema(
  spec: OpenApiDocument,
  operation: JsonObject,
): JsonObject | undefined {
  const requestBody = resolve(spec, operation['requestBody']) as JsonObject | undefined;
  const content = requestBody?.['content'] as JsonObject | undefined;
  const json = content?.['application/json'] as JsonObject | undefined;
  return resolve(spec, json?.['schema']) as JsonObject | undefined;
}

/** Follows local `$ref`s ("#/components/schemas/RepoPatch"). */
export function resolve(spec: OpenApiDocument, value: unknown): unknown {
  let node = value;
  for (let depth = 0; depth < 32; depth++) {
    const ref = (node as JsonObject | undefined)?.['$ref'];
    if (typeof ref !== 'string') return node;
    if (!ref.startsWith('#/')) throw new SpecError(`only local $refs are supported, found ${ref}`);
    node = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, part) => (at as JsonObject | undefined)?.[part], spec);
  }
  throw new SpecError('a $ref chain is longer than 32 steps');
}

/** Properties of an object schema, with `allOf` parts merged. */
export function propertiesOf(spec: OpenApiDocument, schema: JsonObject): Record<string, unknown> {
  const merged: Record<string, unknown> = {
    ...((schema['properties'] as JsonObject | undefined) ?? {}),
  };
  for (const part of (schema['allOf'] as unknown[] | undefined) ?? []) {
    Object.assign(merged, propertiesOf(spec, resolve(spec, part) as JsonObject));
  }
  return merged;
}

export function schemaAtPath(
  spec: OpenApiDocument,
  root: JsonObject,
  path: readonly string[],
): JsonObject | undefined {
  let node: JsonObject | undefined = root;
  for (const key of path) {
    if (!node) return undefined;
    const next: unknown = propertiesOf(spec, node)[key];
    node = next === undefined ? undefined : (resolve(spec, next) as JsonObject);
  }
  return node;
}

export function typeOf(spec: OpenApiDocument, schema: JsonObject): string | undefined {
  if (typeof schema['type'] === 'string') return schema['type'];
  for (const part of (schema['allOf'] as unknown[] | undefined) ?? []) {
    const inner = typeOf(spec, resolve(spec, part) as JsonObject);
    if (inner) return inner;
  }
  return undefined;
}

function enumOf(schema: JsonObject): readonly unknown[] | undefined {
  return Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : undefined;
}

/** Why a tool parameter (or a const) cannot be sent where the spec has `schema`, if it cannot. */
function incompatibility(
  tool: ManifestTool,
  source: FieldSource,
  schema: JsonObject | undefined,
  spec: OpenApiDocument,
): string | undefined {
  if (!schema) return undefined;
  const type = typeOf(spec, schema);
  // A value that fills in for an argument is checked as the argument; one only the current
  // object has is checked against the read's answer (currentValues.ts), its default here.
  if (typeof source === 'object' && 'or_current' in source)
    return incompatibility(tool, source.param, schema, spec);
  if (typeof source === 'object' && 'current' in source) {
    const fallback = source.default;
    if (fallback === undefined) return undefined;
    if (typeof fallback === 'object')
      return type === undefined || type === 'object'
        ? undefined
        : `the spec expects ${type}, the manifest's default is an empty object`;
    return incompatibility(tool, { const: fallback }, schema, spec);
  }
  if (typeof source !== 'string') {
    const value = source.const;
    const ok =
      type === undefined ||
      (typeof value === 'boolean' && type === 'boolean') ||
      (typeof value === 'number' && ['integer', 'number', 'string'].includes(type)) ||
      (typeof value === 'string' && type === 'string');
    return ok
      ? undefined
      : `the spec expects ${type}, the manifest sends the constant ${JSON.stringify(value)}`;
  }
  const param = tool.params[source];
  if (!param || type === undefined) return undefined;
  if (!typeFits(param, type, schema, spec))
    return `the spec expects ${describe(type, schema, spec)}, ${source} is ${param.type}`;
  const allowed =
    param.type === 'string_list'
      ? enumOf(resolve(spec, schema['items']) as JsonObject)
      : enumOf(schema);
  const outside = (param.enum ?? []).filter(
    (value) => allowed !== undefined && !allowed.includes(value),
  );
  if (outside.length > 0)
    return `the spec does not accept ${outside.join(', ')} (it accepts ${(allowed ?? []).map(String).join(', ')}); update ${source}'s enum`;
  return undefined;
}

function typeFits(
  param: ManifestParam,
  type: string,
  schema: JsonObject,
  spec: OpenApiDocument,
): boolean {
  switch (param.type) {
    case 'integer':
      return ['integer', 'number', 'string'].includes(type);
    case 'string':
      return type === 'string';
    case 'boolean':
      return type === 'boolean';
    case 'string_list': {
      const items = resolve(spec, schema['items']) as JsonObject | undefined;
      return (
        type === 'array' &&
        (items === undefined || [undefined, 'string'].includes(typeOf(spec, items)))
      );
    }
    case 'string_map':
      return type === 'object';
  }
}

function describe(type: string, schema: JsonObject, spec: OpenApiDocument): string {
  if (type !== 'array') return type;
  const items = resolve(spec, schema['items']) as JsonObject | undefined;
  return `an array of ${(items && typeOf(spec, items)) ?? 'anything'}`;
}
