// A body value taken from the object as it is now names a field of the read's answer; a
// field the spec does not have is refused at generation, naming tool, field and line.
import { describe, expect, it } from 'vitest';
import { checkCurrentValues } from '../../generator/spec/currentValues.js';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { ManifestError } from '../../generator/manifestError.js';
import type { OpenApiDocument } from '../../generator/spec/specCheck.js';
import { bend, lineOf, manifest, manifestFile, readTool, writeTool } from './manifestText.js';

const spec: OpenApiDocument = {
  paths: {
    '/things/{thing_id}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    note: { type: 'string' },
                    limits: { type: 'object', properties: { open: { type: 'boolean' } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

function textFor(body: string): string {
  return manifest(
    readTool,
    bend(
      writeTool,
      'body: { note: note, mode: mode, open: open }',
      `body: ${body}\n        current: get_thing`,
    ),
  );
}

function check(text: string): void {
  checkCurrentValues(
    { ...parseManifest(text, 'tools.yaml'), file: manifestFile },
    spec,
    'spec.json',
  );
}

describe('values from the current object', () => {
  it('accepts fields and dotted paths the read answers with', () => {
    expect(() =>
      check(textFor('{ note: { param: note, or_current: note }, open: { current: limits.open } }')),
    ).not.toThrow();
  });

  it('refuses a field the read does not answer with, at its line', () => {
    const body = '{ note: { param: note, or_current: notes }, open: { current: limits.shut } }';
    const text = textFor(body);
    let thrown: unknown;
    try {
      check(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ManifestError);
    const message = (thrown as Error).message;
    expect(message).toMatch(/update_thing: calls\[0\]\.body\.note: takes notes from get_thing/);
    expect(message).toMatch(/calls\[0\]\.body\.open: takes limits\.shut from get_thing/);
    expect(message).toContain(`tools.yaml:${lineOf(text, 'body: {')}: update_thing`);
  });
});
