// stdio on 2026-07-28 as a client library sees it, line by line (issue 33, item 7): every
// error path answers with a code outside -32000…-32019, which that revision leaves to no
// implementation. The server is wired as serve.ts wires it (serveStdio on stdioWire), in
// this process, without a Woodpecker: nothing here reaches one. The 2025-11-25 wording is
// in test/e2e/stdio-wire.test.ts; the HTTP side in test/unit/http/wireAnswers.test.ts.
import { PassThrough } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtime/process/config.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { stdioWire } from '../../../runtime/process/stdioWire.js';

interface Answer {
  readonly id?: number | string | null;
  readonly error?: { code: number; message: string };
  readonly result?: Record<string, unknown>;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-wire', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number, method: string, params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });

/** Writes `lines` to a server on stdio and collects answers until `count` have come. */
async function exchange(lines: readonly string[], count: number): Promise<Answer[]> {
  const runtime = buildRuntime(loadConfig({}));
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  serveStdio(runtime.factory, { transport: stdioWire(stdin, stdout), onerror: () => undefined });
  const answers: Answer[] = [];
  try {
    await new Promise<void>((resolve) => {
      let buffer = '';
      stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n')) >= 0) {
          answers.push(JSON.parse(buffer.slice(0, end)) as Answer);
          buffer = buffer.slice(end + 1);
        }
        if (answers.length >= count) resolve();
      });
      for (const line of lines) stdin.write(`${line}\n`);
    });
  } finally {
    stdin.end();
    await runtime.close();
  }
  return answers;
}

/** -32000…-32019: implementation-defined on 2025, not to be answered on 2026-07-28. */
const inReservedRange = (code: number | undefined) =>
  code !== undefined && code <= -32000 && code >= -32019;

describe('stdio on 2026-07-28', () => {
  it('answers every error path with a code outside -32000…-32019', async () => {
    const answers = await exchange(
      [
        'this is not json',
        request(2, 'resources/read', { uri: 'woodpecker://nothing/here' }),
        request(3, 'tools/list', { cursor: 'not-ours' }),
        request(4, 'tools/call', { name: 'get_current_user', arguments: null }),
        request(5, 'tools/call', { name: 'no_such_tool', arguments: {} }),
        request(6, 'prompts/get', { name: 'no_such_prompt' }),
      ],
      6,
    );
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    // Each path was taken: an error (or, for the unknown tool, a tool error) came back.
    expect(byId.get(null)?.error?.code).toBe(-32700);
    for (const id of [2, 3, 4, 6])
      expect(byId.get(id)?.error, JSON.stringify(byId.get(id))).toBeDefined();
    expect(
      byId.get(5)?.error ?? byId.get(5)?.result?.isError,
      JSON.stringify(byId.get(5)),
    ).toBeTruthy();
    const reserved = answers.filter((answer) => inReservedRange(answer.error?.code));
    expect(reserved).toEqual([]);
  });
});
