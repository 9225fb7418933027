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

// A fixed key and clock: the token's first 14 bytes (version, key id, expiry) are then the
// same in every run, and only its nonce and MAC vary.
const sealer = () => new Sealer(Buffer.alloc(32, 7), 300_000, () => Date.UTC(2026, 0, 1));

async function tokenAnswer(): Promise<{ result: CallToolResult; token: string }> {
  const tool = tools.find((candidate) => candidate.name === 'delete_secret')!;
  const gate = new Gate({ elicitationEnabled: false, sealer: sealer() });
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

  it('costs about what docs/asking-a-person.md says, and never more than its 40 characters', () => {
    // A token's count moves with its random bytes (19 to 33 in 100,000 draws): the doc gives
    // the mean, which 2,000 draws pin to a tenth, and the bound the layout guarantees: 40
    // base64url characters, each one byte, and o200k never spends two tokens on one byte.
    const issuer = sealer();
    const counts = Array.from({ length: 2000 }, () =>
      tokens(
        issuer.issueToken({
          kind: 'token',
          tool: 'delete_secret',
          fingerprint: 'f',
          principal: 'p',
        }),
      ),
    );
    const mean = counts.reduce((sum, count) => sum + count, 0) / counts.length;
    expect(Math.abs(mean - figure('token-itself')), `mean ${mean}`).toBeLessThanOrEqual(0.5);
    expect(figure('token-most')).toBe(40);
    expect(Math.max(...counts)).toBeLessThanOrEqual(figure('token-most'));
  });

  it("the rest of the answer costs what the doc's total leaves for it", async () => {
    const { result, token } = await tokenAnswer();
    // Counted without the token (it is in the text and in structuredContent), so the
    // count does not move with its random bytes.
    const text = (result.content ?? [])
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('\n')
      .replaceAll(token, '');
    const rest =
      tokens(text) + tokens(JSON.stringify(result.structuredContent).replaceAll(token, ''));
    // Where the token meets the text around it, a few characters merge differently: the
    // whole answer measured 273.1 on average over 300 draws, this 219 + 2 × 26 = 271.
    expect(
      Math.abs(rest + 2 * figure('token-itself') - figure('token-answer')),
      `rest ${rest}`,
    ).toBeLessThanOrEqual(2);
  });
});
