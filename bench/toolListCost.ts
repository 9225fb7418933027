// What the tool list costs a model: `tools/list` asked of the real server over stdio, as
// an MCP host would, and the JSON of its `tools` array counted with the o200k tokenizer
// (gpt-tokenizer). The count is deterministic, so tests assert budgets on it and
// `npm run bench` prints it.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ToolListCost {
  readonly tools: number;
  readonly names: readonly string[];
  readonly bytes: number;
  readonly tokens: number;
  /** The `tools` array as the client received it. */
  readonly listed: readonly Record<string, unknown>[];
}

/** The selections the README promises a budget for, as the environment that makes them. */
export const PRESETS = {
  all: { env: {}, budget: 12_000 },
  'WOODPECKER_READ_ONLY=true': { env: { WOODPECKER_READ_ONLY: 'true' }, budget: 5_000 },
  'WOODPECKER_ALLOW_TOOLS=essential': {
    env: { WOODPECKER_ALLOW_TOOLS: 'essential' },
    budget: 2_500,
  },
} as const satisfies Record<string, { env: Record<string, string>; budget: number }>;

/** Tokens of a JSON value as a client puts it into a model's context. */
export function tokensOf(value: unknown): number {
  return encode(JSON.stringify(value)).length;
}

/** Starts the server over stdio with `env` (no Woodpecker needed) and measures its first tool list. */
export async function measureToolList(env: Record<string, string>): Promise<ToolListCost> {
  const client = new Client({ name: 'tool-list-cost', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: `${ROOT}node_modules/.bin/tsx`,
      args: ['runtime/process/main.ts'],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await client.listTools();
    const json = JSON.stringify(tools);
    return {
      tools: tools.length,
      names: tools.map((tool) => tool.name),
      bytes: Buffer.byteLength(json),
      tokens: encode(json).length,
      listed: tools,
    };
  } finally {
    await client.close();
  }
}
