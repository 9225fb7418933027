// Entry point: `woodpecker-ci-mcp` serves stdio; `woodpecker-ci-mcp --http [--port N]
// [--host H]` serves Streamable HTTP (loopback by default); `doctor` checks the setup
// (see cli.ts for the command line).
//
// This file imports only what every command needs. `--version` and `--help` answer
// without loading the MCP SDK; serving first sends the reads a tool list waits for
// (startupRead.ts), then loads the SDK and the tool catalogue while the answers travel.
import { ConfigError, loadConfig } from './config.js';
import { helpText, parseCommandLine } from './cli.js';
import { packageVersion } from './packageVersion.js';
import { answerStartupFailure } from './startupFailure.js';
import { startStartupReads, STARTUP_READ_MS } from '../woodpecker/startupRead.js';
import { AuditLogUnusable } from '../call/auditLog.js';
import { PolicyFileRefused } from '../policy/policyFile.js';

async function main(): Promise<void> {
  const cli = parseCommandLine(process.argv.slice(2));
  if (cli.command === 'help') return void process.stdout.write(helpText(packageVersion()));
  if (cli.command === 'version') return void process.stdout.write(`${packageVersion()}\n`);
  if (cli.command === 'doctor') {
    const { runDoctor } = await import('./doctor.js');
    process.exitCode = await runDoctor(process.env, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  const config = loadConfig(process.env);
  // The first tools/list waits for these answers: ask now, load the server meanwhile.
  const startupReads = config.woodpeckerUrl
    ? startStartupReads(
        {
          baseUrl: config.woodpeckerUrl,
          insecureTls: config.insecureTls,
          timeoutMs: STARTUP_READ_MS,
        },
        config.hideAdminTools ? config.woodpeckerToken : undefined,
      )
    : undefined;
  const { serve } = await import('./serve.js');
  await serve(cli, config, startupReads);
}

// A stray rejection must not take down a server that other calls depend on; report it
// (message only, no request data) and keep serving.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `woodpecker-ci-mcp: unexpected internal error: ${reason instanceof Error ? reason.message : String(reason)}\n`,
  );
});

main().catch(async (error: unknown) => {
  const message =
    error instanceof ConfigError ||
    error instanceof AuditLogUnusable ||
    error instanceof PolicyFileRefused
      ? error.message
      : `failed to start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`woodpecker-ci-mcp: ${message}\n`);
  // Over stdio the client would otherwise see only "Connection closed"; over HTTP (or for
  // a command that is not serving) nobody is waiting on stdin.
  const argv = process.argv.slice(2);
  if (argv.length === 0) await answerStartupFailure(message).catch(() => undefined);
  process.exit(1);
});
