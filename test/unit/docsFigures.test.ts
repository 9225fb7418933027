// Numbers the docs state about behaviour, held to the code that decides them: the tool
// list's size and tokens per selection (docs/configuration.md), doctor's token estimate
// against the same table, and a default a tool's description promises.
import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { tools } from '../../generated/index.js';
import { DEFAULT_CONTEXT } from '../../runtime/handlers/search_logs.js';
import { discoveryTools } from '../../runtime/mcp/discovery.js';
import { listedSchemaOf } from '../../runtime/mcp/listedSchema.js';
import { listedTool } from '../../runtime/mcp/toolListing.js';
import { listedEntryTokens } from '../../bench/listedToolTokens.js';
import { listTokens } from '../../runtime/process/doctor.js';
import measuredTokens from '../../runtime/process/listedToolTokens.json' with { type: 'json' };

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The entries tools/list sends for a selection, as runtime/mcp/server.ts builds them. */
const LISTS = {
  'all (default)': tools.map(listedTool),
  'all, non-admin token (admin-only tools hidden)': tools
    .filter((tool) => !tool.adminOnly)
    .map(listedTool),
  '`WOODPECKER_READ_ONLY=true`': tools
    .filter((tool) => tool.annotations.readOnlyHint)
    .map(listedTool),
  '`WOODPECKER_ALLOW_TOOLS=essential`': tools.filter((tool) => tool.essential).map(listedTool),
  '`WOODPECKER_DYNAMIC_TOOLS=true`, first list': [
    ...tools.filter((tool) => tool.essential).map(listedTool),
    ...discoveryTools(tools).map((tool) => ({
      ...tool,
      inputSchema: listedSchemaOf(tool.inputSchema as never),
    })),
  ],
} as const;

/** The rows of configuration.md's "What the tool list costs" table: selection → tools, tokens. */
function costTable(): Map<string, { tools: number; tokens: string }> {
  const section = read('docs/configuration.md').split('### What the tool list costs')[1]!;
  const rows = new Map<string, { tools: number; tokens: string }>();
  for (const line of section.split('\n').slice(0, 20)) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || !/^\d+$/.test(cells[2]!)) continue;
    rows.set(cells[1]!, { tools: Number(cells[2]), tokens: cells[3]! });
  }
  return rows;
}

describe('docs/configuration.md, what the tool list costs', () => {
  const table = costTable();

  it.each(Object.entries(LISTS))('%s: the count and tokens the list has', (selection, listed) => {
    const row = table.get(selection);
    expect(row, `a row for ${selection}`).toBeDefined();
    expect(row!.tools).toBe(listed.length);
    const tokens = encode(JSON.stringify(listed)).length;
    const stated = Number(row!.tokens.replace(/^about /, '').replace(/,/g, ''));
    // An exact figure is the bench's; "about" is rounded, within 5 %.
    if (row!.tokens.startsWith('about'))
      expect(Math.abs(stated - tokens) / tokens).toBeLessThan(0.05);
    else expect(stated).toBe(tokens);
  });

  it("doctor's per-tool figures are each listed entry's measured tokens (npm run docs:figures rewrites them)", () => {
    expect(measuredTokens).toEqual(listedEntryTokens());
  });

  it.each(Object.entries(LISTS))(
    'doctor says the measured figure for %s, not an estimate',
    (_selection, listed) => {
      expect(listTokens(listed)).toEqual({
        tokens: encode(JSON.stringify(listed)).length,
        exact: true,
      });
    },
  );

  it('doctor estimates an entry shaped otherwise from its bytes, and says "about"', () => {
    const [first, second] = LISTS['all (default)'] as readonly { description?: string }[];
    const changed = [{ ...first, description: `${first!.description} ${second!.description}` }];
    const { tokens, exact } = listTokens(changed);
    expect(exact).toBe(false);
    const measured = encode(JSON.stringify(changed)).length;
    expect(Math.abs(tokens - measured) / measured).toBeLessThan(0.1);
  });
});

describe('defaults a description promises', () => {
  it("search_logs' context is the handler's default", () => {
    const tool = tools.find((candidate) => candidate.name === 'search_logs')!;
    const described = (tool.inputSchema.properties.context as { description: string }).description;
    expect(described).toContain(`(default ${DEFAULT_CONTEXT})`);
  });
});
