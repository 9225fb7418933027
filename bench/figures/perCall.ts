// Per-call overhead: get_repository through MCP on each transport against the same GET
// sent with undici straight to Woodpecker, interleaved, 1,000 of each.
import { request } from 'undici';
import { connectHttp, cpuMsOf, startHttp, startStdio } from '../serverProcess.js';
import type { Row } from '../row.js';
import { interleave, median, ms, percentile } from '../stats.js';
import { createRepo, type Woodpecker } from '../woodpecker.js';

const CALLS = 1_000;
const GOAL_MS = 1;

export async function perCallOverhead(woodpecker: Woodpecker, calls = CALLS): Promise<Row[]> {
  const repoId = await createRepo(woodpecker, `bench-repo-${Date.now().toString(36)}`, [
    { name: 'hello', commands: ['echo hello'] },
  ]);
  const env = { WOODPECKER_URL: woodpecker.url, WOODPECKER_TOKEN: woodpecker.token };
  const direct = async () => {
    const answer = await request(`${woodpecker.url}/api/repos/${repoId}`, {
      headers: { authorization: `Bearer ${woodpecker.token}`, accept: 'application/json' },
      dispatcher: woodpecker.dispatcher,
    });
    return answer.body.json();
  };
  const tool = { name: 'get_repository', arguments: { repo_id: repoId } };
  const rows: Row[] = [];

  // The CPU per call of the server and of the client (this process) is reported too:
  // unlike wall time, a busy neighbour hardly moves it, and it shows which side an
  // overhead comes from. The calls run one at a time, so the client's CPU during one is
  // that call's.
  const measure = async (transport: string, pid: number, call: () => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await Promise.all([call(), direct()]); // warm both paths (JIT, pools)
    const clientCpu = { subject: 0, baseline: 0 };
    const counted = (which: keyof typeof clientCpu, run: () => Promise<unknown>) => async () => {
      const before = process.cpuUsage();
      await run();
      const used = process.cpuUsage(before);
      clientCpu[which] += (used.user + used.system) / 1000;
    };
    const cpuBefore = cpuMsOf(pid);
    const timed = await interleave(calls, counted('subject', call), counted('baseline', direct));
    const cpuPerCall = (cpuMsOf(pid) - cpuBefore) / calls;
    const added = median(timed.subject) - median(timed.baseline);
    rows.push({
      figure: `per-call overhead, get_repository, ${transport}`,
      subject: `median ${ms(median(timed.subject))} ms, p99 ${ms(percentile(timed.subject, 0.99))} ms; CPU a call: server ${ms(cpuPerCall)} ms, SDK Client ${ms(clientCpu.subject / calls)} ms`,
      baseline: `GET /api/repos/{id} with undici: median ${ms(median(timed.baseline))} ms, p99 ${ms(percentile(timed.baseline, 0.99))} ms; CPU a call ${ms(clientCpu.baseline / calls)} ms`,
      result: `+${ms(added)} ms (${(median(timed.subject) / median(timed.baseline)).toFixed(2)}×), ${calls} calls`,
      goal: `≤ +${GOAL_MS} ms`,
      met: added <= GOAL_MS,
    });
  };

  const stdio = await startStdio(env);
  try {
    await measure('stdio', stdio.pid, () => stdio.client.callTool(tool));
  } finally {
    await stdio.close();
  }
  const http = await startHttp(env);
  try {
    for (const revision of ['2026-07-28', '2025-11-25'] as const) {
      const client = await connectHttp(http.url, revision);
      try {
        await measure(
          `HTTP ${revision}${revision === '2025-11-25' ? ' (session)' : ' (stateless)'}`,
          http.pid,
          () => client.callTool(tool),
        );
      } finally {
        await client.close();
      }
    }
  } finally {
    await http.stop();
  }
  return rows;
}
