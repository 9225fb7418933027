// What tools/list costs a model's context: o200k tokens (gpt-tokenizer) of the listed
// tools as JSON, for the whole set, the read-only set and the essential set.
import { startStdio } from '../serverProcess.js';
import type { Row } from '../row.js';

const SELECTIONS: { name: string; env: Record<string, string> }[] = [
  { name: 'all tools', env: {} },
  { name: 'read-only (WOODPECKER_READ_ONLY=true)', env: { WOODPECKER_READ_ONLY: 'true' } },
  { name: 'essential (WOODPECKER_ALLOW_TOOLS=essential)', env: { WOODPECKER_ALLOW_TOOLS: 'essential' } },
];

export async function toolListTokens(woodpeckerUrl: string): Promise<Row[]> {
  let countTokens: (text: string) => number;
  try {
    // A variable specifier: the dev dependency may be absent, and then this figure says so.
    const specifier = 'gpt-tokenizer/encoding/o200k_base';
    countTokens = ((await import(specifier)) as { countTokens: (text: string) => number }).countTokens;
  } catch {
    return [{ figure: 'tools/list tokens', subject: 'skipped: gpt-tokenizer is not installed (npm ci installs it)', baseline: '—', result: '—', goal: '—', met: undefined }];
  }
  const rows: Row[] = [];
  for (const selection of SELECTIONS) {
    const server = await startStdio({ WOODPECKER_URL: woodpeckerUrl, ...selection.env });
    try {
      const listed = await server.client.listTools();
      rows.push({
        figure: `tools/list tokens, ${selection.name}`,
        subject: `${listed.tools.length} tools, ${countTokens(JSON.stringify(listed.tools))} tokens (o200k)`,
        baseline: '—',
        result: '—',
        goal: 'reported',
        met: undefined,
      });
    } finally {
      await server.close();
    }
  }
  return rows;
}
