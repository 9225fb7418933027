// A unified diff of two small texts (pipeline config files), bounded in both the work it
// does and the text it returns. Line-based longest common subsequence: config files are
// short, and past MAX_LINES a side the diff is not computed at all (said, not guessed).

/** Lines per side the diff is computed for; beyond it the table would grow too large. */
const MAX_LINES = 2_000;
const CONTEXT = 3;

export interface TextDiff {
  /** The unified diff (without ---/+++ headers), cut at the caller's character bound. */
  readonly diff: string;
  readonly added: number;
  readonly removed: number;
  /** True when the diff text was cut at maxChars or the files were too long to compare. */
  readonly truncated: boolean;
}

type Edit = { readonly kind: ' ' | '-' | '+'; readonly text: string; a: number; b: number };

export function unifiedDiff(before: string, after: string, maxChars: number): TextDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length > MAX_LINES || b.length > MAX_LINES) {
    return {
      diff: `(not compared: more than ${MAX_LINES} lines)`,
      added: 0,
      removed: 0,
      truncated: true,
    };
  }
  const edits = editsOf(a, b);
  const added = edits.filter((edit) => edit.kind === '+').length;
  const removed = edits.filter((edit) => edit.kind === '-').length;
  let text = '';
  let truncated = false;
  for (const hunk of hunksOf(edits)) {
    if (text.length + hunk.length > maxChars) {
      text += hunk.slice(0, Math.max(0, maxChars - text.length));
      truncated = true;
      break;
    }
    text += hunk;
  }
  return { diff: text.replace(/\n$/, ''), added, removed, truncated };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

function editsOf(a: string[], b: string[]): Edit[] {
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ kind: ' ', text: a[i]!, a: i++, b: j++ });
    } else if (
      i < a.length &&
      (j >= b.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)
    ) {
      // Removals before additions, as diff(1) writes them.
      edits.push({ kind: '-', text: a[i]!, a: i++, b: j });
    } else {
      edits.push({ kind: '+', text: b[j]!, a: i, b: j++ });
    }
  }
  return edits;
}

/** Groups changes with CONTEXT lines around them into "@@ -a,n +b,m @@" hunks. */
function hunksOf(edits: Edit[]): string[] {
  const hunks: string[] = [];
  let index = 0;
  while (index < edits.length) {
    const firstChange = edits.findIndex((edit, at) => at >= index && edit.kind !== ' ');
    if (firstChange < 0) break;
    const start = Math.max(index, firstChange - CONTEXT);
    let end = firstChange;
    // Extend while the next change is within 2 * CONTEXT unchanged lines.
    for (let at = firstChange; at < edits.length; at++) {
      if (edits[at]!.kind !== ' ') end = at;
      else if (at - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(edits.length, end + CONTEXT + 1);
    const slice = edits.slice(start, stop);
    const oldCount = slice.filter((edit) => edit.kind !== '+').length;
    const newCount = slice.filter((edit) => edit.kind !== '-').length;
    const first = slice[0]!;
    const header = `@@ -${first.a + (oldCount ? 1 : 0)},${oldCount} +${first.b + (newCount ? 1 : 0)},${newCount} @@\n`;
    hunks.push(header + slice.map((edit) => `${edit.kind}${edit.text}\n`).join(''));
    index = stop;
  }
  return hunks;
}
