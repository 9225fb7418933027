// Stage 2c (compiled for stage 3): A tool's view (tools.yaml `output.view`): the fields a model reads, in reading order.
// Every field is checked against the schema of the answer the tool's calls get, so a
// field Woodpecker renames or drops fails generation naming the tool and the field, and a
// field nobody asked for is one reviewable line. Named views (`views:`) are compiled once
// and shared, so generated/views.ts holds each of them once and tools refer to it.
import type { LoadedManifest } from '../manifest/loadManifest.js';
import { ManifestError, fieldPath, type Problem } from '../manifestError.js';
import type { Manifest, ManifestTool, ManifestView } from '../manifest/manifestTypes.js';
import {
  okAnswerSchema,
  propertiesOf,
  resolve,
  typeOf,
  type JsonObject,
  type OpenApiDocument,
} from './specCheck.js';
import type { View, ViewField, ViewScalar } from '../../runtime/core/tool.js';
import { FIELD_PLACEHOLDER } from '../../runtime/output/view.js';

/** The ways of showing a field that are not a nested view. */
const SHOWN_AS = { time: 'time', duration: 'took', as_sent: 'sent' } as const;

/** The fields a `duration` entry reads: how long the object ran. */
const DURATION_FROM = ['started', 'finished'] as const;

/** Nested views deeper than this are a loop (a view that names itself). */
const MAX_DEPTH = 6;

type Entry = ManifestView[number];

function entryParts(entry: Entry): {
  field: string;
  how: string | undefined;
  absentMeans?: ViewScalar;
  unlessSameAs?: string;
  keys?: readonly string[];
} {
  if (typeof entry === 'string') return { field: entry, how: undefined };
  const [field, how] = Object.entries(entry)[0] ?? ['', undefined];
  if (how !== undefined && typeof how === 'object')
    return 'time_unless_same_as' in how
      ? { field, how: 'time', unlessSameAs: how.time_unless_same_as }
      : 'without_keys' in how
        ? { field, how: undefined, keys: how.without_keys }
        : { field, how: undefined, absentMeans: how.absent_means };
  return { field, how };
}

function namedView(manifest: Manifest, view: string | ManifestView): ManifestView | undefined {
  return typeof view === 'string' ? manifest.views?.[view] : view;
}

/**
 * Every named view compiled once: a view that nests another holds that view's own object,
 * so the emitter can write each named view once (generated/views.ts) and refer to it.
 */
export interface CompiledViews {
  /** Name → compiled view, for the views declared under `views:`. */
  readonly named: ReadonlyMap<string, View>;
  /** The runtime view of a tool; undefined when the tool has none. */
  toolView(tool: ManifestTool): View | undefined;
}

export function compileViews(manifest: Manifest): CompiledViews {
  const named = new Map<string, View>();
  const underWay = new Set<string>();
  const compileEntries = (view: ManifestView): View =>
    view.map((entry): ViewField => {
      const { field, how, absentMeans, unlessSameAs, keys } = entryParts(entry);
      if (absentMeans !== undefined) return { name: field, show: 'unless', absentMeans };
      if (keys !== undefined) return { name: field, show: 'without', keys };
      if (unlessSameAs !== undefined) return { name: field, show: 'time', unlessSameAs };
      if (how === undefined) return { name: field, show: 'copy' };
      if (how in SHOWN_AS) return { name: field, show: SHOWN_AS[how as keyof typeof SHOWN_AS] };
      return { name: field, show: 'view', view: compileNamed(how) };
    });
  // A view that names itself is refused by checkViews; here it only must not recurse forever.
  const compileNamed = (name: string): View => {
    const done = named.get(name);
    if (done !== undefined) return done;
    if (underWay.has(name)) return [];
    underWay.add(name);
    const view = compileEntries(manifest.views?.[name] ?? []);
    underWay.delete(name);
    named.set(name, view);
    return view;
  };
  for (const name of Object.keys(manifest.views ?? {})) compileNamed(name);
  return {
    named,
    toolView(tool) {
      const view = tool.output.view;
      if (view === undefined) return undefined;
      return typeof view === 'string' ? compileNamed(view) : compileEntries(view);
    },
  };
}

/** Refuses every view field that is not in the answer's schema, naming tool and field. */
export function checkViews(loaded: LoadedManifest, spec: OpenApiDocument, specName: string): void {
  const { manifest, locator } = loaded;
  const problems: Problem[] = [];
  manifest.tools.forEach((tool, index) => {
    const view = tool.output.view;
    if (view === undefined) return;
    const at = ['output', 'view'];
    const refuse = (message: string, segments: readonly (string | number)[] = at): void => {
      problems.push({
        line: locator.toolLine(index, segments),
        tool: tool.name,
        field: fieldPath(segments),
        message,
      });
    };
    if (typeof view === 'string' && manifest.views?.[view] === undefined) {
      refuse(`names the view ${view}, which is not declared under views`);
      return;
    }
    // A handler that ends in its manifest call answers as that call does (answerOf, e.g.
    // restart_pipeline after its checks): the view applies to that answer. One without
    // calls shapes its own answer, which no view fits.
    if (!tool.calls?.length) {
      refuse(
        'a tool without calls shapes its own answer; a view applies to the answer of a Woodpecker call',
      );
      return;
    }
    // A tool whose calls differ by scope answers with one of several schemas (a user's
    // repositories carry last_pipeline, the instance list does not): a field is refused
    // when no call's answer has it, or when it has the wrong type where it is.
    const found = new Map<string, { message: string; calls: number }>();
    for (const call of tool.calls) {
      let answer = okAnswerSchema(spec, call);
      if (answer && tool.output.kind === 'list' && typeOf(spec, answer) === 'array')
        answer = resolve(spec, answer['items']) as JsonObject | undefined;
      if (!answer) {
        refuse(
          `${call.method} ${call.path} has no JSON answer schema in ${specName} to check the view against; drop the view`,
        );
        continue;
      }
      checkView(manifest, namedView(manifest, view) ?? [], answer, spec, 0, (field, message) => {
        const missing = message.startsWith('is not a field');
        const key = missing ? `${field}: ${message}` : `${field}: ${message} ${call.path}`;
        const seen = found.get(key);
        found.set(key, {
          message: `${field}: ${message} (the answer of ${call.method} ${call.path} in ${specName})`,
          calls: missing ? (seen?.calls ?? 0) + 1 : tool.calls!.length,
        });
      });
    }
    for (const { message, calls } of found.values())
      if (calls === tool.calls.length) refuse(message);
  });
  if (problems.length > 0)
    throw new ManifestError(
      loaded.file,
      [...new Map(problems.map((p) => [`${p.line}${p.message}`, p])).values()].sort(
        (a, b) => a.line - b.line,
      ),
    );
}

function checkView(
  manifest: Manifest,
  view: ManifestView,
  schema: JsonObject,
  spec: OpenApiDocument,
  depth: number,
  refuse: (field: string, message: string) => void,
): void {
  const properties = propertiesOf(spec, schema);
  const fieldSchema = (name: string): JsonObject | undefined =>
    properties[name] === undefined ? undefined : (resolve(spec, properties[name]) as JsonObject);
  const seen = new Set<string>();
  for (const entry of view) {
    const { field, how, absentMeans, unlessSameAs, keys } = entryParts(entry);
    if (seen.has(field)) refuse(field, 'appears twice in the view; keep one');
    seen.add(field);
    if (how === 'duration') {
      const missing = DURATION_FROM.filter(
        (name) => typeOf(spec, fieldSchema(name) ?? {}) !== 'integer',
      );
      if (missing.length > 0)
        refuse(
          field,
          `a duration needs integer ${DURATION_FROM.join(' and ')}; the answer has no integer ${missing.join(', ')}`,
        );
      continue;
    }
    const own = fieldSchema(field);
    if (!own) {
      refuse(
        field,
        "is not a field of this answer; it was renamed or removed, use the spec's name or drop it from the view",
      );
      continue;
    }
    if (keys !== undefined) {
      if (typeOf(spec, own) !== 'object')
        refuse(
          field,
          `leaves out the keys ${keys.join(', ')}, but it is ${typeOf(spec, own) ?? 'untyped'}, not a map`,
        );
      continue;
    }
    if (absentMeans !== undefined) {
      const type = typeOf(spec, own);
      const given = typeof absentMeans === 'number' ? ['integer', 'number'] : [typeof absentMeans];
      if (type === undefined || !given.includes(type))
        refuse(
          field,
          `is left out when it is ${JSON.stringify(absentMeans)}, but it is ${type ?? 'untyped'}; give a value of its type`,
        );
      // A default written from other fields ("refs/heads/{branch}") names string fields.
      for (const [, name] of typeof absentMeans === 'string'
        ? absentMeans.matchAll(FIELD_PLACEHOLDER)
        : [])
        if (typeOf(spec, fieldSchema(name ?? '') ?? {}) !== 'string')
          refuse(
            field,
            `is left out when it is ${JSON.stringify(absentMeans)}, but {${name}} is not a string field of this answer`,
          );
      continue;
    }
    if (how === 'time') {
      if (typeOf(spec, own) !== 'integer')
        refuse(
          field,
          `is shown as a time, but it is ${typeOf(spec, own) ?? 'untyped'}, not integer Unix seconds`,
        );
      const other = unlessSameAs === undefined ? undefined : fieldSchema(unlessSameAs);
      if (unlessSameAs !== undefined && (other === undefined || typeOf(spec, other) !== 'integer'))
        refuse(
          field,
          `is left out when it equals ${unlessSameAs}, which is not an integer time of this answer; name a field of it`,
        );
      continue;
    }
    if (how === undefined || how === 'as_sent') continue;
    const nested = manifest.views?.[how];
    if (!nested) {
      refuse(
        field,
        `names the view ${how}, which is not declared under views (or use time, duration or as_sent)`,
      );
      continue;
    }
    if (depth >= MAX_DEPTH) {
      refuse(field, `views nest more than ${MAX_DEPTH} deep; a view that names itself loops`);
      continue;
    }
    const inner =
      typeOf(spec, own) === 'array' ? (resolve(spec, own['items']) as JsonObject | undefined) : own;
    checkView(manifest, nested, inner ?? {}, spec, depth + 1, (name, message) =>
      refuse(`${field}.${name}`, message),
    );
  }
}
