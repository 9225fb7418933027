// WOODPECKER_MCP_MAX_RESULT_BYTES: one limit on the whole serialized result, text block
// and structuredContent together. A list loses whole entries from its far end and says
// how many and how to ask for less; anything else that is too big is refused, because
// half an object reads as a whole one. The text block is the JSON of structuredContent,
// never cut, so it always parses. It carries no indentation: a model pays for every space.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolAnswer } from './answer.js';
import { errorResult } from '../core/errors.js';
import type { ToolDefinition } from '../core/tool.js';

export const DEFAULT_MAX_RESULT_BYTES = 100_000;

export function resultOf(given: Record<string, unknown>): CallToolResult {
  // A field set to undefined (a log answer's line_numbers when its lines are consecutive)
  // is no field: the text block would not show it, so structuredContent does not either.
  const data = Object.values(given).includes(undefined)
    ? Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined))
    : given;
  return {
    content: [{ type: 'text', text: JSON.stringify(data) }],
    structuredContent: data,
  };
}

/** Bytes of the result as it goes over the wire (UTF-8 JSON). */
export function resultBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result), 'utf8');
}

export function fitToLimit(
  tool: ToolDefinition,
  answer: ToolAnswer,
  maxBytes: number,
): CallToolResult {
  const whole = resultOf(answer.data);
  const size = resultBytes(whole);
  if (size <= maxBytes) return whole;
  const spec = answer.shortenable;
  const entries = spec ? answer.data[spec.field] : undefined;
  if (!spec || !Array.isArray(entries)) return tooLarge(tool, size, maxBytes, undefined);

  const shortened = (kept: number): CallToolResult => {
    const dropped = entries.length - kept;
    const [from, to] = spec.keep === 'start' ? [0, kept] : [dropped, entries.length];
    return resultOf({
      ...answer.data,
      ...spec.describe?.(from, to),
      [spec.field]: entries.slice(from, to),
      shortened: {
        dropped,
        kept,
        max_result_bytes: maxBytes,
        note: `${dropped} of ${entries.length} entries of ${spec.field} were left out (from the ${spec.keep === 'start' ? 'end' : 'start'}) to keep this answer under ${maxBytes} bytes (WOODPECKER_MCP_MAX_RESULT_BYTES). To see them, ask for ${spec.narrow}.`,
      },
    });
  };

  // Each entry appears twice (structuredContent and the text block), so twice the sum
  // of the kept entries' sizes is a lower bound on the result: that bounds the search.
  const inOrder = spec.keep === 'start' ? entries : [...entries].reverse();
  let upper = 0;
  for (let used = 0; upper < inOrder.length; upper++) {
    used += 2 * Buffer.byteLength(JSON.stringify(inOrder[upper]) ?? 'null', 'utf8');
    if (used > maxBytes) break;
  }
  // An empty page with a note would look like the end of the data: keep at least one.
  let lower = 1;
  let best: CallToolResult | undefined;
  while (lower <= upper) {
    const middle = Math.floor((lower + upper) / 2);
    const candidate = shortened(middle);
    if (resultBytes(candidate) <= maxBytes) {
      best = candidate;
      lower = middle + 1;
    } else upper = middle - 1;
  }
  return best ?? tooLarge(tool, size, maxBytes, spec.narrow);
}

function tooLarge(
  tool: ToolDefinition,
  size: number,
  maxBytes: number,
  narrow: string | undefined,
): CallToolResult {
  return errorResult(
    `${tool.name}: the answer is ${size} bytes, more than this server's limit of ${maxBytes} bytes (WOODPECKER_MCP_MAX_RESULT_BYTES). ` +
      (narrow
        ? `Not even one entry fits; ask for ${narrow}, `
        : 'It is a single object, so it is refused rather than cut in the middle; ask for a smaller part if the tool can, ') +
      'or have the operator raise WOODPECKER_MCP_MAX_RESULT_BYTES.',
  );
}
