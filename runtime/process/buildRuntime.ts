// Wires the pieces together from a Config: the Woodpecker client, the gate and its
// sealer, the optional audit log and repository allowlist, the selected tools, and the
// MCP server factory both transports use.
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { tools as allTools } from '../../generated/index.js';
import { AuditLog } from '../call/auditLog.js';
import type { Config } from './config.js';
import { Executor } from '../call/executor.js';
import { APPROVAL_TTL_SECONDS, Gate } from '../gate/gate.js';
import { Sealer, sealKeyFor } from '../gate/seal.js';
import { sharedSpentDirectory, SpentApprovals } from '../gate/spentApprovals.js';
import { tmpdir } from 'node:os';
import { loadPolicyFile } from '../policy/policyFile.js';
import { OperatorPolicy, withPolicyQuestion } from '../policy/operatorPolicy.js';
import { RepositoryScope } from '../call/repositoryScope.js';
import { CallsUnderWay } from '../http/callsUnderWay.js';
import { ServerVersion } from '../call/serverVersion.js';
import { createServerFactory } from '../mcp/server.js';
import { AccountLookup, accountFrom } from '../mcp/accountLookup.js';
import type { ToolDefinition } from '../core/tool.js';
import type { WoodpeckerHealth } from '../http/health.js';
import { packageVersion } from './packageVersion.js';
import { selectTools } from './toolSelection.js';
import { checkSelection } from './selectionCheck.js';
import { WoodpeckerClient, WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';
import { readJson, type StartupReads } from '../woodpecker/startupRead.js';
import { CURRENT_USER } from '../woodpecker/currentUser.js';

export interface Runtime {
  readonly factory: McpServerFactory;
  readonly tools: readonly ToolDefinition[];
  readonly version: string;
  /** Resolves when no tool call is under way, or after `timeoutMs`. */
  callsSettled(timeoutMs: number): Promise<void>;
  /**
   * Whose a token is: the Woodpecker account (a key shared by all of its tokens), false
   * when Woodpecker refuses the token, undefined when it cannot tell.
   */
  verifyToken(token: string): Promise<string | false | undefined>;
  /** Whether Woodpecker answers its health check (for the HTTP transport's /readyz). */
  checkWoodpecker(): Promise<WoodpeckerHealth>;
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
  /** The reads main.ts sent before loading the server (startupRead.ts), used once each. */
  readonly startupReads?: StartupReads | undefined;
  /** For tests: where spent approvals are shared between processes (else the temp folder). */
  readonly spentDirectory?: string;
}

export function buildRuntime(config: Config, overrides: RuntimeOverrides = {}): Runtime {
  // Read before anything is served: a policy file that is refused stops startup.
  const loaded = config.policyPath ? loadPolicyFile(config.policyPath, allTools) : undefined;
  const policy = loaded && new OperatorPolicy(loaded.file, loaded.rules, overrides.now);
  // A tool the policy may ask about takes a confirm_token, like a guarded one.
  const catalogue = policy ? allTools.map((tool) => withPolicyQuestion(tool, policy)) : allTools;
  const tools = selectTools(catalogue, config);
  checkSelection(catalogue, config, tools);
  const toolsByName = new Map(catalogue.map((tool) => [tool.name, tool] as const));
  const client = config.woodpeckerUrl
    ? new WoodpeckerClient({
        baseUrl: config.woodpeckerUrl,
        insecureTls: config.insecureTls,
        timeoutMs: config.requestTimeoutMs,
        maxBodyBytes: config.maxResponseBytes,
      })
    : undefined;
  // Opened here, before any tool is served: an unusable path stops startup.
  const audit = config.auditLogPath ? new AuditLog(config.auditLogPath) : undefined;
  const sealKey = sealKeyFor(config.sealKey, config.woodpeckerToken);
  const sealer = new Sealer(
    sealKey.key,
    APPROVAL_TTL_SECONDS * 1000,
    overrides.now,
    sealKey.source,
  );
  const serverVersion = new ServerVersion();
  const executor = new Executor({
    client,
    gate: new Gate({
      elicitationEnabled: config.elicitation,
      sealer,
      // A random key opens only this process's seals; any other key opens them in every
      // process that has it, so those processes share what they spent.
      spent: new SpentApprovals(
        overrides.now,
        sealKey.source === 'random'
          ? undefined
          : (overrides.spentDirectory ?? sharedSpentDirectory(tmpdir(), process.getuid?.())),
      ),
      ...(config.woodpeckerUrl ? { webUrl: config.woodpeckerUrl } : {}),
    }),
    ...(policy ? { policy } : {}),
    toolsByName,
    // Loaded by the first call that runs a handler; a start-up that lists tools compiles none.
    handlers: () => import('../handlers/index.js').then((module) => module.handlers),
    audit,
    onAuditFailure: (toolName, reason) =>
      process.stderr.write(
        `woodpecker-ci-mcp: error: the audit line of a ${toolName} call could not be written to WOODPECKER_MCP_AUDIT_LOG (${reason}).\n`,
      ),
    repositoryScope: config.repositories
      ? new RepositoryScope(config.repositories, toolsByName)
      : undefined,
    maxResultBytes: config.maxResultBytes,
    serverVersion,
  });
  const version = packageVersion();
  const accounts = client
    ? new AccountLookup(async (token) =>
        accountFrom((await client.send(CURRENT_USER, { token })).body),
      )
    : undefined;
  const startupUser = overrides.startupReads?.user;
  if (accounts && startupUser && config.woodpeckerToken)
    accounts.prime(
      config.woodpeckerToken,
      startupUser.then((answer) => accountFrom(answer.body)),
    );
  const calls = new CallsUnderWay();
  const countedExecutor = {
    run: (...args: Parameters<Executor['run']>) => calls.track(executor.run(...args)),
  };
  return {
    factory: createServerFactory({
      version,
      tools,
      executor: countedExecutor,
      defaultToken: config.woodpeckerToken,
      accounts,
      hideAdminTools: config.hideAdminTools,
      dynamicTools: config.dynamicTools,
      offers: (tool) => serverVersion.offers(tool),
      woodpeckerUrl: config.woodpeckerUrl,
    }),
    learnServerVersion: async (timeoutMs) => {
      if (!config.woodpeckerUrl) return;
      const answer =
        overrides.startupReads?.version ??
        readJson(
          { baseUrl: config.woodpeckerUrl, insecureTls: config.insecureTls, timeoutMs },
          '/version',
          undefined,
        );
      const learnt = serverVersion.learn(() => answer).then(() => undefined);
      await Promise.race([
        learnt,
        new Promise<void>((done) => setTimeout(done, timeoutMs).unref()),
      ]);
    },
    callsSettled: (timeoutMs) => calls.settled(timeoutMs),
    tools,
    version,
    verifyToken: async (token) => {
      if (!client) return undefined;
      try {
        return accountKeyFrom((await client.send(CURRENT_USER, { token })).body);
      } catch (error) {
        if (error instanceof WoodpeckerHttpError && (error.status === 401 || error.status === 403))
          return false;
        return undefined;
      }
    },
    checkWoodpecker: async () => {
      if (!client) return 'not configured';
      try {
        // Woodpecker's own probe: 204 when its database answers. No token is sent.
        await client.send({ method: 'GET', path: '/healthz' }, { token: undefined });
        return 'reachable';
      } catch {
        return 'unreachable';
      }
    },
    close: async () => {
      audit?.close();
      await client?.close();
    },
  };
}

/**
 * The account a /api/user answer names, as a key for the per-account session cap: its id
 * (stable across renames), else its login; undefined when the answer has neither.
 */
function accountKeyFrom(body: unknown): string | undefined {
  const user = body as { id?: unknown; login?: unknown } | null;
  if (typeof user?.id === 'number' || (typeof user?.id === 'string' && user.id !== ''))
    return `woodpecker-user-id:${user.id}`;
  if (typeof user?.login === 'string' && user.login !== '') return `woodpecker-login:${user.login}`;
  return undefined;
}
