// Where a YAML file went wrong, said the same way for tools.yaml (the generator) and the
// operator's policy file (the runtime): the line of a path inside the document, the
// syntax errors with their line and column, and a field path as people write it. Only
// types come from `yaml` here; the runtime loads that package lazily, so the caller
// hands over its node tests.
import type { Document, LineCounter, isMap, isScalar, isSeq } from 'yaml';

/** The yaml package's node tests (`import * as yaml` or the runtime's lazy module). */
export interface YamlNodeTests {
  readonly isMap: typeof isMap;
  readonly isScalar: typeof isScalar;
  readonly isSeq: typeof isSeq;
}

/** The line of the deepest node on the path that exists (a missing key: its parent's). */
export function lineOfPath(
  yaml: YamlNodeTests,
  doc: Document,
  lines: LineCounter,
  segments: readonly (string | number)[],
): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const segment of segments) {
    if (yaml.isMap(node)) {
      const pair = node.items.find(
        (item) => yaml.isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (!pair) break;
      offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (yaml.isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      offset = rangeStart(item) ?? offset;
      node = item;
    } else break;
  }
  return lines.linePos(offset).line;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/**
 * Each syntax error of a parsed document as a line and a sentence with the column, the
 * parser's first line (parse with `prettyErrors: false`: no quoted source, which in a
 * policy file could be anything) and its code.
 */
export function yamlSyntaxProblems(
  doc: Document,
  lines: LineCounter,
): { readonly line: number; readonly message: string }[] {
  return doc.errors.map((error) => {
    const { line, col } = lines.linePos(error.pos[0]);
    const said = error.message.split('\n')[0] ?? '';
    return {
      line,
      message: `not valid YAML at column ${col}: ${said} (${error.code}); fix the YAML syntax`,
    };
  });
}

/** Field paths as people write them: rules[0].limit.window; '' for the document itself. */
export function fieldPath(segments: readonly (string | number)[]): string {
  return segments
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}
