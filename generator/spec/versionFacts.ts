// Stage 2b: which Woodpecker releases have each tool and each parameter. The pinned spec
// is the contract (stage 2 checks it); the specs of the other supported releases
// (specs/*.json, pulled by `npm run spec:pull -- --version … --out specs/…`) are compared
// with it here, so `since` comes from the servers' own descriptions instead of hand edits.
// A route is the same route whatever its path parameters are called ({number} in 3.11,
// {pipeline_number} in 3.17). Something a newer spec lacks is a problem, reported like any
// other: the tool would stop working on the upgrade.
import { replacePlaceholders } from '../placeholders.js';
import { basename } from 'node:path';
import type { LoadedManifest } from '../manifest/loadManifest.js';
import { ManifestError, fieldPath, type Problem } from '../manifestError.js';
import type { FieldSource, ManifestCall } from '../manifest/manifestTypes.js';
import {
  loadSpec,
  requestBodySchema,
  resolve,
  schemaAtPath,
  type JsonObject,
  type OpenApiDocument,
} from './specCheck.js';

export interface VersionedSpec {
  /** The release the spec was pulled from (info["x-woodpecker-version"]): "3.11.0". */
  readonly version: string;
  readonly file: string;
  readonly spec: OpenApiDocument;
}

export interface ToolVersions {
  /** The oldest known release with every route of the tool; absent when the oldest spec has them. */
  readonly since?: string;
  /** Parameters that need a newer release than the tool itself. */
  readonly params: Readonly<Record<string, string>>;
}

export interface VersionFacts {
  /** Known releases, oldest first. */
  readonly versions: readonly string[];
  readonly tools: ReadonlyMap<string, ToolVersions>;
}

export function loadVersionedSpec(file: string): VersionedSpec {
  const spec = loadSpec(file);
  const version = (spec as { info?: { 'x-woodpecker-version'?: unknown } }).info?.[
    'x-woodpecker-version'
  ];
  if (typeof version !== 'string' || releaseOf(version) === undefined) {
    throw new ManifestError(file, [
      {
        line: 1,
        tool: '(spec)',
        field: 'info.x-woodpecker-version',
        message: `${basename(file)} does not say which Woodpecker release it describes; pull it again with npm run spec:pull`,
      },
    ]);
  }
  return { version, file, spec };
}

/** "3.18.0-dev+a4cb541" → [3, 18, 0]. */
export function releaseOf(version: string): readonly [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

export function compareReleases(a: string, b: string): number {
  const x = releaseOf(a) ?? [0, 0, 0];
  const y = releaseOf(b) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

const later = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined ? b : b === undefined ? a : compareReleases(a, b) >= 0 ? a : b;

/** The path with its parameter names erased: /repos/{}/pipelines/{}. */
function routeOf(path: string): string {
  return replacePlaceholders(path, () => '{}');
}

/** The operation at method + route, whatever the spec calls the route's parameters. */
function operationOf(
  spec: OpenApiDocument,
  call: ManifestCall,
): { pathItem: JsonObject; operation: JsonObject } | undefined {
  const route = routeOf(call.path);
  for (const [path, pathItem] of Object.entries(spec.paths)) {
    if (routeOf(path) !== route) continue;
    const operation = pathItem[call.method.toLowerCase()] as JsonObject | undefined;
    if (operation) return { pathItem, operation };
  }
  return undefined;
}

function hasQuery(
  spec: OpenApiDocument,
  found: { pathItem: JsonObject; operation: JsonObject },
  name: string,
): boolean {
  const parameters = [
    ...((found.pathItem['parameters'] as unknown[] | undefined) ?? []),
    ...((found.operation['parameters'] as unknown[] | undefined) ?? []),
  ];
  return parameters.some((parameter) => {
    const resolved = resolve(spec, parameter) as JsonObject;
    return resolved['in'] === 'query' && resolved['name'] === name;
  });
}

function hasBodyField(spec: OpenApiDocument, operation: JsonObject, field: string): boolean {
  const body = requestBodySchema(spec, operation);
  return body !== undefined && schemaAtPath(spec, body, field.split('.')) !== undefined;
}

/**
 * For each tool: the release its routes appear in, and the release each parameter's field
 * appears in when that is later. `specs` must include the pinned one.
 */
export function compareVersions(
  loaded: LoadedManifest,
  specs: readonly VersionedSpec[],
): VersionFacts {
  const ordered = [...specs].sort((a, b) => compareReleases(a.version, b.version));
  const versions = ordered.map((entry) => entry.version);
  const problems: Problem[] = [];
  const tools = new Map<string, ToolVersions>();

  loaded.manifest.tools.forEach((tool, index) => {
    const at = (segments: readonly (string | number)[]) => ({
      line: loaded.locator.toolLine(index, segments),
      tool: tool.name,
      field: fieldPath(segments),
    });
    // The first release of an unbroken run up to the newest; a gap is a problem.
    const sinceOf = (
      has: readonly boolean[],
      segments: readonly (string | number)[],
      what: string,
    ): string | undefined => {
      // The first release without it that follows one with it.
      const gone = has.findIndex((present, i) => !present && has.slice(0, i).includes(true));
      if (gone >= 0) {
        const missingIn = ordered[gone];
        problems.push({
          ...at(segments),
          message: `${what} is in Woodpecker ${ordered[gone - 1]?.version} but not in ${missingIn?.version} (${basename(missingIn?.file ?? '')}); the tool would stop working there: follow the rename or drop it`,
        });
        return undefined;
      }
      const first = has.indexOf(true);
      return first > 0 ? versions[first] : undefined;
    };

    let toolSince: string | undefined;
    const fieldSince = new Map<string, string | undefined>();
    const lastLacking = new Map<string, string>();
    (tool.calls ?? []).forEach((call, c) => {
      const found = ordered.map((entry) => operationOf(entry.spec, call));
      const where = `${call.method} ${call.path}`;
      toolSince = later(toolSince, sinceOf(found.map(Boolean), ['calls', c, 'path'], where));
      const fields: Array<[string, FieldSource, 'query' | 'body']> = [
        ...Object.entries(call.query ?? {}).map(
          ([name, source]) => [name, source, 'query'] as [string, typeof source, 'query'],
        ),
        ...Object.entries(call.body ?? {}).map(
          ([name, source]) => [name, source, 'body'] as [string, typeof source, 'body'],
        ),
      ];
      for (const [name, source, kind] of fields) {
        const has = ordered.map((entry, i) => {
          const operation = found[i];
          if (!operation) return false;
          return kind === 'query'
            ? hasQuery(entry.spec, operation, name)
            : hasBodyField(entry.spec, operation.operation, name);
        });
        const since = sinceOf(has, ['calls', c, kind, name], `${kind} field ${name} of ${where}`);
        // A field filled from an argument dates that argument; a constant or a value only
        // the current object has dates nothing the caller chose.
        const param =
          typeof source === 'string' ? source : 'param' in source ? source.param : undefined;
        if (param === undefined) continue;
        fieldSince.set(param, later(fieldSince.get(param), since));
        const lacking = has.lastIndexOf(false);
        if (lacking >= 0)
          lastLacking.set(param, later(lastLacking.get(param), versions[lacking]) ?? '');
      }
    });

    const params: Record<string, string> = {};
    for (const [name, param] of Object.entries(tool.params)) {
      const derived = fieldSince.get(name);
      // With the pin alone there is nothing to compare: a written `since` is all we know.
      const since =
        ordered.length === 1
          ? param.since
          : param.since === undefined
            ? derived
            : refined(param.since, derived, lastLacking.get(name), versions, (message) =>
                problems.push({ ...at(['params', name, 'since']), message }),
              );
      if (since !== undefined && (toolSince === undefined || compareReleases(since, toolSince) > 0))
        params[name] = since;
      const implied = param.implied_before_since;
      if (implied !== undefined && ordered.length > 1 && since === undefined) {
        problems.push({
          ...at(['params', name, 'implied_before_since']),
          message: `${name} is honoured by every known release (${versions.join(', ')}); remove implied_before_since`,
        });
      }
      const impliedType = { boolean: 'boolean', integer: 'number', string: 'string' }[
        param.type as string
      ];
      if (implied !== undefined && typeof implied !== impliedType) {
        problems.push({
          ...at(['params', name, 'implied_before_since']),
          message: `${name} is ${param.type}, implied_before_since is ${JSON.stringify(implied)}; give a value of that type`,
        });
      }
    }
    tools.set(tool.name, { ...(toolSince === undefined ? {} : { since: toolSince }), params });
  });

  if (problems.length > 0)
    throw new ManifestError(
      loaded.file,
      problems.sort((a, b) => a.line - b.line),
    );
  return { versions, tools };
}

/**
 * A hand-written `since` may only narrow what the specs say: between the newest spec
 * without the field and the oldest with it (the releases in between have no spec here,
 * their source does). Anything else contradicts the specs.
 */
function refined(
  written: string,
  derived: string | undefined,
  lacking: string | undefined,
  versions: readonly string[],
  refuse: (message: string) => void,
): string | undefined {
  if (derived === undefined || lacking === undefined) {
    refuse(`every known spec (${versions.join(', ')}) has this field; remove \`since\``);
    return derived;
  }
  if (compareReleases(written, lacking) <= 0 || compareReleases(written, derived) > 0) {
    refuse(
      `the specs say ${lacking} lacks it and ${derived} has it; \`since\` must lie after ${lacking} and no later than ${derived}`,
    );
    return derived;
  }
  return written;
}
