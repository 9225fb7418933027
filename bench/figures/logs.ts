// The log tools on a step that printed 200,000 lines, over stdio, against a raw GET of
// Woodpecker's JSON log endpoint + JSON.parse; on a release with the plain-text download,
// that endpoint is reported too. Memory is the server process's peak RSS growth during
// one call, on a fresh process each time.
import type { Client } from '@modelcontextprotocol/client';
import { BIG_LOG_LINES, bigLogPipeline } from '../bigLog.js';
import { memoryOf, resetPeak, startStdio } from '../serverProcess.js';
import type { Row } from '../row.js';
import { interleave, mb, median, ms } from '../stats.js';
import type { Woodpecker } from '../woodpecker.js';

const ROUNDS = 5;

interface LogTool {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly timeGoal: number;
  readonly memoryGoal: boolean;
  /** Throws when the answer is not what the tool should have found in this log. */
  check(structured: Record<string, unknown>): void;
}

function toolsFor(repoId: number, number: number, stepId: number): LogTool[] {
  return [
    {
      name: 'get_step_logs',
      args: { repo_id: repoId, number, step_id: stepId },
      timeGoal: 1.5,
      memoryGoal: true,
      check: (answer) => {
        // The shell's own "+ command" lines come on top of what the step printed.
        if ((answer.total_lines as number) < BIG_LOG_LINES)
          throw new Error(`get_step_logs counted ${String(answer.total_lines)} lines`);
      },
    },
    {
      name: 'get_pipeline_failure',
      args: { repo_id: repoId, number },
      timeGoal: 1.5,
      memoryGoal: true,
      check: (answer) => {
        const steps = answer.failed_steps as { total_lines: number }[];
        if ((steps?.[0]?.total_lines ?? 0) < BIG_LOG_LINES)
          throw new Error(`get_pipeline_failure counted ${String(steps?.[0]?.total_lines)} lines`);
      },
    },
    {
      name: 'search_logs',
      args: { repo_id: repoId, number, pattern: 'ERROR: test \\d+ failed', regex: true },
      timeGoal: 1.2,
      memoryGoal: false,
      check: (answer) => {
        if (answer.match_count !== BIG_LOG_LINES / 20_000)
          throw new Error(`search_logs found ${String(answer.match_count)} matches`);
      },
    },
  ];
}

async function callOk(client: Client, tool: LogTool): Promise<void> {
  const result = await client.callTool({ name: tool.name, arguments: tool.args });
  if (result.isError)
    throw new Error(`${tool.name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  tool.check(result.structuredContent as Record<string, unknown>);
}

export async function logFigures(
  woodpecker: Woodpecker,
  release: string,
  rounds = ROUNDS,
): Promise<Row[]> {
  const log = await bigLogPipeline(woodpecker);
  const env = { WOODPECKER_URL: woodpecker.url, WOODPECKER_TOKEN: woodpecker.token };
  const jsonSize = (await woodpecker.getRaw(log.jsonPath)).length;
  const rawJson = async () =>
    JSON.parse((await woodpecker.getRaw(log.jsonPath)).toString('utf8')) as unknown;
  const rows: Row[] = [];
  const tools = toolsFor(log.repoId, log.number, log.stepId);

  // Releases without the route answer it with their web page (HTML, status 200).
  const downloadPath = `${log.jsonPath}/download`;
  const probe = await fetch(`${woodpecker.url}${downloadPath}`, {
    headers: { authorization: `Bearer ${woodpecker.token}` },
  });
  await probe.arrayBuffer();
  const hasDownload =
    probe.ok && (probe.headers.get('content-type') ?? '').startsWith('text/plain');
  if (hasDownload) {
    const timed = await interleave(
      rounds,
      () => woodpecker.getRaw(downloadPath).then((bytes) => bytes.toString('utf8').split('\n')),
      rawJson,
    );
    const textSize = (await woodpecker.getRaw(downloadPath)).length;
    rows.push({
      figure: `Woodpecker ${release}: plain-text log download, 200k lines`,
      subject: `GET …/download (${mb(textSize)}) + split: median ${ms(median(timed.subject))} ms`,
      baseline: `GET …/logs/{n}/{step} (${mb(jsonSize)}) + JSON.parse: median ${ms(median(timed.baseline))} ms`,
      result: `${(median(timed.subject) / median(timed.baseline)).toFixed(2)}×`,
      goal: '—',
      met: undefined,
    });
  }

  const server = await startStdio(env);
  try {
    for (const tool of tools) {
      await callOk(server.client, tool); // warm: JIT, connection pool
      const timed = await interleave(rounds, () => callOk(server.client, tool), rawJson);
      const ratio = median(timed.subject) / median(timed.baseline);
      rows.push({
        figure: `Woodpecker ${release}: ${tool.name}, 200k-line step, stdio`,
        subject: `median ${ms(median(timed.subject))} ms`,
        baseline: `raw GET (${mb(jsonSize)}) + JSON.parse: median ${ms(median(timed.baseline))} ms`,
        result: `${ratio.toFixed(2)}×`,
        goal: `≤ ${tool.timeGoal}×`,
        met: ratio <= tool.timeGoal,
      });
    }
  } finally {
    await server.close();
  }

  for (const tool of tools.filter((candidate) => candidate.memoryGoal)) {
    const fresh = await startStdio(env);
    try {
      // One small call first: loading undici and Ajv on first need is not the log's cost.
      await fresh.client.callTool({ name: 'get_current_user', arguments: {} });
      const before = memoryOf(fresh.pid).rss;
      resetPeak(fresh.pid);
      await callOk(fresh.client, tool);
      const growth = memoryOf(fresh.pid).peak - before;
      rows.push({
        figure: `Woodpecker ${release}: ${tool.name}, peak RSS growth in one call`,
        subject: mb(growth),
        baseline: `response size ${mb(jsonSize)}`,
        result: `${(growth / jsonSize).toFixed(2)}× the response`,
        goal: '≤ 2×',
        met: growth <= 2 * jsonSize,
      });
    } finally {
      await fresh.close();
    }
  }
  return rows;
}
