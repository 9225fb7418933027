// Audit targets are decided by the generator: a guarded write's guard targets, an
// unguarded write's object-naming parameters, never a secret one; none for a read.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { buildModel } from '../../generator/model.js';
import { bend, manifest, manifestFile, readTool, writeTool } from './manifestText.js';

function auditTargetsOf(text: string, name: string): readonly string[] {
  const loaded = { ...parseManifest(text, 'tools.yaml'), file: manifestFile };
  return buildModel(loaded.manifest, new Map()).find((tool) => tool.name === name)!.auditTargets;
}

const GUARD = writeTool.slice(
  writeTool.indexOf('    guard:'),
  writeTool.indexOf('    admin_only:'),
);
const unguarded = bend(
  bend(writeTool, GUARD, '    guard: never\n'),
  '      note: { type: string, description: Free text. }',
  '      note: { type: string, description: Free text. }\n      api_id: { type: string, description: A key., secret: true }\n      shelf_id: { type: integer, description: Shelf. }',
);

describe('audit targets', () => {
  it("are a guarded write's guard targets", () => {
    expect(auditTargetsOf(manifest(readTool, writeTool), 'update_thing')).toEqual(['thing_id']);
  });

  it("are an unguarded write's object-naming parameters, never a secret one", () => {
    expect(auditTargetsOf(manifest(readTool, unguarded), 'update_thing')).toEqual([
      'thing_id',
      'shelf_id',
    ]);
  });

  it('are none for a read-only tool', () => {
    expect(auditTargetsOf(manifest(readTool, writeTool), 'get_thing')).toEqual([]);
  });
});
