// What tools/list costs a model's context: o200k tokens (gpt-tokenizer) of the listed
// tools as JSON (bench/toolListCost.ts), for each selection docs/configuration.md promises a
// budget for, and for each toolset of the whole list. Deterministic, so these are absolute
// numbers, and a selection over its budget is a missed goal.
import type { Row } from '../row.js';

export async function toolListTokens(): Promise<Row[]> {
  const { PRESETS, measureToolList, tokensOf } = await import('../toolListCost.js');
  const rows: Row[] = [];
  let all: Awaited<ReturnType<typeof measureToolList>> | undefined;
  for (const [label, preset] of Object.entries(PRESETS)) {
    const cost = await measureToolList(preset.env);
    all ??= cost;
    rows.push({
      figure: `tools/list tokens, ${label}`,
      subject: `${cost.tools} tools, ${cost.bytes} bytes`,
      baseline: '—',
      result: `${cost.tokens} tokens (o200k)`,
      goal: `at most ${preset.budget} tokens`,
      met: cost.tokens <= preset.budget,
    });
  }
  const { tools } = await import('../../generated/index.js');
  for (const group of [...new Set(tools.map((tool) => tool.group))]) {
    const names = new Set(tools.filter((tool) => tool.group === group).map((tool) => tool.name));
    const listed = all!.listed.filter((tool) => names.has(String(tool.name)));
    rows.push({
      figure: `tools/list tokens, toolset ${group}`,
      subject: `${listed.length} tools`,
      baseline: '—',
      result: `${tokensOf(listed)} tokens (o200k)`,
      goal: 'reported',
      met: undefined,
    });
  }
  return rows;
}
