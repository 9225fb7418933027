import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startLoggedProcess, tailOfFile, type LoggedProcess } from './child-process.js';
import { redactSecrets } from './redact.js';
import { GiveUpWaiting, waitUntil } from './wait-until.js';

export interface WoodpeckerAgentOptions {
  binary: string;
  /** A fresh directory: cwd, agent.conf, log file and the local backend's workflow dirs. */
  dir: string;
  grpcAddress: string;
  agentSecret: string;
  /** Agent name as registered with the server; unique per stack so two stacks never confuse theirs. */
  name: string;
  maxWorkflows?: number;
}

export interface WoodpeckerAgentProcess {
  name: string;
  /** The agent process running now (a new one after a crash). */
  readonly process: LoggedProcess;
  stop(): Promise<void>;
}

/** How often a crashed agent is started again before the harness lets it stay down. */
const MAX_AGENT_RESTARTS = 20;

/**
 * The agent, started again whenever it dies on its own. Woodpecker 3.11's local backend
 * panics (nil dereference in WaitStep, pipeline/backend/local/local.go:174) when a running
 * step is cancelled; the agent process exits, and without a restart every later pipeline
 * of the shared stack stays pending until its test times out. Same directory and
 * agent.conf, so the server sees the same agent come back. Each restart is noted in the
 * agent's log.
 */
export function startWoodpeckerAgent(options: WoodpeckerAgentOptions): WoodpeckerAgentProcess {
  let current = startAgentProcess(options);
  let stopping = false;
  let restarts = 0;
  const watch = (agent: LoggedProcess): void => {
    void agent.exited.then((how) => {
      if (stopping || restarts >= MAX_AGENT_RESTARTS) return;
      restarts++;
      appendFileSync(
        agent.logFile,
        `\n--- harness: woodpecker-agent exited (${how}); starting it again (restart ${restarts}) ---\n`,
      );
      current = startAgentProcess(options);
      watch(current);
    });
  };
  watch(current);
  return {
    name: options.name,
    get process() {
      return current;
    },
    stop: async () => {
      stopping = true;
      await current.stop();
    },
  };
}

function startAgentProcess(options: WoodpeckerAgentOptions): LoggedProcess {
  mkdirSync(join(options.dir, 'workflows'), { recursive: true });
  // The local backend hands this whole environment to every step, so keep it small and
  // free of anything inherited from the developer's shell.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.dir,
    WOODPECKER_SERVER: options.grpcAddress,
    WOODPECKER_AGENT_SECRET: options.agentSecret,
    WOODPECKER_BACKEND: 'local',
    WOODPECKER_BACKEND_LOCAL_TEMP_DIR: join(options.dir, 'workflows'),
    // A fresh config file per run: a stale agent id from another server would make the agent exit.
    WOODPECKER_AGENT_CONFIG_FILE: join(options.dir, 'agent.conf'),
    // Its default listener is :3000 on every interface; nothing here needs it.
    WOODPECKER_HEALTHCHECK: 'false',
    WOODPECKER_HOSTNAME: options.name,
    WOODPECKER_MAX_WORKFLOWS: String(options.maxWorkflows ?? 2),
    WOODPECKER_LOG_LEVEL: 'info',
    WOODPECKER_DEBUG_NOCOLOR: 'true',
  };
  const agent = startLoggedProcess({
    name: 'woodpecker-agent',
    command: options.binary,
    cwd: options.dir,
    env,
    logFile: join(options.dir, 'woodpecker-agent.log'),
  });
  return agent;
}

interface AgentRow {
  name?: string;
  backend?: string;
  platform?: string;
}

/** Waits until the server lists the agent as registered with the local backend. */
export async function waitForAgentRegistration(
  agent: WoodpeckerAgentProcess,
  serverUrl: string,
  adminToken: string,
  timeoutMs = 60_000,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await waitUntil(
      `agent ${agent.name} to register`,
      async () => {
        if (agent.process.hasExited())
          throw new GiveUpWaiting(`woodpecker-agent exited (${await agent.process.exited})`);
        const response = await fetch(`${serverUrl}/api/agents?perPage=50`, {
          headers: { Authorization: `Bearer ${adminToken}` },
          signal: AbortSignal.timeout(2000),
        });
        if (!response.ok) return undefined;
        const agents = (await response.json()) as AgentRow[];
        return agents.some((row) => row.name === agent.name && row.backend === 'local')
          ? true
          : undefined;
      },
      { timeoutMs, intervalMs: 250, signal },
    );
  } catch (error) {
    throw new Error(
      `woodpecker-agent did not register: ${(error as Error).message}\n--- tail of ${agent.process.logFile} ---\n` +
        redactSecrets(tailOfFile(agent.process.logFile)),
    );
  }
}
