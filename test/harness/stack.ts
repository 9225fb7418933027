import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startForgeStandIn, type ForgeStandIn } from './forge/forge-server.js';
import { startWoodpeckerAgent, waitForAgentRegistration } from './woodpecker-agent-process.js';
import { reportedVersion, woodpeckerBinaries } from './woodpecker-binaries.js';
import { loginAndCreateApiToken } from './woodpecker-login.js';
import { startWoodpeckerServer } from './woodpecker-server-process.js';

/** What test files need to reach the stack. JSON-serializable: it crosses into vitest workers. */
export interface HarnessInfo {
  /** Woodpecker server root, e.g. http://127.0.0.1:41234 (the API is under /api). */
  url: string;
  /** Version the server reports at GET /version, e.g. "3.17.0". */
  version: string;
  adminLogin: string;
  adminToken: string;
  userLogin: string;
  userToken: string;
  /** Root of the forge stand-in; its control API is under /_harness. */
  forgeUrl: string;
  agentName: string;
  /** Temp dir with woodpecker-server.log, woodpecker-agent.log and forge.log. */
  dir: string;
}

export interface Stack extends HarnessInfo {
  forge: ForgeStandIn;
  stop(): Promise<void>;
}

export interface StartStackOptions {
  /** Woodpecker tag or version, e.g. "v3.11.0"; the pinned one by default. */
  version?: string;
  /**
   * Aborted (a demo's Ctrl-C): whatever already runs is stopped and the temp dir removed at
   * once, the start gives up at its next step, and the promise rejects with the reason.
   */
  signal?: AbortSignal;
}

const adminLogin = 'wp-admin';
const userLogin = 'wp-user';

/**
 * Starts the forge stand-in, a Woodpecker server and a local-backend agent on free loopback
 * ports in a new temp dir, and logs in an admin and a normal user. If any step fails,
 * everything already started is stopped and the error carries the relevant log tail.
 */
export async function startStack(options: StartStackOptions = {}): Promise<Stack> {
  const binaries = woodpeckerBinaries(options.version);
  const dir = mkdtempSync(join(tmpdir(), 'woodpecker-stack-'));
  const stoppers: Array<() => Promise<void>> = [];
  // One stop at a time: an abort's stop and the failed start's stop after it must not
  // remove the directory while the other is still stopping a process that writes there.
  let stopped = Promise.resolve();
  const stopAll = (): Promise<void> =>
    (stopped = stopped.then(async () => {
      // Newest first: the agent before the server before the forge.
      for (let stop = stoppers.pop(); stop; stop = stoppers.pop())
        await stop().catch(() => undefined);
      // Retried: a server still shutting down when its stop() gave up waiting writes (and
      // later removes) its database journal, and one pass then ends in ENOTEMPTY.
      if (process.env.WOODPECKER_HARNESS_KEEP_DIR !== '1')
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
    }));
  const signal = options.signal;
  const onAbort = () => void stopAll();
  signal?.addEventListener('abort', onAbort, { once: true });
  /** After each step: stopped meanwhile? Then give up (the catch below stops the rest). */
  const going = () => signal?.throwIfAborted();

  try {
    going();
    const forge = await startForgeStandIn({ logFile: join(dir, 'forge.log') });
    stoppers.push(() => forge.stop());
    going();
    forge.state.addUser(adminLogin);
    forge.state.addUser(userLogin);

    const agentSecret = randomBytes(24).toString('hex');
    const serverDir = join(dir, 'server');
    const server = await startWoodpeckerServer({
      binary: binaries.server,
      dir: serverDir,
      forgeUrl: forge.url,
      agentSecret,
      adminLogins: [adminLogin],
      oauthClientId: 'woodpecker-harness',
      oauthClientSecret: randomBytes(16).toString('hex'),
      signal,
    });
    stoppers.push(() => server.stop());
    going();

    const version = ((await (await fetch(`${server.url}/version`)).json()) as { version: string })
      .version;
    const expected = reportedVersion(binaries.tag);
    if (version !== expected)
      throw new Error(
        `server at ${binaries.server} reports ${version}, expected ${expected} (${binaries.tag})`,
      );

    const adminToken = await loginAndCreateApiToken(server.url, adminLogin);
    const userToken = await loginAndCreateApiToken(server.url, userLogin);
    going();

    const agentDir = join(dir, 'agent');
    mkdirSync(agentDir);
    const agent = startWoodpeckerAgent({
      binary: binaries.agent,
      dir: agentDir,
      grpcAddress: server.grpcAddress,
      agentSecret,
      name: `harness-agent-${randomBytes(4).toString('hex')}`,
    });
    stoppers.push(() => agent.stop());
    await waitForAgentRegistration(agent, server.url, adminToken, undefined, signal);
    going();

    return {
      url: server.url,
      version,
      adminLogin,
      adminToken,
      userLogin,
      userToken,
      forgeUrl: forge.url,
      agentName: agent.name,
      dir,
      forge,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The serializable part of a stack, for vitest's provide(). */
export function harnessInfoOf(stack: Stack): HarnessInfo {
  const { forge: _forge, stop: _stop, ...info } = stack;
  return info;
}
