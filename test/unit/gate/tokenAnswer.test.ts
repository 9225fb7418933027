// The two-call token is repeated by the model: it must be short, and the figures
// docs/asking-a-person.md gives for it are measured here, not written by hand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { Gate } from '../../../runtime/gate/gate.js';
import { Sealer } from '../../../runtime/gate/seal.js';

const tokens = (text: string) => encode(text).length;
const doc = readFileSync(new URL('../../../docs/asking-a-person.md', import.meta.url), 'utf8');
const figure = (name: string) =>
  Number(new RegExp(`<!-- ${name} -->(\\d+)<!-- /${name} -->`).exec(doc)?.[1]);

async function tokenAnswer(): Promise<{ result: CallToolResult; token: string }> {
  const tool = tools.find((candidate) => candidate.name === 'delete_secret')!;
  const gate = new Gate({ elicitationEnabled: false, sealer: new Sealer(undefined, 300_000) });
  const outcome = await gate.check({
    tool,
    args: { scope: 'repository', repo_id: 12, name: 'deploy_key' },
    principal: 'p'.repeat(22),
    channel: {
      revision: '2025-11-25',
      clientCanElicit: false,
      inputResponses: undefined,
      requestState: undefined,
    },
    readCurrent: async () => ({ id: 41, events: ['push'], images: [] }),
    look: async () => ({ status: 'absent' }),
  });
  if (outcome.proceed || outcome.outcome !== 'token issued') throw new Error('no token issued');
  const result = outcome.result as CallToolResult;
  const structured = result.structuredContent as { confirm_token?: unknown } | undefined;
  return { result, token: String(structured?.confirm_token) };
}

describe('the two-call token answer', () => {
  it('hands out a token of at most 100 characters', async () => {
    const { token } = await tokenAnswer();
    expect(token.length).toBeLessThanOrEqual(100);
  });

  it('costs what docs/asking-a-person.md says', async () => {
    const { result, token } = await tokenAnswer();
    const text = (result.content ?? []).map((part) => (part.type === 'text' ? part.text : ''));
    const whole = tokens(text.join('\n')) + tokens(JSON.stringify(result.structuredContent));
    // A token's own count moves with its random bytes (21 to 32 in 5,000 draws): the doc
    // gives the typical count, and the rest of the answer, which does not move, exactly.
    expect(tokens(token)).toBeLessThanOrEqual(32);
    const rest = whole - 2 * tokens(token);
    expect(
      Math.abs(rest + 2 * figure('token-itself') - figure('token-answer')),
      `rest ${rest}`,
    ).toBeLessThanOrEqual(2);
  });
});
