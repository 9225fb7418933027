// Wires the pieces together from a Config: the Woodpecker client, the gate and its
// sealer, the optional audit log and repository allowlist, the selected tools, and the
// MCP server factory both transports use.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { tools as allTools } from '../../generated/index.js';
import { AuditLog } from '../call/auditLog.js';
import type { Config } from './config.js';
import { Executor } from '../call/executor.js';
import { APPROVAL_TTL_SECONDS, Gate } from '../gate/gate.js';
import { Sealer } from '../gate/seal.js';
import { RepositoryScope } from '../call/repositoryScope.js';
import { CallsUnderWay } from './callsUnderWay.js';
import { ServerVersion } from '../call/serverVersion.js';
import { createServerFactory } from './server.js';
import type { ToolDefinition } from '../tool.js';
import { selectTools } from './toolSelection.js';
import { WoodpeckerClient, WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';

export interface Runtime {
  readonly factory: McpServerFactory;
  readonly tools: readonly ToolDefinition[];
  readonly version: string;
  /** Resolves when no tool call is under way, or after `timeoutMs`. */
  callsSettled(timeoutMs: number): Promise<void>;
  /** Whether Woodpecker accepts a token: false when it refuses it, undefined when it cannot tell. */
  verifyToken(token: string): Promise<boolean | undefined>;
  /**
   * Reads Woodpecker's /version (at most `timeoutMs`), so that sessions opened afterwards
   * list only the tools this server has. Once per process: every Bearer in multi-user mode
   * reaches the same WOODPECKER_URL.
   */
  learnServerVersion(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeOverrides {
  /** For tests: the clock the sealer uses (approval expiry). */
  readonly now?: () => number;
}

export function buildRuntime(config: Config, overrides: RuntimeOverrides = {}): Runtime {
  const tools = selectTools(allTools, config);
  const toolsByName = new Map(allTools.map((tool) => [tool.name, tool] as const));
  const client = config.woodpeckerUrl
    ? new WoodpeckerClient({
        baseUrl: config.woodpeckerUrl,
        insecureTls: config.insecureTls,
        timeoutMs: config.requestTimeoutMs,
        maxBodyBytes: config.maxResponseBytes,
      })
    : undefined;
  const serverVersion = new ServerVersion();
  const sealer = new Sealer(config.sealKey, APPROVAL_TTL_SECONDS * 1000, overrides.now);
  const executor = new Executor({
    client,
    gate: new Gate({ elicitationEnabled: config.elicitation, sealer }),
    toolsByName,
    audit: config.auditLogPath ? new AuditLog(config.auditLogPath) : undefined,
    repositoryScope: config.repositories ? new RepositoryScope(config.repositories, toolsByName) : undefined,
    maxResultBytes: config.maxResultBytes,
    serverVersion,
  });
  const version = packageVersion();
  const calls = new CallsUnderWay();
  const countedExecutor = { run: (...args: Parameters<Executor['run']>) => calls.track(executor.run(...args)) };
  return {
    factory: createServerFactory({
      version,
      tools,
      executor: countedExecutor,
      defaultToken: config.woodpeckerToken,
      offers: (tool) => serverVersion.offers(tool),
    }),
    learnServerVersion: async (timeoutMs) => {
      if (!client) return;
      const learnt = serverVersion.learn((request) => client.send(request, { token: undefined })).then(() => undefined);
      await Promise.race([learnt, new Promise<void>((done) => setTimeout(done, timeoutMs).unref())]);
    },
    callsSettled: (timeoutMs) => calls.settled(timeoutMs),
    tools,
    version,
    verifyToken: async (token) => {
      if (!client) return undefined;
      try {
        await client.send({ method: 'GET', path: '/api/user' }, { token });
        return true;
      } catch (error) {
        if (error instanceof WoodpeckerHttpError && (error.status === 401 || error.status === 403)) return false;
        return undefined;
      }
    },
    close: async () => client?.close(),
  };
}

function packageVersion(): string {
  // runtime/serve/ under tsx, dist/runtime/serve/ when built: look upwards for our package.json.
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'woodpecker-ci-mcp' && parsed.version) return parsed.version;
    }
    directory = dirname(directory);
  }
  return '0.0.0';
}
