// A pipeline config as Woodpecker reads it, with the place of every value in the text.
// Woodpecker's YAML reader merges maps (`<<: *base`) and, beyond YAML 1.1, sequences too
// (`- <<: *base-cmds` splices the aliased list in place), so the `yaml` package's own
// toJS (maps only) is not enough: the tree is converted here, node by node, with a bound
// on what aliases may expand to (a few lines can otherwise stand for billions of values).
import type { Document, Node as YamlNode, Pair } from 'yaml';
import { lazyModule } from '../core/lazyModule.js';

const yamlModule = lazyModule<typeof import('yaml')>('yaml');

/** Values an alias-heavy file may expand to before it is refused. */
export const MAX_EXPANDED_VALUES = 100_000;
/** Nesting deeper than this is no pipeline; refused instead of recursing further. */
const MAX_DEPTH = 200;

export interface Place {
  readonly line: number;
  readonly column: number;
}

export interface SyntaxFinding extends Place {
  readonly message: string;
}

export interface YamlTree {
  /** The document as plain data (undefined when it did not parse). */
  readonly value: unknown;
  /** Syntax errors and refusals (too many expanded aliases, too deep), with their places. */
  readonly syntax: readonly SyntaxFinding[];
  /** Syntax slips Woodpecker reads past (a stray closing bracket after the document). */
  readonly ignored: readonly SyntaxFinding[];
  /** Where the value at this path is written (`key`: its key instead); its parent's place when it is missing. */
  placeOf(segments: readonly (string | number)[], key?: boolean): Place;
  /** The line and column of a character of the text. */
  placeAtOffset(offset: number): Place;
}

class TreeLimit extends Error {}

export function parseYamlTree(text: string): YamlTree {
  const yaml = yamlModule();
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    merge: false,
    // The library compares each key with every earlier one of its map: a 190 KB file of
    // keys took 5 s. duplicateKeys below finds them in one pass.
    uniqueKeys: false,
  });
  const placeAt = (offset: number): Place => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const syntax: SyntaxFinding[] = [];
  const ignored: SyntaxFinding[] = [];
  const contentEnd = rangeStart(doc.contents, 1) ?? 0;
  for (const error of doc.errors) {
    const said = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+.*$/, '');
    // A stray `}` or `]` after the document's last collection: Woodpecker's YAML reader
    // stops at the end of the document and never sees it (its own linter tests have one).
    if (
      error.code === 'UNEXPECTED_TOKEN' &&
      /flow-(map|seq)-end/.test(error.message) &&
      error.pos[0] >= contentEnd
    )
      ignored.push({ ...placeAt(error.pos[0]), message: `ignored by Woodpecker: ${said}` });
    else if (error.code === 'MULTIPLE_DOCS') {
      // Said in our words: the library's own text advises its callers which function to use.
      const place = placeAt(error.pos[0]);
      syntax.push({
        ...place,
        message: `a workflow file holds one YAML document, and a second one starts at line ${place.line}, column ${place.column} (\`---\`): put each workflow in a file of its own under .woodpecker/`,
      });
    } else syntax.push({ ...placeAt(error.pos[0]), message: `not valid YAML: ${said}` });
  }
  for (const offset of duplicateKeys(yaml, doc))
    syntax.push({ ...placeAt(offset), message: 'not valid YAML: Map keys must be unique' });
  const reader = new TreeReader(yaml, doc);
  let value: unknown;
  if (syntax.length === 0) {
    try {
      value = reader.toData(doc.contents, 0);
    } catch (error) {
      if (!(error instanceof TreeLimit)) throw error;
      syntax.push({ ...placeAt(0), message: error.message });
    }
  }
  return {
    value,
    syntax,
    ignored,
    placeOf(segments, key = false) {
      const found = reader.find(doc.contents, segments);
      const node = key && found.key !== undefined ? found.key : found.node;
      return placeAt(rangeStart(node) ?? 0);
    },
    placeAtOffset: placeAt,
  };
}

type Yaml = typeof import('yaml');

class TreeReader {
  private expanded = 0;
  /** Each alias and the node it names, found in one pass (see aliasTargets). */
  private readonly targets: Map<unknown, unknown>;

  constructor(
    private readonly yaml: Yaml,
    doc: Document,
  ) {
    this.targets = aliasTargets(yaml, doc);
  }

  /** An alias as the node it names (a dangling alias: null, which the parser already reported). */
  private target(node: unknown): unknown {
    let at = node;
    for (let hops = 0; this.yaml.isAlias(at) && hops < 64; hops++)
      at = this.targets.get(at) ?? null;
    return at;
  }

  toData(node: unknown, depth: number): unknown {
    if (++this.expanded > MAX_EXPANDED_VALUES)
      throw new TreeLimit(
        `the file expands to more than ${MAX_EXPANDED_VALUES} values through its aliases; no pipeline needs that many`,
      );
    if (depth > MAX_DEPTH) throw new TreeLimit(`the file nests deeper than ${MAX_DEPTH} levels`);
    const at = this.target(node);
    if (this.yaml.isScalar(at)) return at.value ?? null;
    if (this.yaml.isSeq(at)) return this.items(at).map((item) => this.toData(item, depth + 1));
    if (this.yaml.isMap(at)) {
      const out: Record<string, unknown> = {};
      const set = (key: string, value: unknown) =>
        Object.defineProperty(out, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      // Merged keys first, so the map's own keys win over them, as YAML's merge says.
      for (const source of this.mergeSources(at.items))
        for (const [key, value] of Object.entries(this.toData(source, depth + 1) as object))
          if (!Object.hasOwn(out, key)) set(key, value);
      for (const pair of at.items) {
        if (this.isMergeKey(pair)) continue;
        set(this.keyOf(pair), this.toData(pair.value, depth + 1));
      }
      return out;
    }
    return null;
  }

  private keyOf(pair: Pair): string {
    const key = this.target(pair.key);
    return this.yaml.isScalar(key) ? String(key.value) : String(key);
  }

  private isMergeKey(pair: Pair): boolean {
    const key = pair.key;
    return this.yaml.isScalar(key) && key.value === '<<';
  }

  /** The maps a `<<` key merges in: one alias, or a list of them. */
  private mergeSources(items: readonly Pair[]): unknown[] {
    const sources: unknown[] = [];
    for (const pair of items) {
      if (!this.isMergeKey(pair)) continue;
      const value = this.target(pair.value);
      const each = this.yaml.isSeq(value) ? value.items.map((item) => this.target(item)) : [value];
      sources.push(...each.filter((source) => this.yaml.isMap(source)));
    }
    return sources;
  }

  /** A sequence's items with `- <<: *list` items replaced by the list's own items. */
  items(seq: { items: unknown[] }): unknown[] {
    const out: unknown[] = [];
    for (const item of seq.items) {
      const map = this.target(item);
      const merge =
        this.yaml.isMap(map) && map.items.length === 1 && this.isMergeKey(map.items[0]!)
          ? this.target(map.items[0]!.value)
          : undefined;
      if (this.yaml.isSeq(merge)) {
        // `- <<: *list` and `- <<: [*a, *b]` (a list of lists) both splice.
        const lists = merge.items.every((inner) => this.yaml.isSeq(this.target(inner)))
          ? merge.items.map((inner) => this.target(inner) as { items: unknown[] })
          : [merge];
        for (const list of lists) out.push(...list.items);
      } else out.push(item);
    }
    return out;
  }

  /** The deepest node on the path that exists, and the key it is written under. */
  find(root: unknown, segments: readonly (string | number)[]): { node: unknown; key?: unknown } {
    let node: unknown = root;
    let key: unknown;
    for (const segment of segments) {
      const at = this.target(node);
      let next: { node: unknown; key: unknown } | undefined;
      if (this.yaml.isMap(at)) next = this.findKey(at.items, String(segment), 0);
      else if (this.yaml.isSeq(at)) {
        const item = this.items(at)[Number(segment)];
        if (item !== undefined) next = { node: item, key: item };
      }
      if (next === undefined) return key === undefined ? { node } : { node, key };
      node = next.node;
      key = next.key;
    }
    return key === undefined ? { node } : { node, key };
  }

  private findKey(
    items: readonly Pair[],
    name: string,
    depth: number,
  ): { node: unknown; key: unknown } | undefined {
    for (const pair of items)
      if (!this.isMergeKey(pair) && this.keyOf(pair) === name)
        return { node: pair.value ?? pair.key, key: pair.key };
    if (depth > 16) return undefined;
    for (const source of this.mergeSources(items)) {
      const found = this.findKey((source as { items: Pair[] }).items, name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
}

/**
 * Every alias of the document and the node it names: the last node with that anchor before
 * it, in document order, as YAML says. The library's own Alias.resolve searches the whole
 * document each time it is called, so a tree read alias by alias cost the file's size for
 * every use: a 7 KB file of list merges held the event loop for 20 s (issue 34).
 */
function aliasTargets(yaml: Yaml, doc: Document): Map<unknown, unknown> {
  const anchors = new Map<string, unknown>();
  const targets = new Map<unknown, unknown>();
  yaml.visit(doc, {
    Node(_key, node) {
      if (yaml.isAlias(node)) targets.set(node, anchors.get(node.source) ?? null);
      else if (typeof node.anchor === 'string') anchors.set(node.anchor, node);
    },
  });
  return targets;
}

/** Where each key that repeats an earlier key of its map starts (scalar keys, by value and type). */
function duplicateKeys(yaml: Yaml, doc: Document): number[] {
  const offsets: number[] = [];
  yaml.visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!yaml.isScalar(pair.key)) continue;
        const name = `${typeof pair.key.value}:${String(pair.key.value)}`;
        if (seen.has(name)) offsets.push(rangeStart(pair.key) ?? 0);
        else seen.add(name);
      }
    },
  });
  return offsets;
}

/** Where a node starts (`end` 1: where its value ends). */
function rangeStart(node: unknown, end: 0 | 1 = 0): number | undefined {
  const range = (node as Partial<YamlNode> | null | undefined)?.range;
  return range ? range[end] : undefined;
}
