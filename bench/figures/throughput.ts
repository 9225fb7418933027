// Throughput over HTTP: 50 MCP clients making 200 mixed read calls each, all at once,
// against 50 concurrent workers sending the same GETs straight to Woodpecker. The clients
// are lean ones (bench/leanMcpClient.ts): 50 SDK Clients in the bench process used more
// CPU than the server, on the same two cores, so the figure measured the client.
// Each run also reports the CPU each process used per call (bench, MCP server,
// Woodpecker), read from /proc: when the cores are saturated, that is what sets the rate.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { connectLean, type LeanMcpClient } from '../leanMcpClient.js';
import { pidListeningOn } from '../listeningPid.js';
import { cpuMsOf, startHttp, type Revision } from '../serverProcess.js';
import type { Row } from '../row.js';
import { ms, percentile } from '../stats.js';
import { createRepo, runPipeline, type Woodpecker } from '../woodpecker.js';

const CLIENTS = 50;
const CALLS_EACH = 200;
const GOAL_SHARE = 0.7;

interface Mix {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly path: string;
}

interface Run {
  readonly seconds: number;
  readonly latencies: number[];
  readonly errors: number;
  /** CPU milliseconds per call of each process, by name. */
  readonly cpuPerCall: Record<string, number>;
}

/** The processes whose CPU time a run reports: this one, and others by pid. */
type Processes = Record<string, number | 'self'>;

function cpuNow(processes: Processes): Record<string, number> {
  const now: Record<string, number> = {};
  for (const [name, pid] of Object.entries(processes)) {
    if (pid === 'self') {
      const usage = process.cpuUsage();
      now[name] = (usage.user + usage.system) / 1000;
    } else now[name] = cpuMsOf(pid);
  }
  return now;
}

/** The first failure of a run, printed so that an error count comes with its cause. */
let firstError: string | undefined;

async function workers(
  count: number,
  each: number,
  processes: Processes,
  call: (worker: number, index: number) => Promise<boolean>,
): Promise<Run> {
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = cpuNow(processes);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, worker) => {
      for (let index = 0; index < each; index++) {
        const began = performance.now();
        const ok = await call(worker, index).catch((error: unknown) => {
          firstError ??= error instanceof Error ? error.message : String(error);
          return false;
        });
        latencies.push(performance.now() - began);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuNow(processes);
  const cpuPerCall: Record<string, number> = {};
  for (const name of Object.keys(processes))
    cpuPerCall[name] = (cpuAfter[name]! - cpuBefore[name]!) / latencies.length;
  return { seconds, latencies, errors, cpuPerCall };
}

const describeRun = (run: Run) => {
  const rate = run.latencies.length / run.seconds;
  const cpu = Object.entries(run.cpuPerCall);
  const total = cpu.reduce((sum, [, perCall]) => sum + perCall, 0);
  return (
    `${rate.toFixed(0)} calls/s, p50 ${ms(percentile(run.latencies, 0.5))} ms, p99 ${ms(percentile(run.latencies, 0.99))} ms, ${run.errors} errors; ` +
    `CPU a call: ${cpu.map(([name, perCall]) => `${name} ${ms(perCall)} ms`).join(', ')} ` +
    `(${((total * rate) / 1000).toFixed(1)} of ${cpus().length} cores busy)`
  );
};

export async function throughput(
  woodpecker: Woodpecker,
  clients = CLIENTS,
  callsEach = CALLS_EACH,
): Promise<Row[]> {
  const repoId = await createRepo(woodpecker, `bench-load-${Date.now().toString(36)}`, [
    { name: 'hello', commands: ['echo hello'] },
  ]);
  const { number } = await runPipeline(woodpecker, repoId);
  const mix: Mix[] = [
    { tool: 'get_repository', args: { repo_id: repoId }, path: `/api/repos/${repoId}` },
    { tool: 'list_pipelines', args: { repo_id: repoId }, path: `/api/repos/${repoId}/pipelines` },
    {
      tool: 'get_pipeline',
      args: { repo_id: repoId, number: String(number) },
      path: `/api/repos/${repoId}/pipelines/${number}`,
    },
    { tool: 'get_current_user', args: {}, path: '/api/user' },
  ];
  const pool = new Agent({ connections: clients, keepAliveTimeout: 30_000 });
  const woodpeckerPid = pidListeningOn(Number(new URL(woodpecker.url).port));
  const withWoodpecker = (processes: Processes): Processes =>
    woodpeckerPid === undefined ? processes : { ...processes, Woodpecker: woodpeckerPid };
  const direct = () =>
    workers(clients, callsEach, withWoodpecker({ bench: 'self' }), async (worker, index) => {
      const { path } = mix[(worker + index) % mix.length]!;
      const answer = await request(`${woodpecker.url}${path}`, {
        headers: { authorization: `Bearer ${woodpecker.token}`, accept: 'application/json' },
        dispatcher: pool,
      });
      await answer.body.json();
      return answer.statusCode === 200;
    });

  const rows: Row[] = [];
  // 50 sessions of one token: above the default per-credential limit (20), on purpose here.
  const http = await startHttp({
    WOODPECKER_URL: woodpecker.url,
    WOODPECKER_TOKEN: woodpecker.token,
    WOODPECKER_MCP_SESSIONS_PER_TOKEN: String(clients + 10),
    WOODPECKER_MCP_MAX_SESSIONS: String(clients + 20),
  });
  try {
    for (const revision of ['2026-07-28', '2025-11-25'] as Revision[]) {
      const connected: LeanMcpClient[] = [];
      for (let i = 0; i < clients; i++) connected.push(await connectLean(http.url, revision, pool));
      try {
        const processes = withWoodpecker({ bench: 'self', server: http.pid });
        const viaMcp = () =>
          workers(clients, callsEach, processes, async (worker, index) => {
            const { tool, args } = mix[(worker + index) % mix.length]!;
            const result = await connected[worker]!.callTool(tool, args);
            if (result.isError) throw new Error(`${tool}: ${result.text.slice(0, 200)}`);
            return true;
          });
        await viaMcp(); // warm-up round, not counted
        const baseline = await direct();
        const subject = await viaMcp();
        const share = baseline.seconds / subject.seconds;
        // With every core busy, the rates stand as the CPU per call of the two paths.
        const cpuOf = (run: Run) => Object.values(run.cpuPerCall).reduce((a, b) => a + b, 0);
        const ceiling = cpuOf(baseline) / cpuOf(subject);
        if (firstError) process.stderr.write(`  first error: ${firstError}\n`);
        firstError = undefined;
        rows.push({
          figure: `HTTP ${revision}: ${clients} clients × ${callsEach} mixed reads`,
          subject: `lean MCP clients: ${describeRun(subject)}`,
          baseline: `${clients} concurrent undici workers: ${describeRun(baseline)}`,
          result: `${(share * 100).toFixed(0)} % of direct throughput; CPU a call ${ms(cpuOf(subject))} ms against ${ms(cpuOf(baseline))} ms: ${(ceiling * 100).toFixed(0)} % if both kept the cores busy`,
          goal: `≥ ${GOAL_SHARE * 100} %, 0 errors`,
          met: share >= GOAL_SHARE && subject.errors === 0,
        });
      } finally {
        await Promise.all(connected.map((client) => client.close().catch(() => undefined)));
      }
    }
  } finally {
    await http.stop();
    await pool.close();
  }
  return rows;
}
