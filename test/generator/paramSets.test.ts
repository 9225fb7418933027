// Named parameter sets: declared once under `param_sets:`, a tool's `params_from` puts
// their parameters before its own, in the set's order; an unknown set or a parameter in
// both places is refused with its line.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { bend, lineOf, manifest, readTool, refusalOf } from './manifestText.js';

const SETS = `param_sets:
  place:
    shelf: { type: integer, description: Shelf., required: true }
    row: { type: integer, description: Row. }
`;

const withSet = bend(
  readTool,
  '    params:\n      thing_id',
  '    params_from: [place]\n    params:\n      thing_id',
);

describe('parameter sets', () => {
  it("puts a set's parameters first, in its order, then the tool's own", () => {
    const loaded = parseManifest(SETS + manifest(withSet), 'tools.yaml');
    const tool = loaded.manifest.tools[0]!;
    expect(Object.keys(tool.params)).toEqual(['shelf', 'row', 'thing_id']);
    expect(tool.params['shelf']).toEqual({
      type: 'integer',
      description: 'Shelf.',
      required: true,
    });
  });

  it('refuses a set that is not declared, at its line, naming the declared ones', () => {
    const text = SETS + manifest(bend(withSet, '[place]', '[plaec]'));
    const message = refusalOf(text);
    expect(message).toContain(`tools.yaml:${lineOf(text, '[plaec]')}`);
    expect(message).toContain('"plaec", which is not declared');
    expect(message).toContain('declared: place');
  });

  it('refuses a parameter declared by the tool and by its set', () => {
    const text =
      SETS +
      manifest(
        bend(
          withSet,
          '      thing_id:',
          '      row: { type: integer, description: R. }\n      thing_id:',
        ),
      );
    const message = refusalOf(text);
    expect(message).toContain(
      `tools.yaml:${lineOf(text, 'row: { type: integer, description: R. }')}`,
    );
    expect(message).toContain('params.row');
    expect(message).toContain('also declared by a set in params_from');
  });

  it('refuses params_from after params: policy order', () => {
    const text =
      SETS + manifest(bend(readTool, '    calls:', '    params_from: [place]\n    calls:'));
    expect(refusalOf(text)).toContain('params_from');
  });
});
