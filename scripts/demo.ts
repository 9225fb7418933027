// npm run demo: a local Woodpecker (the test harness's stack: forge stand-in, server and
// agent on free loopback ports) filled with sample data, the server built as a client runs
// it, and ready commands and configurations to paste, so every tool can be tried without
// touching a real CI. Ctrl-C stops everything and removes the stack's temporary directory.
//
//   npm run demo                         the HTTP command it prints listens on port 3030
//   npm run demo -- --port 4000          another port for that command
//   npm run demo -- --demo-env <path>    where the stdio configurations read the address
//                                        and token (default ~/.cache/woodpecker-ci-mcp/demo.env)
//
// Each demo's Woodpecker has a new address and new tokens. The stdio configurations it
// prints name neither: they start the server with `node --env-file=<file>`, and every demo
// rewrites that file, so a configuration pasted once keeps working after a restart.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from './build.js';
import { fillDemo } from '../test/harness/demoData.js';
import { useStack } from '../test/harness/fixtures.js';
import { harnessInfoOf, startStack, type Stack } from '../test/harness/stack.js';
import {
  buildScriptPath,
  normalizeTag,
  pinnedWoodpeckerTag,
  woodpeckerBinaries,
  woodpeckerCacheDir,
} from '../test/harness/woodpecker-binaries.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = `${ROOT}bin/woodpecker-ci-mcp.js`;

function parseEnvFile(argv: readonly string[]): string {
  const index = argv.indexOf('--demo-env');
  if (index === -1) return join(woodpeckerCacheDir(), 'demo.env');
  const path = argv[index + 1];
  if (!path || path.startsWith('--')) {
    process.stderr.write('demo: --demo-env needs a file path, e.g. --demo-env ./demo.env\n');
    process.exit(2);
  }
  return resolve(path);
}

/** Quoted for a POSIX shell when it has to be. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

function parsePort(argv: readonly string[]): number {
  const index = argv.indexOf('--port');
  if (index === -1) return 3030;
  const port = Number(argv[index + 1]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    process.stderr.write('demo: --port needs a port number from 1 to 65535, e.g. --port 4000\n');
    process.exit(2);
  }
  return port;
}
const HTTP_PORT = parsePort(process.argv.slice(2));
const ENV_FILE = parseEnvFile(process.argv.slice(2));

let stack: Stack | undefined;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void (stack?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

// The first run on a machine builds Woodpecker from source: say so before minutes pass.
const version = process.env.WOODPECKER_TEST_VERSION;
const tag = normalizeTag(version ?? pinnedWoodpeckerTag());
try {
  woodpeckerBinaries(tag);
} catch {
  process.stdout.write(
    [
      `Woodpecker ${tag} is not built on this machine yet. Building it from source now, once:`,
      `this takes several minutes (downloads its Go sources, compiles server and agent). The`,
      `result is kept in ${woodpeckerCacheDir()}, so later demos start in seconds.`,
      '',
    ].join('\n'),
  );
  const built = spawnSync('bash', [buildScriptPath, tag], { stdio: 'inherit' });
  if (built.status !== 0) {
    process.stderr.write(`demo: building Woodpecker ${tag} failed (see above).\n`);
    process.exit(1);
  }
}

process.stdout.write('Building the server (npm run build)…\n');
await buildPackage();
process.stdout.write('Starting a local Woodpecker (forge stand-in, server, agent)…\n');
stack = await startStack(version ? { version } : {});
const info = harnessInfoOf(stack);
useStack(info);
process.stdout.write('Filling it with sample repositories and pipelines (about a minute)…\n');
const demo = await fillDemo();

// The admin token of this throwaway Woodpecker, readable by this user only; the next demo
// overwrites it.
mkdirSync(dirname(ENV_FILE), { recursive: true });
writeFileSync(ENV_FILE, `WOODPECKER_URL=${info.url}\nWOODPECKER_TOKEN=${info.adminToken}\n`, {
  mode: 0o600,
});
chmodSync(ENV_FILE, 0o600);
const serverArgs = [`--env-file=${ENV_FILE}`, BIN];
const serverCommand = ['node', ...serverArgs].map(shellWord).join(' ');
const stdioConfig = {
  mcpServers: { 'woodpecker-demo': { command: 'node', args: serverArgs } },
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
const failing = demo.failing;

process.stdout.write(
  [
    '',
    `Woodpecker ${info.version} is running at ${info.url}`,
    `  admin ${info.adminLogin}: ${info.adminToken}`,
    `  user  ${info.userLogin}: ${info.userToken}`,
    '',
    'Sample data:',
    `  ${demo.green.repo.fullName} (repo_id ${demo.green.repo.repoId}): pipeline ${demo.green.number} succeeded; cron "${demo.cronName}", secret ${demo.secretName}`,
    `  ${failing.repo.fullName} (repo_id ${failing.repo.repoId}): pipeline ${failing.number} failed after pipeline ${demo.lastGreen} passed (try get_pipeline_failure: since_green shows what changed; or search_logs for ECONNREFUSED)`,
    `  ${demo.awaitingApproval.repo.fullName} (repo_id ${demo.awaitingApproval.repo.repoId}): pipeline ${demo.awaitingApproval.number}, a fork pull request, waits for approval (approve_pipeline asks you first)`,
    '',
    'A first call without an AI client (the MCP Inspector CLI; Node 22 and the Inspector are',
    'installed into ~/.cache/woodpecker-ci-mcp on first use):',
    `  bash ${shellWord(`${ROOT}scripts/inspector-cli.sh`)} --tool-arg repo_id=${failing.repo.repoId} number=${failing.number} --method tools/call --tool-name get_pipeline_failure ${serverCommand}`,
    '',
    'Claude Code:',
    `  claude mcp add woodpecker-demo -- ${serverCommand}`,
    '',
    'Stdio: paste into claude_desktop_config.json, .cursor/mcp.json or .mcp.json:',
    JSON.stringify(stdioConfig, null, 2),
    '',
    `These read the address and the admin token from ${ENV_FILE}, which every demo rewrites:`,
    'pasted once, they keep working after the demo restarts (Node reads the file at start).',
    '',
    `HTTP: start the server in another terminal with`,
    `  WOODPECKER_URL=${info.url} node ${shellWord(BIN)} --http --port ${HTTP_PORT}`,
    'then paste into .vscode/mcp.json (other clients: docs/clients.md):',
    JSON.stringify(httpConfig, null, 2),
    'The HTTP configuration carries the token itself: paste it again after a restart.',
    '',
    'The Woodpecker above lasts until Ctrl-C; a new demo has a new address and new tokens.',
    `Ctrl-C stops Woodpecker and removes everything the demo made (its files are in ${info.dir}).`,
    '',
  ].join('\n'),
);
// Keep running until a signal arrives.
setInterval(() => undefined, 1 << 30);
