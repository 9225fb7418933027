import { mkdirSync } from 'node:fs';
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
  process: LoggedProcess;
  stop(): Promise<void>;
}

export function startWoodpeckerAgent(options: WoodpeckerAgentOptions): WoodpeckerAgentProcess {
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
  return { name: options.name, process: agent, stop: () => agent.stop() };
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
): Promise<void> {
  try {
    await waitUntil(
      `agent ${agent.name} to register`,
      async () => {
        if (agent.process.hasExited()) throw new GiveUpWaiting(`woodpecker-agent exited (${await agent.process.exited})`);
        const response = await fetch(`${serverUrl}/api/agents?perPage=50`, {
          headers: { Authorization: `Bearer ${adminToken}` },
          signal: AbortSignal.timeout(2000),
        });
        if (!response.ok) return undefined;
        const agents = (await response.json()) as AgentRow[];
        return agents.some((row) => row.name === agent.name && row.backend === 'local') ? true : undefined;
      },
      { timeoutMs, intervalMs: 250 },
    );
  } catch (error) {
    throw new Error(
      `woodpecker-agent did not register: ${(error as Error).message}\n--- tail of ${agent.process.logFile} ---\n` +
        redactSecrets(tailOfFile(agent.process.logFile)),
    );
  }
}
