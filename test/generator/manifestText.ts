// Builds small manifests for the refusal tests: a valid tool whose YAML a test then
// bends in exactly one place, the line number of a marker in the result, and the
// schema's refusal of it.
import { join } from 'node:path';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { ManifestError } from '../../generator/manifestError.js';
import { goldenDir } from './fixturePaths.js';

/** Manifests are "read" from the golden fixture dir, so its runtime/handlers/ exists. */
export const manifestFile = join(goldenDir, 'tools.yaml');

export const readTool = `
  - name: get_thing
    title: Get a thing
    group: repositories
    annotations:
      readOnlyHint: true
      destructiveHint: false
      idempotentHint: true
      openWorldHint: false
    guard: never
    admin_only: false
    essential: false
    output: { kind: object, redact: [], reveal: [], untrusted: false }
    description: Returns a thing.
    params:
      thing_id: { type: integer, description: Id., required: true }
    calls:
      - method: GET
        path: /things/{thing_id}
        path_params: { thing_id: thing_id }
`;

export const writeTool = `
  - name: update_thing
    title: Change a thing
    group: repositories
    annotations:
      readOnlyHint: false
      destructiveHint: true
      idempotentHint: true
      openWorldHint: false
    guard:
      read: get_thing
      when:
        any:
          - grants: { param: open, current: open }
          - becomes: { param: mode, value: loose, current: mode }
      targets: [thing_id]
      bind_body: true
      dialog: This will change thing {thing_id} to mode {mode}.
    admin_only: false
    essential: false
    output: { kind: object, redact: [], reveal: [], untrusted: false }
    description: Changes a thing.
    params:
      thing_id: { type: integer, description: Id., required: true }
      note: { type: string, description: Free text. }
      mode: { type: string, description: A mode., enum: [strict, loose] }
      open: { type: boolean, description: A flag. }
    calls:
      - method: PATCH
        path: /things/{thing_id}
        path_params: { thing_id: thing_id }
        body: { note: note, mode: mode, open: open }
`;

export function manifest(...tools: string[]): string {
  return `tools:${tools.join('')}`;
}

/** Replaces exactly one occurrence (the test fails loudly if the anchor is gone). */
export function bend(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0)
    throw new Error(`anchor not found exactly once: ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** 1-based line of the first line containing `marker`. */
export function lineOf(text: string, marker: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(marker));
  if (index < 0) throw new Error(`marker not found: ${marker}`);
  return index + 1;
}

/** The schema's refusal of a manifest text (the message, with its line); throws if it was accepted. */
export function refusalOf(text: string): string {
  try {
    parseManifest(text, 'tools.yaml');
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
  throw new Error('the manifest was accepted');
}
