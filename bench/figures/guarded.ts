// A guarded call's round trip on 2026-07-28 (sealed question → the client's answer →
// the change) against the same tool's unguarded write: update_secret with a new value
// asks a person, with only a new note it applies at once; both send the same PATCH.
import type { ElicitResult } from '@modelcontextprotocol/client';
import { connectHttp, startHttp } from '../serverProcess.js';
import type { Row } from '../row.js';
import { interleave, median, ms } from '../stats.js';
import { createRepo, type Woodpecker } from '../woodpecker.js';

const ROUNDS = 50;

export async function guardedRoundTrip(woodpecker: Woodpecker, rounds = ROUNDS): Promise<Row[]> {
  const repoId = await createRepo(woodpecker, `bench-guard-${Date.now().toString(36)}`, [
    { name: 'hello', commands: ['echo hello'] },
  ]);
  await woodpecker.send('POST', `/api/repos/${repoId}/secrets`, {
    name: 'bench_secret',
    value: 'first',
    events: ['push'],
  });
  const http = await startHttp({
    WOODPECKER_URL: woodpecker.url,
    WOODPECKER_TOKEN: woodpecker.token,
  });
  const client = await connectHttp(http.url, '2026-07-28', true);
  let asked = 0;
  client.setRequestHandler('elicitation/create', async (): Promise<ElicitResult> => {
    asked++;
    return { action: 'accept', content: { approve: true } };
  });
  let serial = 0;
  const call = async (args: Record<string, unknown>) => {
    const result = await client.callTool({
      name: 'update_secret',
      arguments: { scope: 'repository', repo_id: repoId, name: 'bench_secret', ...args },
    });
    if (result.isError)
      throw new Error(`update_secret failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  };
  try {
    await call({ value: `warm-${serial++}` });
    if (asked !== 1) throw new Error(`the guarded call asked ${asked} times, not once`);
    const timed = await interleave(
      rounds,
      () => call({ value: `value-${serial++}` }),
      () => call({ note: `note ${serial++}` }),
    );
    if (asked !== rounds + 1) throw new Error(`${asked} questions for ${rounds + 1} guarded calls`);
    return [
      {
        figure: 'guarded call round trip, HTTP 2026-07-28 (sealed question → answer → act)',
        subject: `update_secret {value}: median ${ms(median(timed.subject))} ms`,
        baseline: `update_secret {note}, unguarded: median ${ms(median(timed.baseline))} ms`,
        result: `+${ms(median(timed.subject) - median(timed.baseline))} ms (${(median(timed.subject) / median(timed.baseline)).toFixed(2)}×)`,
        goal: '—',
        met: undefined,
      },
    ];
  } finally {
    await client.close().catch(() => undefined);
    await http.stop();
  }
}
