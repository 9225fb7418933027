// Splits a JSON array arriving in pieces into its elements, each parsed on its own as soon
// as it is complete, so a 25 MB log is never one string or one parsed array in memory.
// It tracks strings (with their escapes) and nesting only; what it cuts out is handed to
// JSON.parse, which still decides what is valid JSON.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export class JsonArrayElements {
  /** Text of the element under way (from its first character), or '' between elements. */
  private pending = '';
  private depth = 0;
  private inString = false;

  constructor(private readonly onElement: (element: unknown) => boolean | void) {}

  /** Feeds the next piece of text; false when onElement asked to stop. */
  push(text: string): boolean {
    const buffer = this.pending + text;
    // Where the current element starts in `buffer`, -1 between elements.
    let start = this.pending.length > 0 ? 0 : -1;
    let index = this.pending.length;
    while (index < buffer.length) {
      if (this.inString) {
        // Jump to the next quote; it ends the string unless an odd run of backslashes escapes it.
        const quote = buffer.indexOf('"', index);
        if (quote === -1) {
          index = buffer.length;
          break;
        }
        let backslashes = 0;
        for (
          let before = quote - 1;
          before >= 0 && buffer.charCodeAt(before) === BACKSLASH;
          before--
        )
          backslashes++;
        index = quote + 1;
        if (backslashes % 2 === 0) this.inString = false;
        continue;
      }
      const code = buffer.charCodeAt(index);
      if (code === OPEN_BRACE && this.depth === 1) {
        // Fast path for a flat object (every log entry): try up to the next "}". If that
        // brace is inside a string or closes a nested object, the slice is not valid JSON
        // and the object is scanned character by character instead; if it parses, that
        // brace is where the object ends.
        const close = buffer.indexOf('}', index);
        const element =
          close === -1 ? undefined : parsedOrUndefined(buffer.slice(index, close + 1));
        if (element !== undefined) {
          index = close + 1;
          if (this.onElement(element) === false) {
            this.pending = '';
            return false;
          }
          continue;
        }
      }
      if (code === QUOTE) this.inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.depth++;
        if (this.depth === 2) start = index;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth--;
        if (this.depth === 1 && start !== -1) {
          const element = JSON.parse(buffer.slice(start, index + 1)) as unknown;
          start = -1;
          if (this.onElement(element) === false) {
            this.pending = '';
            return false;
          }
        }
      }
      index++;
    }
    this.pending = start === -1 ? '' : buffer.slice(start);
    return true;
  }

  /** Whether the text so far ended where a JSON value may end (not inside the array). */
  get complete(): boolean {
    return this.depth === 0 && !this.inString && this.pending === '';
  }
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
