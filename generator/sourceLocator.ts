// Maps a path inside the parsed YAML (tools → 3 → guard → dialog) back to a line of
// tools.yaml, so every refusal can say where to look. Where the exact node does not
// exist (a missing field) the line of the nearest existing parent is used.
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export class SourceLocator {
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  lineOf(segments: readonly (string | number)[]): number {
    let node: unknown = this.doc.contents;
    let offset = rangeStart(node) ?? 0;
    for (const segment of segments) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (!pair) break;
        offset = rangeStart(pair.key) ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment];
        if (item === undefined) break;
        offset = rangeStart(item) ?? offset;
        node = item;
      } else {
        break;
      }
    }
    return this.lines.linePos(offset).line;
  }

  /** Line of a field of the tool at `index` in `tools`. */
  toolLine(index: number, segments: readonly (string | number)[] = []): number {
    return this.lineOf(['tools', index, ...segments]);
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}
