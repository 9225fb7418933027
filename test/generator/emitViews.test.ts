// Named views are written once (generated/views.ts) and referred to by name: by a tool's
// output, by a view that nests another, and by an inline view that nests a named one.
import { describe, expect, it } from 'vitest';
import { valueText, viewNames, viewsReferenced } from '../../generator/emit/emitViews.js';
import type { Manifest, ManifestTool } from '../../generator/manifest/manifestTypes.js';
import type { ToolModel } from '../../generator/model.js';
import { compileViews } from '../../generator/spec/views.js';

const views = {
  row: ['id', { started: 'time' }, { owner: 'person' }],
  person: ['login'],
  unused: ['id'],
  loop: ['id', { again: 'loop' }],
};
const manifest = { views } as unknown as Manifest;
const toolWith = (view: ManifestTool['output']['view']) =>
  ({ output: { view } }) as unknown as ManifestTool;

function namesFor(...toolViews: ManifestTool['output']['view'][]) {
  const compiled = compileViews(manifest);
  const models = toolViews.map(
    (view) => ({ output: { view: compiled.toolView(toolWith(view)) } }) as unknown as ToolModel,
  );
  return { compiled, models, names: viewNames(compiled, models) };
}

describe('named views written once', () => {
  it('compiles a named view to one object that every user shares', () => {
    const compiled = compileViews(manifest);
    const row = compiled.named.get('row')!;
    expect(compiled.toolView(toolWith('row'))).toBe(row);
    expect(row[2]).toEqual({ name: 'owner', show: 'view', view: compiled.named.get('person') });
    expect(compiled.toolView(toolWith([{ who: 'person' }]))![0]).toMatchObject({
      view: compiled.named.get('person'),
    });
  });

  it('stops a view that names itself instead of recursing forever', () => {
    const loop = compileViews(manifest).named.get('loop')!;
    expect(loop[1]).toMatchObject({ name: 'again', show: 'view' });
  });

  it('lists only the views tools use, a nested view before the view that nests it', () => {
    const { names } = namesFor('row');
    expect([...names.values()]).toEqual(['personView', 'rowView']);
  });

  it('writes a tool output with the constant in place of the fields', () => {
    const { models, names } = namesFor('row');
    expect(valueText(models[0]!.output, names)).toBe('{"view": rowView}');
    expect(viewsReferenced(models[0]!.output.view, names)).toEqual(['rowView']);
  });

  it('writes an inline view in full but a named view it nests by name', () => {
    const { models, names } = namesFor(['id', { who: 'person' }]);
    expect(valueText(models[0]!.output.view, names)).toBe(
      '[{"name": "id", "show": "copy"}, {"name": "who", "show": "view", "view": personView}]',
    );
    expect(viewsReferenced(models[0]!.output.view, names)).toEqual(['personView']);
  });
});
