// Stage 2d: Body values taken from the object as it is now (tools.yaml `current:` on a call, and
// `or_current`/`current` body values): each dotted path must be a field of the answer of
// the read that supplies it, so a field Woodpecker renames fails generation instead of
// silently sending nothing (and letting the PATCH blank the stored value).
import type { LoadedManifest } from '../manifest/loadManifest.js';
import { ManifestError, fieldPath, type Problem } from '../manifestError.js';
import { okAnswerSchema, schemaAtPath, type OpenApiDocument } from './specCheck.js';

export function checkCurrentValues(
  loaded: LoadedManifest,
  spec: OpenApiDocument,
  specName: string,
): void {
  const { manifest, locator } = loaded;
  const byName = new Map(manifest.tools.map((tool) => [tool.name, tool] as const));
  const problems: Problem[] = [];
  manifest.tools.forEach((tool, index) => {
    (tool.calls ?? []).forEach((call, c) => {
      const readCall =
        call.current === undefined ? undefined : byName.get(call.current)?.calls?.[0];
      if (!readCall) return; // an unknown read is the manifest rules' refusal
      const answer = okAnswerSchema(spec, readCall);
      for (const [field, source] of Object.entries(call.body ?? {})) {
        if (typeof source === 'string' || 'const' in source) continue;
        const path = 'or_current' in source ? source.or_current : source.current;
        if (answer && schemaAtPath(spec, answer, path.split('.'))) continue;
        const segments = ['calls', c, 'body', field];
        problems.push({
          line: locator.toolLine(index, segments),
          tool: tool.name,
          field: fieldPath(segments),
          message: `takes ${path} from ${call.current}, whose answer (${readCall.method} ${readCall.path} in ${specName}) has no such field; use the spec's name`,
        });
      }
    });
  });
  if (problems.length > 0) throw new ManifestError(loaded.file, problems);
}
