// A client nobody here wrote, timed: the official MCP Go SDK (test/goclient) connecting
// and listing the tools over Streamable HTTP on 2025-11-25 (initialize, initialized, the
// listening GET stream the SDK opens inside Connect, tools/list) against the same over
// stdio, where each connect also starts the server process. Before the listening stream
// sent its head at once, every 2025 HTTP connect waited 15 s for the SDK's keep-alive.
import { buildGoClient, runGoClient } from '../../test/goclient/goClient.js';
import type { Row } from '../row.js';
import { MAIN, startHttp } from '../serverProcess.js';
import { median, ms } from '../stats.js';

const ROUNDS = 9;
/** A 2025 HTTP connect costs at most what a stdio connect does, which starts a process. */
const GOAL_RATIO = 1;

export async function goSdkConnects(rounds = ROUNDS): Promise<Row[]> {
  const binary = await buildGoClient();
  const server = await startHttp({});
  const env = {};
  const connectMs = async (args: string[]): Promise<number> => {
    const [check] = await runGoClient(binary, { args: ['-connects', '1', ...args], env });
    if (!check?.ok || check.ms === undefined)
      throw new Error(`Go SDK connect failed: ${JSON.stringify(check)}`);
    return check.ms;
  };
  const stdio = ['-stdio', `${process.execPath} ${MAIN}`];
  const http = ['-http', server.url];
  const samples = { stdio: [] as number[], http2025: [] as number[] };
  try {
    await connectMs(stdio); // fills the OS file cache for the first timed start
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always runs on a warmer cache.
      if (round % 2 === 0) {
        samples.stdio.push(await connectMs(stdio));
        samples.http2025.push(await connectMs(http));
      } else {
        samples.http2025.push(await connectMs(http));
        samples.stdio.push(await connectMs(stdio));
      }
    }
  } finally {
    await server.stop();
  }
  const ratio = median(samples.http2025) / median(samples.stdio);
  return [
    {
      figure: 'Go SDK v1.8.0 connect + tools/list, Streamable HTTP 2025-11-25',
      subject: `median ${ms(median(samples.http2025))} ms (slowest ${ms(Math.max(...samples.http2025))} ms)`,
      baseline: `the same over stdio (the SDK's default, 2026-07-28), server started each time: median ${ms(median(samples.stdio))} ms`,
      result: `${ratio.toFixed(2)}×, ${rounds} connects each`,
      goal: `≤ ${GOAL_RATIO}×`,
      met: ratio <= GOAL_RATIO,
    },
  ];
}
