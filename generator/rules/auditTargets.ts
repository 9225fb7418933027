// Stage 1b (compiled in stage 3): Which arguments an audit line records as the object a write touches. A guarded tool
// names them in its guard's `targets`; an unguarded write takes the parameters that name
// an object by the catalogue's naming (ids, number, login, scope, to, name, address,
// level). A secret parameter is never one, whatever its name. Decided here, at build
// time and visible in each generated definition, so the audit log never guesses.
import type { ManifestTool } from '../manifest/manifestTypes.js';

const TARGET_NAME = /(_id|^number|^login|^scope|^to|^name|^address|^level)$/;

export function auditTargetsOf(tool: ManifestTool): string[] {
  if (tool.annotations.readOnlyHint) return [];
  const names =
    tool.guard === 'never'
      ? Object.keys(tool.params).filter((name) => TARGET_NAME.test(name))
      : tool.guard.targets;
  return names.filter((name) => tool.params[name]?.secret !== true);
}
