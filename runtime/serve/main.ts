#!/usr/bin/env node
// Entry point: `woodpecker-ci-mcp` serves stdio; `woodpecker-ci-mcp --http [--port N]
// [--host H]` serves Streamable HTTP (loopback by default).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ConfigError, loadConfig } from './config.js';
import { buildRuntime } from './runtime.js';
import { isLoopbackName } from './hostCheck.js';

const ELICITATION_OFF_NOTICE = 'woodpecker-ci-mcp: ELICITATION=false — guarded tools fall back to the two-call token';

/** How long a stopping server lets calls under way finish before it exits anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

interface CliOptions {
  readonly http: boolean;
  readonly port: number;
  readonly host: string;
}

function parseArgs(argv: readonly string[]): CliOptions {
  let http = false;
  let port = 3030;
  let host = '127.0.0.1';
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--http') http = true;
    else if (arg === '--port') port = parsePort(argv[++index]);
    else if (arg === '--host') host = argv[++index] ?? '';
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('Usage: woodpecker-ci-mcp [--http [--port N] [--host 127.0.0.1]]\nConfiguration comes from the environment; see the README.\n');
      process.exit(0);
    } else throw new ConfigError(`Unknown argument ${String(arg)}. Usage: woodpecker-ci-mcp [--http [--port N] [--host H]]`);
  }
  if (!host) throw new ConfigError('--host needs an address, for example --host 127.0.0.1');
  return { http, port, host };
}

function parsePort(raw: string | undefined): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port needs a port number from 0 to 65535.');
  return port;
}

async function main(): Promise<void> {
  const cli = parseArgs(process.argv.slice(2));
  const config = loadConfig(process.env);
  if (!config.elicitation) process.stderr.write(`${ELICITATION_OFF_NOTICE}\n`);
  const runtime = buildRuntime(config);
  if (!config.woodpeckerUrl) {
    process.stderr.write('woodpecker-ci-mcp: WOODPECKER_URL is not set; tools are listed but calls will explain how to configure the server.\n');
  } else if (sendsTokensInClearText(config.woodpeckerUrl)) {
    // Every call carries a token; over plain http anyone on the path can read it.
    process.stderr.write(
      `woodpecker-ci-mcp: warning: WOODPECKER_URL uses plain http:// to a host that is not this machine; every API token is sent to it unencrypted. Use https:// unless the network path is trusted.\n`,
    );
  }

  if (cli.http) {
    // Loaded only when serving HTTP: a stdio server's cold start does not pay for it.
    const { startHttpServer } = await import('./http.js');
    const server = await startHttpServer({
      host: cli.host,
      port: cli.port,
      factory: runtime.factory,
      policy: config.http,
      verifyToken: (token) => runtime.verifyToken(token),
      onError: (error) => process.stderr.write(`woodpecker-ci-mcp: ${error.message}\n`),
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
  serveStdio(runtime.factory, { onerror: (error) => process.stderr.write(`woodpecker-ci-mcp: ${error.message}\n`) });
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
  process.stderr.write(`woodpecker-ci-mcp: unexpected internal error: ${reason instanceof Error ? reason.message : String(reason)}\n`);
});

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : `failed to start: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`woodpecker-ci-mcp: ${message}\n`);
  process.exit(1);
});
