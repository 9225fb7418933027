// What the executor is built with (ExecutorDeps, once per server) and what each call
// brings (CallContext): the steps of callSteps.ts read both.
import type { AuditLog } from './auditLog.js';
import type { Channel, Gate } from '../gate/gate.js';
import type { OperatorPolicy } from '../policy/operatorPolicy.js';
import type { HandlerRegistry } from './handlerContext.js';
import type { RepositoryScope } from './repositoryScope.js';
import type { ServerVersion } from './serverVersion.js';
import type { ToolDefinition } from '../core/tool.js';
import type { WoodpeckerClient } from '../woodpecker/woodpeckerClient.js';

export interface CallContext {
  /** The Woodpecker token this call runs with (per request in multi-user HTTP mode). */
  readonly token: string | undefined;
  readonly channel: Channel;
  readonly signal: AbortSignal;
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
}

export interface ExecutorDeps {
  readonly client: WoodpeckerClient | undefined;
  readonly gate: Gate;
  readonly toolsByName: ReadonlyMap<string, ToolDefinition>;
  /**
   * The hand-written handlers, by the name tools.yaml gives in `handler:` (runtime/handlers),
   * or how to load them: the server loads them at the first call that needs one, since a
   * start-up that only lists tools has no use for them.
   */
  readonly handlers: HandlerRegistry | (() => Promise<HandlerRegistry>);
  readonly audit: AuditLog | undefined;
  readonly repositoryScope: RepositoryScope | undefined;
  /** WOODPECKER_MCP_MAX_RESULT_BYTES; the default when not given. */
  readonly maxResultBytes?: number;
  /** Refuses arguments the answering Woodpecker release would silently drop. */
  readonly serverVersion?: ServerVersion;
  /** WOODPECKER_MCP_POLICY: the operator's questions, refusals and build limits. */
  readonly policy?: OperatorPolicy;
  /** Told (tool name and system reason) when an audit line could not be written. */
  readonly onAuditFailure?: (toolName: string, reason: string) => void;
}
