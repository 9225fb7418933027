// Benchmarks, reported as ratios against a baseline measured in the same run (the test
// machines are noisy; absolute numbers mean little, ratios travel).
//
// 1. Log search: RE2 (what search_logs uses, linear time) against the native RegExp
//    engine on a benign pattern over 100k log lines. The price of never hanging.
// 2. Gate: sealing and opening an approval, against one HMAC over the same bytes.
// 0. The tool list: tokens of `tools/list` for the default list, each preset and each
//    toolset (bench/toolListCost.ts). Deterministic, so these are absolute numbers.
// 3. Round trip: get_repository through MCP (client → our HTTP server → Woodpecker)
//    against the same GET sent to Woodpecker directly. Needs the Woodpecker binaries
//    (npm run woodpecker:build); skipped with a note when they are missing.
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { compileMatcher } from '../runtime/handlers/search_logs.js';
import { Sealer } from '../runtime/gate/seal.js';

interface Measurement {
  readonly name: string;
  readonly baseline: string;
  readonly ratio: number;
  readonly detail: string;
}

function medianOf(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs both bodies interleaved, several rounds, and compares medians. */
async function compare(rounds: number, subject: () => unknown, baseline: () => unknown): Promise<{ subject: number; baseline: number }> {
  const subjectTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    await subject();
    subjectTimes.push(performance.now() - started);
    started = performance.now();
    await baseline();
    baselineTimes.push(performance.now() - started);
  }
  return { subject: medianOf(subjectTimes), baseline: medianOf(baselineTimes) };
}

async function logSearch(): Promise<Measurement> {
  const lines = Array.from({ length: 100_000 }, (_, i) => (i % 997 === 0 ? `ERROR step ${i} failed: exit status 1` : `info: compiled module ${i} in ${i % 50} ms`));
  const re2 = compileMatcher('error step \\d+ failed', true, true);
  const native = /error step \d+ failed/i;
  let re2Hits = 0;
  let nativeHits = 0;
  const { subject, baseline } = await compare(
    7,
    () => (re2Hits = lines.filter((line) => re2(line)).length),
    () => (nativeHits = lines.filter((line) => native.test(line)).length),
  );
  if (re2Hits !== nativeHits) throw new Error(`engines disagree: ${re2Hits} vs ${nativeHits}`);
  return { name: 'search_logs regex over 100k lines (RE2)', baseline: 'native RegExp', ratio: subject / baseline, detail: `${re2Hits} matches; ${subject.toFixed(1)} ms vs ${baseline.toFixed(1)} ms` };
}

async function gateSealing(): Promise<Measurement> {
  const sealer = new Sealer(undefined, 300_000);
  const key = Buffer.alloc(32, 7);
  const payload = { kind: 'question', tool: 'approve_pipeline', fingerprint: 'x'.repeat(43), principal: 'y'.repeat(22) } as const;
  const { subject, baseline } = await compare(
    7,
    () => {
      for (let i = 0; i < 5_000; i++) sealer.open(sealer.seal(payload));
    },
    () => {
      for (let i = 0; i < 5_000; i++) createHmac('sha256', key).update(JSON.stringify(payload)).digest('base64url');
    },
  );
  return { name: 'seal + open an approval (5k)', baseline: 'one HMAC-SHA256 of the payload', ratio: subject / baseline, detail: `${subject.toFixed(1)} ms vs ${baseline.toFixed(1)} ms` };
}

async function mcpRoundTrip(): Promise<Measurement | string> {
  const { woodpeckerBinaries } = await import('../test/harness/woodpecker-binaries.js');
  try {
    woodpeckerBinaries();
  } catch (error) {
    return `round trip: skipped (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
  const { startStack, harnessInfoOf } = await import('../test/harness/stack.js');
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const { loadConfig } = await import('../runtime/serve/config.js');
  const { buildRuntime } = await import('../runtime/serve/runtime.js');
  const { startHttpServer } = await import('../runtime/serve/http.js');
  const stack = await startStack();
  const info = harnessInfoOf(stack);
  const runtime = buildRuntime(loadConfig({ WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken }));
  const http = await startHttpServer({ host: '127.0.0.1', port: 0, factory: runtime.factory });
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const repos = await fetch(`${info.url}/api/user/repos`, { headers: { authorization: `Bearer ${info.adminToken}` } });
    const list = (await repos.json()) as { id: number }[] | null;
    const repoId = list?.[0]?.id;
    const path = repoId ? `/api/repos/${repoId}` : '/api/user';
    const tool = repoId ? { name: 'get_repository', arguments: { repo_id: repoId } } : { name: 'get_current_user', arguments: {} };
    for (let i = 0; i < 10; i++) await client.callTool(tool); // warm up both paths
    const { subject, baseline } = await compare(
      60,
      () => client.callTool(tool),
      async () => (await fetch(`${info.url}${path}`, { headers: { authorization: `Bearer ${info.adminToken}` } })).json(),
    );
    return { name: `${tool.name} through MCP (2026-07-28, HTTP)`, baseline: `GET ${repoId ? '/api/repos/{id}' : '/api/user'} directly`, ratio: subject / baseline, detail: `median ${subject.toFixed(2)} ms vs ${baseline.toFixed(2)} ms` };
  } finally {
    await client.close().catch(() => undefined);
    await http.close();
    await runtime.close();
    await stack.stop();
  }
}

async function toolListCosts(): Promise<string[]> {
  const { PRESETS, measureToolList, tokensOf } = await import('./toolListCost.js');
  const lines: string[] = [];
  let all: Awaited<ReturnType<typeof measureToolList>> | undefined;
  for (const [label, preset] of Object.entries(PRESETS)) {
    const cost = await measureToolList(preset.env);
    all ??= cost;
    lines.push(`tool list, ${label}: ${cost.tools} tools, ${cost.bytes} bytes, ${cost.tokens} tokens (budget ${preset.budget})`);
  }
  const { tools } = await import('../generated/index.js');
  const groups = [...new Set(tools.map((tool) => tool.group))];
  for (const group of groups) {
    const names = new Set(tools.filter((tool) => tool.group === group).map((tool) => tool.name));
    const listed = all!.listed.filter((tool) => names.has(String(tool.name)));
    lines.push(`  toolset ${group}: ${listed.length} tools, ${tokensOf(listed)} tokens`);
  }
  return lines;
}

for (const line of await toolListCosts()) console.log(line);
const results: (Measurement | string)[] = [await logSearch(), await gateSealing(), await mcpRoundTrip()];
for (const result of results) {
  if (typeof result === 'string') console.log(result);
  else console.log(`${result.name}: ${result.ratio.toFixed(2)}× ${result.baseline} (${result.detail})`);
}
