// Cold start: from spawning the process to tools/list answered over stdio, for the
// compiled server and for a bare SDK v2 server with one tool, alternately.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAIN, newClient, ROOT } from '../serverProcess.js';
import type { Row } from '../row.js';
import { interleave, median, ms } from '../stats.js';

const STARTS = 15;
const GOAL_RATIO = 1.5;

async function startToToolsList(
  script: string,
  env: Record<string, string>,
): Promise<{ ms: number; tools: number }> {
  const started = performance.now();
  const client = newClient('2025-11-25');
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [script],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'ignore',
    }),
  );
  const listed = await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  return { ms: elapsed, tools: listed.tools.length };
}

export async function coldStart(woodpeckerUrl: string, starts = STARTS): Promise<Row[]> {
  const env = { WOODPECKER_URL: woodpeckerUrl, WOODPECKER_TOKEN: 'not-used-by-tools-list' };
  const bare = join(ROOT, 'bench', 'bareServer.mjs');
  let tools = 0;
  await startToToolsList(MAIN, env); // the first start also fills the OS file cache
  const timed = await interleave(
    starts,
    async () => (tools = (await startToToolsList(MAIN, env)).tools),
    () => startToToolsList(bare, {}),
  );
  const ratio = median(timed.subject) / median(timed.baseline);
  return [
    {
      figure: 'cold start, process start to tools/list answered, stdio',
      subject: `median ${ms(median(timed.subject))} ms (${tools} tools)`,
      baseline: `bare SDK v2 server, one tool: median ${ms(median(timed.baseline))} ms`,
      result: `${ratio.toFixed(2)}×, ${starts} starts each`,
      goal: `≤ ${GOAL_RATIO}×`,
      met: ratio <= GOAL_RATIO,
    },
  ];
}
