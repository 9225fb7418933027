// The view check: a view field the answer's schema does not have is refused, naming the
// tool and the field, as a renamed or dropped field of an upgrade would be.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../generator/manifest/loadManifest.js';
import { ManifestError } from '../../generator/manifestError.js';
import type { OpenApiDocument } from '../../generator/spec/specCheck.js';
import { checkViews, compileViews } from '../../generator/spec/views.js';
import { goldenManifest, goldenSpec } from './fixturePaths.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const spec = (): Json => JSON.parse(readFileSync(goldenSpec, 'utf8')) as Json;
const manifestText = readFileSync(goldenManifest, 'utf8');
const viewLine = manifestText.split('\n').findIndex((line) => line.includes('view: widget')) + 1;

function refusalOf(bent: Json): string {
  try {
    checkViews(loadManifest(goldenManifest), bent as OpenApiDocument, 'woodpecker-openapi.json');
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
  throw new Error('the view check passed');
}

describe('view check', () => {
  it('passes on the fixture and inlines named views for the runtime', () => {
    const loaded = loadManifest(goldenManifest);
    expect(() => checkViews(loaded, spec() as OpenApiDocument, 'spec')).not.toThrow();
    const tool = loaded.manifest.tools.find((t) => t.name === 'get_widget')!;
    expect(compileViews(loaded.manifest).toolView(tool)).toEqual([
      { name: 'id', show: 'copy' },
      { name: 'label', show: 'copy' },
      { name: 'visibility', show: 'copy' },
      { name: 'trusted', show: 'view', view: [{ name: 'network', show: 'copy' }] },
    ]);
  });

  it('refuses a field the answer no longer has, naming tool and field', () => {
    const bent = spec();
    const widget = bent['components']['schemas']['Widget']['properties'];
    widget['title'] = widget['label'];
    delete widget['label'];
    expect(refusalOf(bent)).toContain(
      `tools.yaml:${viewLine}: get_widget: output.view: label: is not a field of this answer; it was renamed or removed, use the spec's name or drop it from the view (the answer of GET /widgets/{widget_id} in woodpecker-openapi.json)`,
    );
  });

  it('refuses a field of a nested view by its path', () => {
    const bent = spec();
    delete bent['components']['schemas']['Trust']['properties']['network'];
    expect(refusalOf(bent)).toContain(
      'get_widget: output.view: trusted.network: is not a field of this answer',
    );
  });

  it('compiles a default (`absent_means`) and refuses one of another type than the field', () => {
    const loaded = loadManifest(goldenManifest);
    const tool = loaded.manifest.tools.find((t) => t.name === 'get_widget')!;
    (tool.output as { view?: unknown }).view = ['id', { visibility: { absent_means: 'private' } }];
    expect(() => checkViews(loaded, spec() as OpenApiDocument, 'spec')).not.toThrow();
    expect(compileViews(loaded.manifest).toolView(tool)).toEqual([
      { name: 'id', show: 'copy' },
      { name: 'visibility', show: 'unless', absentMeans: 'private' },
    ]);
    (tool.output as { view?: unknown }).view = [{ id: { absent_means: true } }];
    let message = '';
    try {
      checkViews(loaded, spec() as OpenApiDocument, 'woodpecker-openapi.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'get_widget: output.view: id: is left out when it is true, but it is integer; give a value of its type',
    );
  });

  it('refuses a time that is not integer seconds', () => {
    const bent = spec();
    bent['components']['schemas']['Widget']['properties']['label'] = { type: 'integer' };
    bent['components']['schemas']['Widget']['properties']['visibility'] = { type: 'string' };
    const loaded = loadManifest(goldenManifest);
    const tool = loaded.manifest.tools.find((t) => t.name === 'get_widget')!;
    (tool.output as { view?: unknown }).view = [{ visibility: 'time' }];
    let message = '';
    try {
      checkViews(loaded, bent as OpenApiDocument, 'woodpecker-openapi.json');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'get_widget: output.view: visibility: is shown as a time, but it is string, not integer Unix seconds',
    );
  });

  /** The check's message for a view of get_widget on a spec with these Widget fields. */
  function checked(view: unknown, fields: Json): string {
    const bent = spec();
    Object.assign(bent['components']['schemas']['Widget']['properties'], fields);
    const loaded = loadManifest(goldenManifest);
    const tool = loaded.manifest.tools.find((t) => t.name === 'get_widget')!;
    (tool.output as { view?: unknown }).view = view;
    try {
      checkViews(loaded, bent as OpenApiDocument, 'woodpecker-openapi.json');
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  }

  it('compiles a time left out when it equals another, and refuses a partner that is no time', () => {
    const times = { created: { type: 'integer' }, started: { type: 'integer' } };
    const view = [{ created: { time_unless_same_as: 'started' } }, { started: 'time' }];
    expect(checked(view, times)).toBe('');
    const loaded = loadManifest(goldenManifest);
    const tool = loaded.manifest.tools.find((t) => t.name === 'get_widget')!;
    (tool.output as { view?: unknown }).view = view;
    expect(compileViews(loaded.manifest).toolView(tool)).toEqual([
      { name: 'created', show: 'time', unlessSameAs: 'started' },
      { name: 'started', show: 'time' },
    ]);
    expect(checked([{ created: { time_unless_same_as: 'begun' } }], times)).toContain(
      'get_widget: output.view: created: is left out when it equals begun, which is not an integer time of this answer; name a field of it',
    );
    expect(
      checked([{ created: { time_unless_same_as: 'label' } }], {
        ...times,
        label: { type: 'string' },
      }),
    ).toContain('created: is left out when it equals label, which is not an integer time');
  });

  it('compiles a map without named keys, and refuses it on a field that is no map', () => {
    const view = ['id', { labels: { without_keys: ['internal/a', 'internal/b'] } }];
    expect(checked(view, { labels: { type: 'object' } })).toBe('');
    const loaded = loadManifest(goldenManifest);
    const tool = loaded.manifest.tools.find((t) => t.name === 'get_widget')!;
    (tool.output as { view?: unknown }).view = view;
    expect(compileViews(loaded.manifest).toolView(tool)).toEqual([
      { name: 'id', show: 'copy' },
      { name: 'labels', show: 'without', keys: ['internal/a', 'internal/b'] },
    ]);
    expect(checked(view, { labels: { type: 'string' } })).toContain(
      'get_widget: output.view: labels: leaves out the keys internal/a, internal/b, but it is string, not a map',
    );
  });

  it('refuses a default that names in braces a field that is not a string', () => {
    const fields = { label: { type: 'string' }, id: { type: 'integer' } };
    expect(checked([{ label: { absent_means: 'refs/{label}' } }], fields)).toBe('');
    expect(checked([{ label: { absent_means: 'refs/{id}' } }], fields)).toContain(
      'get_widget: output.view: label: is left out when it is "refs/{id}", but {id} is not a string field of this answer',
    );
    expect(checked([{ label: { absent_means: 'refs/{nope}' } }], fields)).toContain(
      'but {nope} is not a string field of this answer',
    );
  });
});
