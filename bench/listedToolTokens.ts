// The o200k tokens of every tool's tools/list entry, as doctor adds them up
// (runtime/process/listedToolTokens.json, written by `npm run docs:figures`): each tool as
// runtime/mcp/toolListing.ts lists it, and the discovery tools of WOODPECKER_DYNAMIC_TOOLS.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { tools } from '../generated/index.js';
import { discoveryTools } from '../runtime/mcp/discovery.js';
import { listedSchemaOf } from '../runtime/mcp/listedSchema.js';
import { listedTool } from '../runtime/mcp/toolListing.js';

/** name → [bytes, tokens] of each entry's JSON. */
export function listedEntryTokens(): Record<string, [number, number]> {
  const entries: unknown[] = [
    ...tools.map(listedTool),
    // As runtime/mcp/server.ts lists them.
    ...discoveryTools(tools).map((tool) => ({
      ...tool,
      inputSchema: listedSchemaOf(tool.inputSchema as never),
    })),
  ];
  return Object.fromEntries(
    entries.map((entry) => {
      const json = JSON.stringify(entry);
      return [
        String((entry as { name: unknown }).name),
        [Buffer.byteLength(json), encode(json).length],
      ];
    }),
  );
}

/** The file's text: one tool a line, so a changed description changes one line. */
export function measuredListedTokens(): string {
  const lines = Object.entries(listedEntryTokens()).map(
    ([name, figures]) => `  ${JSON.stringify(name)}: ${JSON.stringify(figures)}`,
  );
  return `{\n${lines.join(',\n')}\n}\n`;
}
