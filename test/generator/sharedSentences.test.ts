// Shared sentences: declared once under `sentences:`, written by the generator into every
// description that names them and into every guarded tool; a misspelt name is refused
// with its line, so no description ships with a raw `{{...}}` in it.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { ManifestError } from '../../generator/manifestError.js';
import { buildModel } from '../../generator/model.js';
import { expandSentences } from '../../generator/manifest/sharedSentences.js';
import { bend, lineOf, manifest, manifestFile, readTool, writeTool } from './manifestText.js';

const SENTENCES = `sentences:
  thing_id: 'Thing id (list_things).'
  confirm_token: 'Send back the confirm_token of the first call.'
  asks_a_person: 'Asks a person first: {when}.'
details:
  update_thing: 'Longer words for people.'
`;

function modelOf(text: string) {
  const loaded = expandSentences({ ...parseManifest(text, 'tools.yaml'), file: manifestFile });
  return buildModel(loaded.manifest, new Map());
}

describe('shared sentences', () => {
  const text =
    SENTENCES +
    manifest(
      readTool,
      bend(
        writeTool,
        'thing_id: { type: integer, description: Id., required: true }',
        "thing_id: { type: integer, description: '{{thing_id}} Required.', required: true }",
      ),
    );

  it('replaces {{name}} in parameter descriptions, in the schema a client sees', () => {
    const update = modelOf(text).find((tool) => tool.name === 'update_thing')!;
    const schema = update.inputSchema as { properties: Record<string, { description: string }> };
    expect(schema.properties['thing_id']!.description).toBe('Thing id (list_things). Required.');
  });

  it('ends every guarded tool with the asking sentence and its condition, and words confirm_token once', () => {
    const [get, update] = modelOf(text);
    expect(update!.description).toBe(
      'Changes a thing. Asks a person first: only when it grants open or sets mode to loose.',
    );
    expect(update!.params.find((param) => param.name === 'confirm_token')!.description).toBe(
      'Send back the confirm_token of the first call.',
    );
    expect(get!.description).toBe('Returns a thing.');
    // Details are for docs/tools.md only: never part of the description a client lists.
    expect(update!.details).toBe('Longer words for people.');
  });

  it('refuses a sentence that is not declared, naming the tool, the field and the line', () => {
    const misspelt = bend(text, '{{thing_id}}', '{{thing_idd}}');
    let error: unknown;
    try {
      modelOf(misspelt);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as Error).message).toContain(
      `tools.yaml:${lineOf(misspelt, 'thing_idd')}: update_thing: params.thing_id.description: names the sentence "thing_idd", which is not declared`,
    );
  });
});
