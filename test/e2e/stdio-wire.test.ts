// stdio as a client library sees it, line by line (issue 33, items 4 and 7): a line that
// is not JSON is answered with -32700 (it was skipped, and the client waited forever), an
// old revision is answered with one whose features the answers use, and errors carry the
// codes and the one-sentence messages the revision's spec and the HTTP side have.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverEnv, SOURCE_SERVER } from './stdioServer.js';

interface Answer {
  readonly id?: number | string | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string };
}

/** Writes `lines` to a fresh server and collects its answers until `count` have come. */
async function exchange(lines: readonly string[], count: number): Promise<Answer[]> {
  const child = spawn(SOURCE_SERVER.command, [...SOURCE_SERVER.args], {
    cwd: SOURCE_SERVER.cwd,
    env: serverEnv({}),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const answers: Answer[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n')) >= 0) {
          answers.push(JSON.parse(buffer.slice(0, end)) as Answer);
          buffer = buffer.slice(end + 1);
        }
        if (answers.length >= count) resolve();
      });
      child.once('exit', () => reject(new Error(`exited after ${JSON.stringify(answers)}`)));
      for (const line of lines) child.stdin.write(`${line}\n`);
    });
  } finally {
    child.stdin.end();
  }
  return answers;
}

const request = (id: number, method: string, params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const initialize = (protocolVersion: string) =>
  request(0, 'initialize', {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'stdio-wire', version: '1' },
  });
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

describe('stdio, line by line', () => {
  it('answers a line that is not JSON with -32700, and goes on', async () => {
    const answers = await exchange(['this is not json', initialize('2025-11-25')], 2);
    expect(answers[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(answers[1]?.result?.protocolVersion).toBe('2025-11-25');
  }, 60_000);

  it('answers an initialize with 2025-03-26 with 2025-11-25', async () => {
    const [answer] = await exchange([initialize('2025-03-26')], 1);
    expect(answer?.result?.protocolVersion).toBe('2025-11-25');
  }, 60_000);

  it('words errors as 2025-11-25 and the HTTP side do', async () => {
    const answers = await exchange(
      [
        initialize('2025-11-25'),
        initialized,
        request(2, 'resources/read', { uri: 'woodpecker://nothing/here' }),
        request(3, 'tools/call', { name: 'get_current_user', arguments: null }),
        request(4, 'tools/list', { cursor: 'not-ours' }),
      ],
      4,
    );
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect(byId.get(2)?.error?.code).toBe(-32002);
    expect(byId.get(3)?.error).toMatchObject({ code: -32602 });
    expect(byId.get(3)?.error?.message).toMatch(/^arguments [^\n]*$/);
    expect(byId.get(4)?.error?.code).toBe(-32602);
  }, 60_000);
});
