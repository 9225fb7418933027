// Stage 1: Maps a path inside the parsed YAML (tools → 3 → guard → dialog) back to a line of
// tools.yaml, so every refusal can say where to look. Where the exact node does not
// exist (a missing field) the line of the nearest existing parent is used.
import { isMap, isScalar, isSeq, type Document, type LineCounter } from 'yaml';
import { lineOfPath } from '../../runtime/core/yamlPlaces.js';

export class SourceLocator {
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  lineOf(segments: readonly (string | number)[]): number {
    return lineOfPath({ isMap, isScalar, isSeq }, this.doc, this.lines, segments);
  }

  /** Line of a field of the tool at `index` in `tools`. */
  toolLine(index: number, segments: readonly (string | number)[] = []): number {
    return this.lineOf(['tools', index, ...segments]);
  }
}
