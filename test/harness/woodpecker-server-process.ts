import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startLoggedProcess, tailOfFile, type LoggedProcess } from './child-process.js';
import { freeLoopbackPort } from './free-port.js';
import { redactSecrets } from './redact.js';
import { GiveUpWaiting, waitUntil } from './wait-until.js';

export interface WoodpeckerServerOptions {
  binary: string;
  /** A fresh directory: the server's cwd (it loads ./.env from there), its SQLite file and its log. */
  dir: string;
  forgeUrl: string;
  agentSecret: string;
  /** Logins that become instance admins when they first log in. */
  adminLogins: string[];
  oauthClientId: string;
  oauthClientSecret: string;
  startTimeoutMs?: number;
  /** Aborted: stop waiting for it to come up, and stop it. */
  signal?: AbortSignal | undefined;
}

export interface WoodpeckerServerProcess {
  url: string;
  grpcAddress: string;
  process: LoggedProcess;
  stop(): Promise<void>;
}

export async function startWoodpeckerServer(
  options: WoodpeckerServerOptions,
): Promise<WoodpeckerServerProcess> {
  mkdirSync(options.dir, { recursive: true });
  const httpPort = await freeLoopbackPort();
  const grpcPort = await freeLoopbackPort();
  const url = `http://127.0.0.1:${httpPort}`;
  const grpcAddress = `127.0.0.1:${grpcPort}`;
  const logFile = join(options.dir, 'woodpecker-server.log');

  // Built from scratch rather than inherited, so WOODPECKER_* variables in the developer's
  // shell cannot change what the tests run against.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.dir,
    WOODPECKER_HOST: url,
    WOODPECKER_SERVER_ADDR: `127.0.0.1:${httpPort}`,
    WOODPECKER_GRPC_ADDR: grpcAddress,
    WOODPECKER_DATABASE_DRIVER: 'sqlite3',
    // The agent's status updates and the API write at the same time; without a busy
    // timeout SQLite answers "database is locked" and Woodpecker turns that into a 500.
    // Immediate transactions take the write lock up front, so the busy timeout can wait
    // for it instead of failing a read transaction that later wants to write.
    WOODPECKER_DATABASE_DATASOURCE: `${join(options.dir, 'woodpecker.sqlite')}?_busy_timeout=10000&_journal_mode=WAL&_txlock=immediate`,
    WOODPECKER_GITEA: 'true',
    WOODPECKER_GITEA_URL: options.forgeUrl,
    WOODPECKER_GITEA_CLIENT: options.oauthClientId,
    WOODPECKER_GITEA_SECRET: options.oauthClientSecret,
    WOODPECKER_AGENT_SECRET: options.agentSecret,
    WOODPECKER_ADMIN: options.adminLogins.join(','),
    WOODPECKER_OPEN: 'true',
    WOODPECKER_ENABLE_SWAGGER: 'true',
    WOODPECKER_LOG_LEVEL: 'info',
    WOODPECKER_DEBUG_NOCOLOR: 'true',
  };
  const server = startLoggedProcess({
    name: 'woodpecker-server',
    command: options.binary,
    cwd: options.dir,
    env,
    logFile,
  });

  try {
    await waitUntil(
      'woodpecker-server GET /healthz → 204',
      async () => {
        if (server.hasExited())
          throw new GiveUpWaiting(`woodpecker-server exited (${await server.exited})`);
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
        return response.status === 204 ? true : undefined;
      },
      { timeoutMs: options.startTimeoutMs ?? 60_000, intervalMs: 150, signal: options.signal },
    );
  } catch (error) {
    await server.stop();
    throw new Error(
      `woodpecker-server did not become healthy: ${(error as Error).message}\n--- tail of ${logFile} ---\n` +
        redactSecrets(tailOfFile(logFile)),
    );
  }
  return { url, grpcAddress, process: server, stop: () => server.stop() };
}
