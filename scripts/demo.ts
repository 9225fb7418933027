// npm run demo: a local Woodpecker (the test harness's stack: forge stand-in, server and
// agent on free loopback ports) filled with sample data, and client configurations to
// paste, so every tool can be tried without touching a real CI. Ctrl-C stops everything
// and removes the stack's temporary directory.
import { fileURLToPath } from 'node:url';
import { fillDemo } from '../test/harness/demoData.js';
import { useStack } from '../test/harness/fixtures.js';
import { harnessInfoOf, startStack, type Stack } from '../test/harness/stack.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HTTP_PORT = 3030;

let stack: Stack | undefined;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void (stack?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

process.stdout.write('Starting a local Woodpecker (forge stand-in, server, agent)…\n');
stack = await startStack(
  process.env.WOODPECKER_TEST_VERSION ? { version: process.env.WOODPECKER_TEST_VERSION } : {},
);
const info = harnessInfoOf(stack);
useStack(info);
process.stdout.write('Filling it with sample repositories and pipelines…\n');
const demo = await fillDemo();

// tsx runs the server from source: `npm run build` is not needed for the demo.
const command = `${ROOT}node_modules/.bin/tsx`;
const args = [`${ROOT}runtime/process/main.ts`];
const stdioConfig = {
  mcpServers: {
    'woodpecker-demo': {
      command,
      args,
      env: { WOODPECKER_URL: info.url, WOODPECKER_TOKEN: info.adminToken },
    },
  },
};
const httpConfig = {
  servers: {
    'woodpecker-demo': {
      type: 'http',
      url: `http://127.0.0.1:${HTTP_PORT}/mcp`,
      headers: { Authorization: `Bearer ${info.adminToken}` },
    },
  },
};

process.stdout.write(
  [
    '',
    `Woodpecker ${info.version} is running at ${info.url}`,
    `  admin ${info.adminLogin}: ${info.adminToken}`,
    `  user  ${info.userLogin}: ${info.userToken}`,
    '',
    'Sample data:',
    `  ${demo.green.repo.fullName} (repo_id ${demo.green.repo.repoId}): pipeline ${demo.green.number} succeeded; cron "${demo.cronName}", secret ${demo.secretName}`,
    `  ${demo.failing.repo.fullName} (repo_id ${demo.failing.repo.repoId}): pipeline ${demo.failing.number} failed (try get_pipeline_failure, or search_logs for ECONNREFUSED)`,
    `  ${demo.awaitingApproval.repo.fullName} (repo_id ${demo.awaitingApproval.repo.repoId}): pipeline ${demo.awaitingApproval.number}, a fork pull request, waits for approval (approve_pipeline asks you first)`,
    '',
    'Stdio: paste into claude_desktop_config.json, .cursor/mcp.json or .mcp.json:',
    JSON.stringify(stdioConfig, null, 2),
    '',
    `HTTP: start the server in another terminal with`,
    `  WOODPECKER_URL=${info.url} ${command} ${args[0]} --http --port ${HTTP_PORT}`,
    'then paste into .vscode/mcp.json (other clients: docs/clients.md):',
    JSON.stringify(httpConfig, null, 2),
    '',
    `Ctrl-C stops Woodpecker and removes everything the demo made (its files are in ${info.dir}).`,
    '',
  ].join('\n'),
);
// Keep running until a signal arrives.
setInterval(() => undefined, 1 << 30);
