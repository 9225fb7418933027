// What the demo prints once its Woodpecker is ready: the addresses and tokens, the sample
// data, and commands and configurations that work when pasted. The stdio configurations
// name neither address nor token: Node reads both from the env file at start, and every
// demo rewrites that file, so a configuration pasted once survives a restart.
import type { DemoData } from '../../test/harness/demoData.js';
import type { HarnessInfo } from '../../test/harness/stack.js';

/** Quoted for a POSIX shell when it has to be. */
const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

export interface ReadyTextInput {
  /** The checkout, ending in "/". */
  root: string;
  envFile: string;
  port: number;
  info: HarnessInfo;
  demo: DemoData;
}

export function readyText({ root, envFile, port, info, demo }: ReadyTextInput): string {
  const bin = `${root}bin/woodpecker-ci-mcp.js`;
  const serverArgs = [`--env-file=${envFile}`, bin];
  const serverCommand = ['node', ...serverArgs].map(shellWord).join(' ');
  const stdioConfig = { mcpServers: { 'woodpecker-demo': { command: 'node', args: serverArgs } } };
  const vscodeStdio = {
    servers: { 'woodpecker-demo': { type: 'stdio', command: 'node', args: serverArgs } },
  };
  const httpConfig = {
    servers: {
      'woodpecker-demo': {
        type: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: `Bearer ${info.adminToken}` },
      },
    },
  };
  const { green, failing, awaitingApproval } = demo;
  return [
    '',
    `Woodpecker ${info.version} is running at ${info.url}`,
    `  admin ${info.adminLogin}: ${info.adminToken}`,
    `  user  ${info.userLogin}: ${info.userToken}`,
    '',
    'Sample data:',
    `  ${green.repo.fullName} (repo_id ${green.repo.repoId}): pipeline ${green.number} succeeded; cron "${demo.cronName}", secret ${demo.secretName}`,
    `  ${failing.repo.fullName} (repo_id ${failing.repo.repoId}): pipeline ${failing.number} failed after pipeline ${demo.lastGreen} passed (try get_pipeline_failure: since_green shows what changed; or search_logs for ECONNREFUSED)`,
    `  ${awaitingApproval.repo.fullName} (repo_id ${awaitingApproval.repo.repoId}): pipeline ${awaitingApproval.number}, a fork pull request, waits for approval (approve_pipeline asks you first)`,
    '',
    'A first call without an AI client (the MCP Inspector CLI; the first use downloads Node 22',
    'and the Inspector, about 296 MB, into ~/.cache/woodpecker-ci-mcp and says so):',
    `  bash ${shellWord(`${root}scripts/inspector-cli.sh`)} --tool-arg repo_id=${failing.repo.repoId} number=${failing.number} --method tools/call --tool-name get_pipeline_failure ${serverCommand}`,
    '',
    'Claude Code:',
    `  claude mcp add woodpecker-demo -- ${serverCommand}`,
    '',
    'Stdio: paste into claude_desktop_config.json, .cursor/mcp.json or .mcp.json:',
    JSON.stringify(stdioConfig, null, 2),
    '',
    'VS Code, stdio: paste into .vscode/mcp.json:',
    JSON.stringify(vscodeStdio, null, 2),
    '',
    `These read the address and the admin token from ${envFile}, which every demo rewrites:`,
    'pasted once, they keep working after the demo restarts (Node reads the file at start).',
    '',
    `HTTP: start the server in another terminal with`,
    `  WOODPECKER_URL=${info.url} node ${shellWord(bin)} --http --port ${port}`,
    'then paste into .vscode/mcp.json (other clients: docs/clients.md):',
    JSON.stringify(httpConfig, null, 2),
    'The HTTP configuration carries the token itself: paste it again after a restart.',
    '',
    'The Woodpecker above lasts until Ctrl-C; a new demo has a new address and new tokens.',
    '',
  ].join('\n');
}
