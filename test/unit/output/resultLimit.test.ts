// The result limit on its own: which end of a list survives, how bytes are counted, and
// when an answer is refused instead.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { fitToLimit, resultBytes } from '../../../runtime/output/resultLimit.js';
import type { ToolDefinition } from '../../../runtime/core/tool.js';

const tool = { name: 'some_tool' } as ToolDefinition;
const lines = Array.from({ length: 200 }, (_, index) => ({
  line: index,
  text: `line ${index} ${'z'.repeat(40)}`,
}));
const structured = (result: CallToolResult) =>
  result.structuredContent as {
    lines: { line: number }[];
    shortened?: { dropped: number; note: string };
  };

describe('fitToLimit', () => {
  it('returns an answer that fits unchanged, with the text block its whole JSON', () => {
    const result = fitToLimit(tool, { data: { lines: lines.slice(0, 2) } }, 100_000);
    expect(result.structuredContent).toEqual({ lines: lines.slice(0, 2) });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(
      result.structuredContent,
    );
  });

  it('a log tail keeps its last lines, the ones a failure is in', () => {
    const result = fitToLimit(
      tool,
      { data: { lines }, shortenable: { field: 'lines', keep: 'end', narrow: 'a smaller limit' } },
      4_000,
    );
    expect(resultBytes(result)).toBeLessThanOrEqual(4_000);
    const kept = structured(result).lines;
    expect(kept.at(-1)!.line).toBe(199);
    expect(kept[0]!.line).toBe(200 - kept.length);
    expect(structured(result).shortened!.dropped).toBe(200 - kept.length);
    expect(structured(result).shortened!.note).toMatch(/from the start.*a smaller limit/);
  });

  it('keeps as many entries as fit: one more would not', () => {
    const result = fitToLimit(
      tool,
      { data: { lines }, shortenable: { field: 'lines', keep: 'start', narrow: 'x' } },
      4_000,
    );
    const kept = structured(result).lines.length;
    const withOneMore = {
      ...(result.structuredContent as Record<string, unknown>),
      lines: lines.slice(0, kept + 1),
    } as Record<string, unknown>;
    const bigger: CallToolResult = {
      content: [{ type: 'text', text: JSON.stringify(withOneMore, null, 1) }],
      structuredContent: withOneMore,
    };
    expect(resultBytes(bigger)).toBeGreaterThan(4_000);
  });

  it('counts bytes, not characters (multi-byte text)', () => {
    const wide = Array.from({ length: 50 }, () => ({ text: 'ü'.repeat(100) }));
    const result = fitToLimit(
      tool,
      { data: { items: wide }, shortenable: { field: 'items', keep: 'start', narrow: 'x' } },
      5_000,
    );
    expect(Buffer.byteLength(JSON.stringify(result), 'utf8')).toBeLessThanOrEqual(5_000);
  });

  it('refuses an object too big, and a list whose first entry alone is too big', () => {
    const object = fitToLimit(tool, { data: { message: 'm'.repeat(10_000) } }, 2_000);
    expect(object.isError).toBe(true);
    expect((object.content[0] as { text: string }).text).toMatch(
      /^some_tool: the answer is \d+ bytes, more than this server's limit of 2000 bytes \(WOODPECKER_MCP_MAX_RESULT_BYTES\)\. It is a single object/,
    );
    const list = fitToLimit(
      tool,
      {
        data: { items: [{ big: 'b'.repeat(10_000) }] },
        shortenable: { field: 'items', keep: 'start', narrow: 'a smaller per_page' },
      },
      2_000,
    );
    expect(list.isError).toBe(true);
    expect((list.content[0] as { text: string }).text).toContain(
      'Not even one entry fits; ask for a smaller per_page',
    );
  });
});
