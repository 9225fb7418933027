// The spec check: every call against the OpenAPI document. Each test bends the golden
// fixture spec in one place and expects the tool and the field named, with the line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.js';
import { loadManifest } from '../../generator/manifest/loadManifest.js';
import { ManifestError } from '../../generator/manifestError.js';
import {
  checkAgainstSpec,
  dialogVocabularies,
  type OpenApiDocument,
} from '../../generator/spec/specCheck.js';
import { goldenManifest, goldenSpec, realManifest, realSpec } from './fixturePaths.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function goldenSpecCopy(): Json {
  return JSON.parse(readFileSync(goldenSpec, 'utf8')) as Json;
}

function refusalAgainst(spec: Json, manifestPath = goldenManifest): string {
  const loaded = loadManifest(manifestPath);
  try {
    checkAgainstSpec(loaded, spec as OpenApiDocument, 'woodpecker-openapi.json');
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
  throw new Error('the spec check passed');
}

const manifestText = readFileSync(goldenManifest, 'utf8');
const lineOf = (marker: string): number =>
  manifestText.split('\n').findIndex((line) => line.includes(marker)) + 1;

describe('spec check', () => {
  it('passes on the fixture spec and learns the root prefix of /status', () => {
    const facts = checkAgainstSpec(
      loadManifest(goldenManifest),
      goldenSpecCopy() as OpenApiDocument,
      'spec',
    );
    expect(facts.get('get_status')?.[0]?.prefix).toBe('');
    expect(facts.get('get_widget')?.[0]?.prefix).toBe('/api');
    expect(facts.get('update_widget')?.[0]?.bodyTypes['owner']).toBe('string');
  });

  it('refuses a path the spec no longer has', () => {
    const spec = goldenSpecCopy();
    spec['paths']['/things/{widget_id}'] = spec['paths']['/widgets/{widget_id}'];
    delete spec['paths']['/widgets/{widget_id}'];
    const message = refusalAgainst(spec);
    expect(message).toContain(
      `tools.yaml:${lineOf('path: /widgets/{widget_id}')}: get_widget: calls[0].path: /widgets/{widget_id} is not a path`,
    );
  });

  it('refuses a method the path no longer offers', () => {
    const spec = goldenSpecCopy();
    delete spec['paths']['/widgets/{widget_id}']['delete'];
    expect(refusalAgainst(spec)).toMatch(
      /delete_widget: calls\[0\]\.method: woodpecker-openapi\.json has no DELETE \/widgets\/\{widget_id\}/,
    );
  });

  it('refuses a query parameter the operation does not have', () => {
    const spec = goldenSpecCopy();
    spec['paths']['/widgets']['get']['parameters'][1]['name'] = 'per_page';
    expect(refusalAgainst(spec)).toContain(
      `tools.yaml:${lineOf('query: { page: page, perPage')}: list_widgets: calls[0].query.perPage: GET /widgets has no query parameter perPage`,
    );
  });

  it('refuses a body field that was renamed, following allOf and $ref', () => {
    const spec = goldenSpecCopy();
    const parts = spec['components']['schemas']['WidgetPatch']['allOf'][1]['properties'];
    parts['approval_mode'] = parts['require_approval'];
    delete parts['require_approval'];
    expect(refusalAgainst(spec)).toContain(
      `tools.yaml:${lineOf('require_approval: approval')}: update_widget: calls[0].body.require_approval: the request body of PATCH /widgets/{widget_id} has no field require_approval`,
    );
  });

  it('refuses a nested body field that was dropped', () => {
    const spec = goldenSpecCopy();
    delete spec['components']['schemas']['Trust']['properties']['network'];
    expect(refusalAgainst(spec)).toMatch(
      /update_widget: calls\[0\]\.body\.trusted\.network: .*has no field trusted\.network/,
    );
  });

  it('refuses a body field whose type no longer fits the parameter', () => {
    const spec = goldenSpecCopy();
    spec['components']['schemas']['WidgetPatch']['allOf'][1]['properties']['visibility'] = {
      type: 'boolean',
    };
    expect(refusalAgainst(spec)).toMatch(
      /update_widget: calls\[0\]\.body\.visibility: .*the spec expects boolean, visibility is string/,
    );
  });

  it('refuses a const the spec cannot take', () => {
    const spec = goldenSpecCopy();
    spec['components']['schemas']['WidgetBase']['properties']['kind'] = { type: 'integer' };
    expect(refusalAgainst(spec)).toMatch(
      /update_widget: calls\[0\]\.body\.kind: .*the spec expects integer, the manifest sends the constant "standard"/,
    );
  });

  it('refuses an enum value the spec does not accept', () => {
    const spec = goldenSpecCopy();
    spec['components']['schemas']['Event']['enum'] = ['push', 'tag'];
    expect(refusalAgainst(spec)).toMatch(
      /update_widget: calls\[0\]\.body\.events: .*does not accept pull_request/,
    );
  });

  it('refuses a path parameter typed integer for a string parameter without a pattern', () => {
    const spec = goldenSpecCopy();
    spec['paths']['/widgets/{widget_id}']['parameters'][0]['schema'] = { type: 'boolean' };
    expect(refusalAgainst(spec)).toMatch(
      /get_widget: calls\[0\]\.path_params\.widget_id: GET \/widgets\/\{widget_id\} takes \{widget_id\} as boolean, widget_id is integer/,
    );
  });
});

describe('upgrade drill on the real tools.yaml and spec', () => {
  it('lets a guard read an integer id into its dialog and binding, and refuses a string field or a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-answer-'));
    scratch.push(dir);
    const bent = (dialog: string, identity: string): string => {
      const path = join(dir, `${identity}.yaml`);
      const text = manifestText
        .replace('This will change widget {widget_id} (visibility: {visibility}).', dialog)
        .replace(
          '      read: get_widget\n',
          `      read: get_widget\n      identity: ${identity}\n`,
        );
      expect(text).not.toBe(manifestText);
      writeFileSync(path, text);
      return path;
    };
    expect(() =>
      checkAgainstSpec(
        loadManifest(bent('This will change widget {current.id}.', 'id')),
        goldenSpecCopy() as OpenApiDocument,
        'spec',
      ),
    ).not.toThrow();

    const label = refusalAgainst(
      goldenSpecCopy(),
      bent('This will change widget {current.label}.', 'id'),
    );
    expect(label).toMatch(
      /update_widget: guard\.dialog: \{current\.label\}: the answer of get_widget \(GET \/widgets\/\{widget_id\}\) has label as string .*never free text/,
    );
    const identity = refusalAgainst(
      goldenSpecCopy(),
      bent('This will change widget {widget_id}.', 'trusted.owner'),
    );
    expect(identity).toMatch(
      /update_widget: guard\.identity: identity: the answer of get_widget .* has no field trusted\.owner/,
    );
  });

  it('lets a dialog show an enum list read from the answer, and a list only as its size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-facts-'));
    scratch.push(dir);
    const bent = (name: string, dialog: string): string => {
      const path = join(dir, `${name}.yaml`);
      const text = manifestText.replace(
        'This will change widget {widget_id} (visibility: {visibility}).',
        dialog,
      );
      expect(text).not.toBe(manifestText);
      writeFileSync(path, text);
      return path;
    };
    const facts = bent(
      'facts',
      'Widget {current.id}: events {current.events}, {current.events:count} of them.',
    );
    expect(() =>
      checkAgainstSpec(loadManifest(facts), goldenSpecCopy() as OpenApiDocument, 'spec'),
    ).not.toThrow();
    expect(
      dialogVocabularies(
        loadManifest(facts).manifest.tools,
        goldenSpecCopy() as OpenApiDocument,
      ).get('update_widget'),
    ).toEqual({ events: ['push', 'pull_request', 'tag'] });

    // A free-text string is refused with the way out for a list; so is counting a non-list.
    expect(refusalAgainst(goldenSpecCopy(), bent('label', 'Widget {current.label}.'))).toMatch(
      /update_widget: guard\.dialog: \{current\.label\}: the answer of get_widget .* has label as string in woodpecker-openapi\.json, without an enum; a dialog shows only integer fields \(ids\), enum fields and lists of enum values, never free text/,
    );
    expect(refusalAgainst(goldenSpecCopy(), bent('count', 'Widget {current.id:count}.'))).toMatch(
      /update_widget: guard\.dialog: \{current\.id:count\}: .* has id as integer .*; only a list can be counted/,
    );

    // The same list without an enum (free text) is refused.
    const spec = goldenSpecCopy();
    delete spec['components']['schemas']['Event']['enum'];
    expect(refusalAgainst(spec, facts)).toMatch(
      /\{current\.events\}: .* has events as array .*without an enum/,
    );
  });

  it('fails naming update_repository and the field when RepoPatch.require_approval is renamed', () => {
    const spec = JSON.parse(readFileSync(realSpec, 'utf8')) as Json;
    const patch = spec['components']['schemas']['RepoPatch']['properties'];
    patch['approval_mode'] = patch['require_approval'];
    delete patch['require_approval'];
    const message = refusalAgainst(spec, realManifest);
    expect(message).toMatch(
      /tools\.yaml:\d+: update_repository: calls\[0\]\.body\.require_approval: the request body of PATCH \/repos\/\{repo_id\} has no field require_approval/,
    );
  });

  it('fails through `npm run generate` too, writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-drill-'));
    scratch.push(dir);
    const spec = JSON.parse(readFileSync(realSpec, 'utf8')) as Json;
    delete spec['components']['schemas']['RepoPatch']['properties']['visibility'];
    const specPath = join(dir, 'woodpecker-openapi.json');
    writeFileSync(specPath, JSON.stringify(spec));
    await expect(generate({ manifestPath: realManifest, specPath })).rejects.toThrow(
      /update_repository: calls\[0\]\.body\.visibility/,
    );
  });
});
