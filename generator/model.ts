// Stage 3: the plain intermediate model the emitters print. Everything a generated file,
// a snapshot or the docs say is decided here, from the checked manifest and what the
// spec check learned; the emitters only format it.
import { GATE_ARGUMENT } from '../runtime/core/tool.js';
import { HTTP_URL_PATTERN } from '../runtime/core/httpUrl.js';
import { policyFactsModel, type PolicyFactsModel } from './rules/policyFacts.js';
import type {
  FieldSource,
  Manifest,
  ManifestPageLink,
  ManifestParam,
  ManifestTool,
  Predicate,
  Scalar,
} from './manifest/manifestTypes.js';
import { predicateFacts, type LeafPredicate } from './rules/predicateKinds.js';
import { conditionOf, leavesOf } from './rules/predicates.js';
import { auditTargetsOf } from './rules/auditTargets.js';
import { readBackOf } from './rules/readBack.js';
import { repositoryPolicyModel, type RepositoryPolicyModel } from './rules/repositoryPolicy.js';
import { askingSentence } from './manifest/sharedSentences.js';
import type { CallFacts, SpecFacts } from './spec/specCheck.js';
import type { ToolVersions, VersionFacts } from './spec/versionFacts.js';
import { compileViews, type CompiledViews } from './spec/views.js';
import type { View } from '../runtime/core/tool.js';

export interface ParamModel {
  readonly name: string;
  readonly type: ManifestParam['type'];
  readonly required: boolean;
  readonly description: string;
  readonly enum?: readonly string[];
  /** Accepted but left out of the tool list: the server's instructions explain it once. */
  readonly unlisted?: true;
  /** The TypeScript type of the argument. */
  readonly tsType: string;
}

/** Where a query or body value comes from. */
export type ValueSource =
  | { readonly param: string; readonly asString: boolean }
  | { readonly const: Scalar }
  | CurrentValue;

/**
 * A body value from the object as it is now (the call's `current` read): the argument
 * `orParam` when given, else the value at `fromCurrent` (a dotted path), else `fallback`.
 */
export interface CurrentValue {
  readonly fromCurrent: string;
  readonly orParam?: string;
  readonly fallback?: Scalar | Readonly<Record<string, never>>;
}

/** A request body as a tree: dotted manifest names become nested objects. */
export type BodyNode =
  | { readonly kind: 'value'; readonly source: ValueSource }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, BodyNode>> };

export type WhenCondition =
  | { readonly param: string; readonly value: string | boolean }
  | { readonly param: string; readonly present: true };

export interface CallModel {
  /** All must hold; `present` means the argument was given at all. */
  readonly when: readonly WhenCondition[];
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path as the spec (and openapi-typescript's `paths`) names it. */
  readonly specPath: string;
  /** Prefix + path, as sent: "/api/repos/{repo_id}". */
  readonly fullPath: string;
  readonly prefix: string;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: readonly { readonly name: string; readonly source: ValueSource }[];
  readonly body?: BodyNode;
  /** The read that returns the object as it is now, for CurrentValue body values. */
  readonly current?: ToolRef;
}

export interface ReasonModel {
  readonly predicate: LeafPredicate;
  readonly param: string | undefined;
  readonly current: string | undefined;
  readonly reason: string;
}

export interface ToolRef {
  readonly tool: string;
  readonly requestFunction: string;
}

export interface GuardModel {
  readonly targets: readonly string[];
  readonly bindBody: boolean;
  /** `asText`: integer arguments the read takes as text (a pipeline number), converted with String(). */
  readonly read?: ToolRef & { readonly asText: readonly string[] };
  readonly identity?: string;
  /** The reads of a `shadows` predicate (at most one per guard). */
  readonly shadows?: {
    readonly param: string;
    readonly list: ToolRef;
    readonly organizationOf: ToolRef;
    readonly fold: string;
    readonly sameLevel: boolean;
  };
  readonly always: boolean;
  readonly predicate: 'always' | Predicate;
  readonly reasons: readonly ReasonModel[];
  readonly condition: string;
  /** The compiled `needs_admin` predicate (argument-only calls joined by ||). */
  readonly needsAdmin?: readonly LeafPredicate[];
  readonly dialog: string;
  /** The closed vocabulary of each enum `{current.x}` of the dialog (specCheck's dialogVocabularies). */
  readonly vocabularies: Readonly<Record<string, readonly string[]>>;
  /** tools.yaml `guard.link`, passed to the runtime as data. */
  readonly links?: readonly ManifestPageLink[];
}

export interface ToolModel {
  readonly name: string;
  readonly constName: string;
  readonly argsType: string;
  readonly requestFunction: string;
  readonly title: string;
  readonly description: string;
  /** For people reading docs/tools.md: what the short description leaves out. */
  readonly details?: string;
  readonly group: string;
  readonly worksWithoutToken: boolean;
  readonly adminOnly: boolean;
  readonly essential: boolean;
  readonly annotations: ManifestTool['annotations'];
  readonly params: readonly ParamModel[];
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly output: {
    readonly kind: string;
    readonly redact: readonly string[];
    readonly reveal: readonly string[];
    readonly untrusted: boolean;
    readonly view?: View;
  };
  readonly errorHints: Readonly<Record<string, string>>;
  /** Read tools that show what this write did, for the error of an unknown outcome. */
  readonly readBack: readonly string[];
  /** The arguments an audit line records for a write; empty for a read-only tool. */
  readonly auditTargets: readonly string[];
  /** The oldest known Woodpecker release with all of the tool's routes; absent: every supported one. */
  readonly availableSince?: string;
  /** Parameters that need a newer release than the tool, with the oldest release that honours them. */
  readonly since: Readonly<Record<string, string>>;
  /** Values older releases apply without the field (`implied_before_since`): not refused there. */
  readonly impliedBeforeSince: Readonly<Record<string, Scalar>>;
  readonly calls: readonly CallModel[];
  /** A handler's reads before its own call, in order (tools.yaml `reads_first`). */
  readonly readsFirst: readonly string[];
  readonly handler?: string;
  /** The MCP Apps view shown with the answer by hosts that render views. */
  readonly app?: string;
  readonly guard?: GuardModel;
  /** Which arguments the WOODPECKER_REPOS allowlist checks; absent when none names a repository. */
  readonly repositories?: RepositoryPolicyModel;
  /** What an operator policy rule may match on; absent when tools.yaml declares nothing. */
  readonly policyFacts?: PolicyFactsModel;
}

export function buildModel(
  manifest: Manifest,
  facts: SpecFacts,
  versions?: VersionFacts,
  views: CompiledViews = compileViews(manifest),
  vocabularies: ReadonlyMap<string, Readonly<Record<string, readonly string[]>>> = new Map(),
): ToolModel[] {
  const tools = manifest.tools.map((tool) =>
    buildTool(
      tool,
      facts.get(tool.name) ?? [],
      manifest,
      views,
      versions?.tools.get(tool.name),
      vocabularies.get(tool.name) ?? {},
    ),
  );
  return tools.sort((a, b) => compareNames(a.name, b.name));
}

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

export function pascalCase(name: string): string {
  const camel = camelCase(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/**
 * YAML block scalars keep the author's hard wraps; a client shows a description as one
 * paragraph, so single line breaks become spaces. Blank lines and list items stay.
 */
export function unwrap(text: string): string {
  return text
    .trim()
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/[ \t]*\n[ \t]*(?![-*] |\d+\. )/g, ' '))
    .join('\n\n');
}

const CONFIRM_TOKEN: ParamModel = {
  name: GATE_ARGUMENT,
  type: 'string',
  required: false,
  description:
    'Only for the two-call fallback when no dialog can be shown: the token the first call returned. It proves the call was made twice with the same arguments, not that a person agreed.',
  tsType: 'string',
};

/**
 * Every read tool with a view takes `detail: "full"` for Woodpecker's whole object: the
 * view leaves fields out, and a model that needs one of them must not be stuck.
 */
const DETAIL: ParamModel = {
  name: 'detail',
  type: 'string',
  required: false,
  description: "full: Woodpecker's whole object, not the view.",
  enum: ['full'],
  unlisted: true,
  tsType: '"full"',
};

function buildTool(
  tool: ManifestTool,
  callFacts: readonly CallFacts[],
  manifest: Manifest,
  views: CompiledViews,
  versions: ToolVersions | undefined,
  vocabularies: Readonly<Record<string, readonly string[]>>,
): ToolModel {
  const params = Object.entries(tool.params).map(([name, param]) => paramModel(name, param));
  const confirmToken = manifest.sentences?.confirm_token;
  if (tool.guard !== 'never')
    params.push(
      confirmToken === undefined
        ? CONFIRM_TOKEN
        : { ...CONFIRM_TOKEN, description: unwrap(confirmToken) },
    );
  const view = views.toolView(tool);
  if (view && tool.annotations.readOnlyHint) {
    const detail = manifest.sentences?.detail;
    params.push(detail === undefined ? DETAIL : { ...DETAIL, description: unwrap(detail) });
  }
  const guard =
    tool.guard === 'never'
      ? undefined
      : guardModel(tool.guard, vocabularies, (name) =>
          integersAsText(
            tool,
            manifest.tools.find((other) => other.name === name),
          ),
        );
  const asking = guard && askingSentence(manifest, guard.condition);
  const repositories = repositoryPolicyModel(tool);
  const policyFacts = policyFactsModel(
    tool,
    (name) => toolRef(name).requestFunction,
    (name) => manifest.tools.find((other) => other.name === name),
  );
  const model: ToolModel = {
    name: tool.name,
    constName: camelCase(tool.name),
    argsType: `${pascalCase(tool.name)}Args`,
    requestFunction: `${camelCase(tool.name)}Request`,
    title: tool.title,
    description: asking ? `${unwrap(tool.description)} ${asking}` : unwrap(tool.description),
    ...(manifest.details?.[tool.name] === undefined
      ? {}
      : { details: unwrap(manifest.details[tool.name]!) }),
    group: tool.group,
    adminOnly: tool.admin_only,
    worksWithoutToken: tool.works_without_token === true,
    essential: tool.essential,
    annotations: {
      readOnlyHint: tool.annotations.readOnlyHint,
      destructiveHint: tool.annotations.destructiveHint,
      idempotentHint: tool.annotations.idempotentHint,
      openWorldHint: tool.annotations.openWorldHint,
    },
    params,
    inputSchema: inputSchemaOf(tool, params),
    output: {
      kind: tool.output.kind,
      redact: [...tool.output.redact],
      reveal: [...tool.output.reveal],
      untrusted: tool.output.untrusted,
      ...(tool.output.stored_id ? { storedId: true } : {}),
      ...(view ? { view } : {}),
    },
    errorHints: Object.fromEntries(
      Object.entries(tool.errors ?? {}).sort(([a], [b]) => compareNames(a, b)),
    ),
    readBack: readBackOf(tool, new Set(manifest.tools.map((other) => other.name))),
    auditTargets: auditTargetsOf(tool),
    ...(versions?.since === undefined ? {} : { availableSince: versions.since }),
    since: versions
      ? { ...versions.params }
      : Object.fromEntries(
          Object.entries(tool.params).flatMap(([name, param]) =>
            param.since === undefined ? [] : [[name, param.since]],
          ),
        ),
    impliedBeforeSince: Object.fromEntries(
      Object.entries(tool.params).flatMap(([name, param]) =>
        param.implied_before_since === undefined ? [] : [[name, param.implied_before_since]],
      ),
    ),
    calls: (tool.calls ?? []).map((call, index) => {
      const fact = callFacts[index] ?? { prefix: '/api', bodyTypes: {} };
      const source = (from: FieldSource, specType?: string): ValueSource => {
        if (typeof from === 'string')
          return {
            param: from,
            asString: specType === 'string' && tool.params[from]?.type === 'integer',
          };
        if ('const' in from) return { const: from.const };
        const fallback = from.default === undefined ? {} : { fallback: from.default };
        return 'or_current' in from
          ? { fromCurrent: from.or_current, orParam: from.param, ...fallback }
          : { fromCurrent: from.current, ...fallback };
      };
      const body =
        call.body === undefined
          ? undefined
          : bodyTree(
              Object.entries(call.body).map(([field, from]) => [
                field,
                source(from, fact.bodyTypes[field]),
              ]),
            );
      return {
        when: Object.entries(call.when ?? {}).map(([key, value]): WhenCondition =>
          key === 'present' ? { param: String(value), present: true } : { param: key, value },
        ),
        method: call.method,
        specPath: call.path,
        fullPath: fact.prefix + call.path,
        prefix: fact.prefix,
        pathParams: { ...(call.path_params ?? {}) },
        query: Object.entries(call.query ?? {}).map(([name, from]) => ({
          name,
          source: source(from),
        })),
        ...(body === undefined ? {} : { body }),
        ...(call.current === undefined ? {} : { current: toolRef(call.current) }),
      };
    }),
    readsFirst: [...(tool.reads_first ?? [])],
    ...(tool.handler === undefined ? {} : { handler: tool.handler }),
    ...(tool.app === undefined ? {} : { app: tool.app }),
    ...(guard === undefined ? {} : { guard }),
    ...(repositories === undefined ? {} : { repositories }),
    ...(policyFacts === undefined ? {} : { policyFacts }),
  };
  return model;
}

function toolRef(tool: string): ToolRef {
  return { tool, requestFunction: `${camelCase(tool)}Request` };
}

/** The integer arguments of `tool` that `read` takes as strings (get_pipeline's number). */
export function integersAsText(tool: ManifestTool, read: ManifestTool | undefined): string[] {
  return Object.entries(read?.params ?? {})
    .filter(([name, param]) => param.type === 'string' && tool.params[name]?.type === 'integer')
    .map(([name]) => name);
}

function guardModel(
  guard: Exclude<ManifestTool['guard'], 'never'>,
  vocabularies: Readonly<Record<string, readonly string[]>>,
  asTextFor: (read: string) => readonly string[],
): GuardModel {
  const always = guard.when === 'always';
  const leaves = guard.when === 'always' ? [] : leavesOf(guard.when);
  const wider = leaves.map((leaf) => predicateFacts(leaf).widerReads).find(Boolean);
  return {
    targets: [...guard.targets],
    bindBody: guard.bind_body,
    ...(guard.read === undefined
      ? {}
      : { read: { ...toolRef(guard.read), asText: asTextFor(guard.read) } }),
    ...(guard.identity === undefined ? {} : { identity: guard.identity }),
    ...(wider
      ? {
          shadows: {
            param: wider.param,
            list: toolRef(wider.list),
            organizationOf: toolRef(wider.organizationOf),
            fold: wider.fold,
            sameLevel: wider.sameLevel,
          },
        }
      : {}),
    always,
    predicate: guard.when,
    reasons: leaves.map((predicate) => {
      const facts = predicateFacts(predicate);
      return { predicate, param: facts.param, current: facts.current, reason: facts.reason };
    }),
    condition: conditionOf(guard.when),
    ...(guard.needs_admin === undefined ? {} : { needsAdmin: leavesOf(guard.needs_admin) }),
    // Like descriptions: the author's YAML wraps are not the person's line breaks.
    dialog: unwrap(guard.dialog),
    vocabularies,
    ...(guard.link === undefined ? {} : { links: guard.link }),
  };
}

function bodyTree(entries: readonly (readonly [string, ValueSource])[]): BodyNode {
  type MutableObject = { kind: 'object'; fields: Record<string, BodyNode> };
  const root: MutableObject = { kind: 'object', fields: {} };
  for (const [field, source] of entries) {
    const keys = field.split('.');
    let node = root;
    for (const key of keys.slice(0, -1)) {
      const existing = node.fields[key];
      const next: MutableObject =
        existing?.kind === 'object' ? (existing as MutableObject) : { kind: 'object', fields: {} };
      node.fields[key] = next;
      node = next;
    }
    node.fields[keys[keys.length - 1] ?? field] = { kind: 'value', source };
  }
  return root;
}

function paramModel(name: string, param: ManifestParam): ParamModel {
  return {
    name,
    type: param.type,
    required: param.required === true,
    description: unwrap(param.description),
    ...(param.enum === undefined ? {} : { enum: [...param.enum] }),
    tsType: tsTypeOf(param),
  };
}

function tsTypeOf(param: ManifestParam): string {
  const literals = param.enum?.map((value) => JSON.stringify(value)).join(' | ');
  switch (param.type) {
    case 'integer':
      return ['number', ...(param.also ?? []).map((word) => JSON.stringify(word))].join(' | ');
    case 'boolean':
      return 'boolean';
    case 'string':
      return literals ?? 'string';
    case 'string_list':
      return literals ? `readonly (${literals})[]` : 'readonly string[]';
    case 'string_map':
      return 'Readonly<Record<string, string>>';
  }
}

function inputSchemaOf(tool: ManifestTool, params: readonly ParamModel[]): Record<string, unknown> {
  const inPath = new Set(
    (tool.calls ?? []).flatMap((call) => Object.values(call.path_params ?? {})),
  );
  const properties: Record<string, unknown> = {};
  for (const param of params) {
    const declared = tool.params[param.name];
    properties[param.name] = declared
      ? propertySchema(declared, inPath.has(param.name))
      : {
          type: 'string',
          description: param.description,
          ...(param.enum ? { enum: [...param.enum] } : {}),
          ...(param.unlisted ? { 'x-unlisted': true } : {}),
        };
  }
  const required = params.filter((param) => param.required).map((param) => param.name);
  // `needs`: a parameter Woodpecker ignores without another (a restart's deploy_to without
  // event deployment keeps the stored target). Checked by the server, not listed.
  const needs = Object.entries(tool.params).filter(([, param]) => param.needs);
  return {
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    ...(needs.length > 0
      ? {
          dependencies: Object.fromEntries(needs.map(([name, param]) => [name, [...param.needs!]])),
        }
      : {}),
  };
}

/**
 * A JSON number above 2^53 - 1 cannot be held exactly: 9007199254740993 arrives as
 * …992, and the call would act on another id. So every integer says where it ends, and
 * the client learns it from the tool list.
 */
export const LARGEST_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * A path value of "." or ".." is a dot segment: URL parsing removes it and the call lands
 * on the parent route (DELETE /repos/1/secrets/.. became DELETE /repos/1/).
 */
const DOT_SEGMENTS = ['.', '..'];

function propertySchema(param: ManifestParam, inPath: boolean): Record<string, unknown> {
  const description = unwrap(param.description);
  const constraints = (keys: readonly [keyof ManifestParam, string][]): Record<string, unknown> =>
    Object.fromEntries(
      keys.filter(([from]) => param[from] !== undefined).map(([from, to]) => [to, param[from]]),
    );
  switch (param.type) {
    case 'integer': {
      const bounds = {
        ...constraints([['minimum', 'minimum']]),
        maximum: param.maximum ?? LARGEST_EXACT_INTEGER,
      };
      // Integer or a word, as a validator reads it: a client library checks a call against
      // the list, and a string with a pattern would refuse the integer the answers show.
      if (param.also)
        return {
          description,
          anyOf: [
            { type: 'integer', ...bounds },
            { type: 'string', enum: [...param.also] },
          ],
        };
      return { type: 'integer', description, ...bounds };
    }
    case 'boolean':
      return { type: 'boolean', description };
    case 'string':
      return {
        type: 'string',
        description,
        ...constraints([
          ['enum', 'enum'],
          ['min_length', 'minLength'],
          ['max_length', 'maxLength'],
          ['pattern', 'pattern'],
        ]),
        ...(param.format === 'http_url' ? { pattern: HTTP_URL_PATTERN } : {}),
        // Checked by the server after the schema (runtime/call/plainArguments.ts); left out
        // of the tool list (runtime/mcp/listedSchema.ts).
        ...(param.format === 'git_branch' || param.format === 'registry_address'
          ? { 'x-format': param.format }
          : {}),
        ...(param.free_text ? { 'x-free-text': true } : {}),
        // writeOnly tells clients and the argument validator that this value is a credential.
        ...(param.secret ? { writeOnly: true } : {}),
        ...(inPath
          ? { minLength: Math.max(param.min_length ?? 1, 1), not: { enum: DOT_SEGMENTS } }
          : {}),
      };
    case 'string_list':
      return {
        type: 'array',
        description,
        items: { type: 'string', ...constraints([['enum', 'enum']]) },
        ...constraints([['min_items', 'minItems']]),
      };
    case 'string_map':
      return { type: 'object', description, additionalProperties: { type: 'string' } };
  }
}
