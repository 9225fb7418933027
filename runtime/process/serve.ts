// Serving MCP, over stdio or Streamable HTTP, once main.ts has read the command line and
// the configuration. Loaded only to serve: `--version`, `--help` and `doctor` do not pay
// for the SDK and the tool catalogue this brings in.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { stdioWire } from './stdioWire.js';
import { errorLine } from './errorLine.js';
import type { Config } from './config.js';
import { buildRuntime } from './buildRuntime.js';
import type { ServeCommand } from './cli.js';
import { isLoopbackName } from '../http/hostCheck.js';
import { STARTUP_READ_MS, type StartupReads } from '../woodpecker/startupRead.js';

const ELICITATION_OFF_NOTICE =
  'woodpecker-ci-mcp: ELICITATION=false — guarded tools fall back to the two-call token';

/** How long a stopping server lets calls under way finish before it exits anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Serves until the client leaves or a stop signal arrives. `startupReads` are the GETs
 * main sent before loading this module (undefined without WOODPECKER_URL).
 */
export async function serve(
  cli: ServeCommand,
  config: Config,
  startupReads: StartupReads | undefined,
): Promise<void> {
  if (!config.elicitation) process.stderr.write(`${ELICITATION_OFF_NOTICE}\n`);
  const runtime = buildRuntime(config, { startupReads });
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
  await runtime.learnServerVersion(STARTUP_READ_MS);

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
      ...testKeepAlive(process.env.MCP_TEST_SSE_KEEPALIVE_MS),
    });
    if (!isLoopbackName(cli.host) && config.http.allowedHosts.length === 0) {
      // Off loopback the Host check needs to know the names clients use.
      process.stderr.write(
        `woodpecker-ci-mcp: warning: listening on ${cli.host} without WOODPECKER_MCP_ALLOWED_HOSTS; requests are answered whatever Host they name. List the names clients use (your proxy's), so a DNS-rebinding page cannot reach the server.\n`,
      );
    }
    if (config.woodpeckerToken) {
      // Anyone who can reach the port acts as the token's account: off loopback, anyone on
      // the network; on loopback, every program and user of this machine. Following "Run
      // it" in order leaves the stdio setup's WOODPECKER_TOKEN exported, so say it here too.
      process.stderr.write(
        isLoopbackName(cli.host)
          ? `woodpecker-ci-mcp: warning: serving HTTP with WOODPECKER_TOKEN set; every request without an Authorization header acts as that account, from any program or user on this machine. If requests are to bring their own token, stop and \`unset WOODPECKER_TOKEN\` first.\n`
          : `woodpecker-ci-mcp: warning: listening on ${cli.host} with WOODPECKER_TOKEN set; every client that can reach this port acts as that account. Put authentication in front, or leave WOODPECKER_TOKEN unset so each request brings its own.\n`,
      );
    }
    process.stderr.write(`woodpecker-ci-mcp: serving MCP over HTTP at ${server.url}\n`);
    // Stop accepting, let calls under way finish (a few seconds at most), then exit 0 so
    // that a supervisor reads the stop as the clean one it was.
    onStopSignal(async () => {
      await server.shutdown(SHUTDOWN_GRACE_MS);
      await runtime.close();
    });
    return;
  }
  serveStdio(runtime.factory, {
    transport: stdioWire(),
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

/**
 * MCP_TEST_SSE_KEEPALIVE_MS, for tests only (not a setting: --help and the README leave it
 * out): the keep-alive interval of idle event streams. test/e2e/go-sdk-client.test.ts sets
 * it to a minute, so that a stream whose head waits for its first event, or a listening
 * stream that blocks its replacement until a write fails, hangs the Go client for a minute
 * instead of the default 15 s. Anything but a whole number of 1 ms to 1 h is ignored.
 */
function testKeepAlive(value: string | undefined): { keepAliveMs?: number } {
  const ms = Number(value);
  return value && Number.isInteger(ms) && ms >= 1 && ms <= 3_600_000 ? { keepAliveMs: ms } : {};
}

function sendsTokensInClearText(woodpeckerUrl: string): boolean {
  const url = new URL(woodpeckerUrl);
  return url.protocol === 'http:' && !isLoopbackName(url.hostname);
}
