// Entry point: `woodpecker-ci-mcp` serves stdio; `woodpecker-ci-mcp --http [--port N]
// [--host H]` serves Streamable HTTP (loopback by default); `doctor` checks the setup
// (see cli.ts for the command line).
import { errorLine } from './errorLine.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ConfigError, loadConfig } from './config.js';
import { buildRuntime, packageVersion } from './buildRuntime.js';
import { helpText, parseCommandLine } from './cli.js';
import { runDoctor } from './doctor.js';
import { answerStartupFailure } from './startupFailure.js';
import { isLoopbackName } from '../http/hostCheck.js';
import { AuditLogUnusable } from '../call/auditLog.js';
import { PolicyFileRefused } from '../policy/policyFile.js';

const ELICITATION_OFF_NOTICE =
  'woodpecker-ci-mcp: ELICITATION=false — guarded tools fall back to the two-call token';

/** How long a stopping server lets calls under way finish before it exits anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

/** How long startup waits for Woodpecker's /version before serving without it. */
const VERSION_READ_MS = 3_000;

async function main(): Promise<void> {
  const cli = parseCommandLine(process.argv.slice(2));
  if (cli.command === 'help') return void process.stdout.write(helpText(packageVersion()));
  if (cli.command === 'version') return void process.stdout.write(`${packageVersion()}\n`);
  if (cli.command === 'doctor') {
    process.exitCode = await runDoctor(process.env, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  const config = loadConfig(process.env);
  if (!config.elicitation) process.stderr.write(`${ELICITATION_OFF_NOTICE}\n`);
  const runtime = buildRuntime(config);
  if (!config.woodpeckerToken) {
    process.stderr.write(
      cli.http
        ? 'woodpecker-ci-mcp: WOODPECKER_TOKEN is not set; each request must bring its own token as "Authorization: Bearer <token>".\n'
        : 'woodpecker-ci-mcp: warning: WOODPECKER_TOKEN is not set; every call that needs an account will fail. Set it to a Woodpecker personal access token (your user settings → Personal access token).\n',
    );
  }
  if (!config.woodpeckerUrl) {
    process.stderr.write(
      'woodpecker-ci-mcp: WOODPECKER_URL is not set; tools are listed but calls will explain how to configure the server.\n',
    );
  } else if (sendsTokensInClearText(config.woodpeckerUrl)) {
    // Every call carries a token; over plain http anyone on the path can read it.
    process.stderr.write(
      `woodpecker-ci-mcp: warning: WOODPECKER_URL uses plain http:// to a host that is not this machine; every API token is sent to it unencrypted. Use https:// unless the network path is trusted.\n`,
    );
  }

  // Before the first session: its tool list leaves out what this Woodpecker lacks.
  await runtime.learnServerVersion(VERSION_READ_MS);

  if (cli.http) {
    // Loaded only when serving HTTP: a stdio server's cold start does not pay for it.
    const { startHttpServer } = await import('../http/httpServer.js');
    const server = await startHttpServer({
      host: cli.host,
      port: cli.port,
      factory: runtime.factory,
      policy: config.http,
      verifyToken: (token) => runtime.verifyToken(token),
      checkWoodpecker: () => runtime.checkWoodpecker(),
      onError: (error) => process.stderr.write(errorLine(error.message)),
    });
    if (!isLoopbackName(cli.host) && config.http.allowedHosts.length === 0) {
      // Off loopback the Host check needs to know the names clients use.
      process.stderr.write(
        `woodpecker-ci-mcp: warning: listening on ${cli.host} without WOODPECKER_MCP_ALLOWED_HOSTS; requests are answered whatever Host they name. List the names clients use (your proxy's), so a DNS-rebinding page cannot reach the server.\n`,
      );
    }
    process.stderr.write(`woodpecker-ci-mcp: serving MCP over HTTP at ${server.url}\n`);
    if (config.woodpeckerToken && !isLoopbackName(cli.host)) {
      // Anyone who can reach the port acts as the token's account.
      process.stderr.write(
        `woodpecker-ci-mcp: warning: listening on ${cli.host} with WOODPECKER_TOKEN set; every client that can reach this port acts as that account. Put authentication in front, or leave WOODPECKER_TOKEN unset so each request brings its own.\n`,
      );
    }
    // Stop accepting, let calls under way finish (a few seconds at most), then exit 0 so
    // that a supervisor reads the stop as the clean one it was.
    onStopSignal(async () => {
      await server.shutdown(SHUTDOWN_GRACE_MS);
      await runtime.close();
    });
    return;
  }
  serveStdio(runtime.factory, {
    onerror: (error) => process.stderr.write(errorLine(error.message)),
  });
  // The client closing our stdin is how an MCP host says goodbye (the stdio binding asks
  // servers to exit promptly then; the SDK aborts calls still under way). The Woodpecker
  // connection pool would otherwise keep the process alive.
  const leave = () => void runtime.close().finally(() => process.exit(0));
  process.stdin.once('end', leave);
  process.stdin.once('close', leave);
  onStopSignal(async () => {
    // Read no further requests; answer the ones under way, for a few seconds at most.
    process.stdin.pause();
    await runtime.callsSettled(SHUTDOWN_GRACE_MS);
    await runtime.close();
  });
}

function onStopSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    void stop()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

function sendsTokensInClearText(woodpeckerUrl: string): boolean {
  const url = new URL(woodpeckerUrl);
  return url.protocol === 'http:' && !isLoopbackName(url.hostname);
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
