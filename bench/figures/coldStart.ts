// Cold start: from spawning the process to tools/list answered over stdio, for the built
// server and for a bare SDK v2 server with one tool, alternately; and `--version` against
// `node -e 0`, which is all a command that loads nothing can cost.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAIN, newClient, ROOT } from '../serverProcess.js';
import type { Row } from '../row.js';
import { interleave, median, ms } from '../stats.js';

const STARTS = 15;
const GOAL_RATIO = 1.2;
const VERSION_GOAL_RATIO = 1.5;

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

function runNode(args: readonly string[]): void {
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr}`);
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
  const version = await interleave(
    starts,
    () => runNode([MAIN, '--version']),
    () => runNode(['-e', '0']),
  );
  const versionRatio = median(version.subject) / median(version.baseline);
  return [
    {
      figure: 'cold start, process start to tools/list answered, stdio',
      subject: `median ${ms(median(timed.subject))} ms (${tools} tools)`,
      baseline: `bare SDK v2 server, one tool: median ${ms(median(timed.baseline))} ms`,
      result: `${ratio.toFixed(2)}×, ${starts} starts each`,
      goal: `≤ ${GOAL_RATIO}×`,
      met: ratio <= GOAL_RATIO,
    },
    {
      figure: 'woodpecker-ci-mcp --version, process start to exit',
      subject: `median ${ms(median(version.subject))} ms`,
      baseline: `node -e 0: median ${ms(median(version.baseline))} ms`,
      result: `${versionRatio.toFixed(2)}×, ${starts} runs each`,
      goal: `≤ ${VERSION_GOAL_RATIO}×`,
      met: versionRatio <= VERSION_GOAL_RATIO,
    },
  ];
}
