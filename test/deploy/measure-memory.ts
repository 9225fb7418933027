// Measures what docs/deploy.md states under "Sizing": the resident memory of one replica
// (the image, run as the load-balancer test runs it) idle, after 200 stateless 2026 calls,
// and with 200 open 2025 sessions. Not a test: run it by hand against a stack
// (`npm run stack` prints the URL and a token), with the deploy image built:
//   WOODPECKER_URL=http://127.0.0.1:PORT WOODPECKER_TEST_TOKEN=... npx tsx test/deploy/measure-memory.ts
import { freeLoopbackPort } from '../harness/free-port.js';
import { callTool2026, initialize2025 } from '../e2e/rawMcpHttp.js';
import { podman, runContainer, waitForStatus } from './podman.js';

const woodpeckerUrl = process.env.WOODPECKER_URL;
const token = process.env.WOODPECKER_TEST_TOKEN;
if (!woodpeckerUrl || !token)
  throw new Error('set WOODPECKER_URL and WOODPECKER_TEST_TOKEN (see the comment at the top)');

const port = await freeLoopbackPort();
const container = await runContainer({
  podmanArgs: ['--network', 'host'],
  env: { WOODPECKER_URL: woodpeckerUrl },
  args: ['--http', '--host', '127.0.0.1', '--port', String(port)],
});
const rssMiB = async (): Promise<number> => {
  const status = await podman(['exec', container.name, 'cat', '/proc/1/status']);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
};
try {
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200);
  const bearer = { authorization: `Bearer ${token}` };
  await callTool2026(url, 'get_current_user', bearer);
  const idle = await rssMiB();
  for (let i = 0; i < 200; i++) await callTool2026(url, 'get_current_user', bearer);
  const afterCalls = await rssMiB();
  for (let i = 0; i < 200; i++) await initialize2025(url, bearer);
  const withSessions = await rssMiB();
  console.log(`idle after one call: ${idle.toFixed(1)} MiB`);
  console.log(`after 200 stateless 2026 calls: ${afterCalls.toFixed(1)} MiB`);
  console.log(
    `with 200 open 2025 sessions: ${withSessions.toFixed(1)} MiB (${(((withSessions - afterCalls) * 1024) / 200).toFixed(0)} KiB per session)`,
  );
} finally {
  await container.remove();
}
