// Stage 1: Parameters several tools declare alike, written once under `param_sets:` in tools.yaml
// and named by a tool's `params_from: [set, …]`. The set's parameters come first, in the
// set's order, then the tool's own; a name in both is refused, so a tool never silently
// overrides a shared parameter. Expanded right after the schema check: every later stage
// (rules, spec check, model) sees a tool's full parameter list, as if written out.
import { fieldPath, type Problem } from '../manifestError.js';
import type { Manifest, ManifestParam } from './manifestTypes.js';
import type { SourceLocator } from './sourceLocator.js';

export function expandParamSets(
  manifest: Manifest,
  locator: SourceLocator,
): { manifest: Manifest; problems: Problem[] } {
  const sets = manifest.param_sets ?? {};
  const problems: Problem[] = [];
  const tools = manifest.tools.map((tool, index) => {
    if (tool.params_from === undefined) return tool;
    const params: Record<string, ManifestParam> = {};
    tool.params_from.forEach((setName, at) => {
      const set = sets[setName];
      if (set === undefined) {
        problems.push({
          line: locator.toolLine(index, ['params_from', at]),
          tool: tool.name,
          field: fieldPath(['params_from', at]),
          message: `names the parameter set "${setName}", which is not declared; add it under param_sets: or correct the spelling (declared: ${Object.keys(sets).join(', ') || 'none'})`,
        });
        return;
      }
      Object.assign(params, set);
    });
    for (const [name, param] of Object.entries(tool.params)) {
      if (name in params) {
        problems.push({
          line: locator.toolLine(index, ['params', name]),
          tool: tool.name,
          field: fieldPath(['params', name]),
          message: `is also declared by a set in params_from; remove it here or take the set out`,
        });
      }
      params[name] = param;
    }
    return { ...tool, params };
  });
  return { manifest: { ...manifest, tools }, problems };
}
