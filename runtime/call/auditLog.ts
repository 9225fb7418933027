// An append-only JSON-lines record of every call that can change something: when, which
// tool, on what, what happened, Woodpecker's status and how it was approved. Targets
// are ids and names only; secret values, passwords and tokens never reach the file.
import { appendFileSync } from 'node:fs';
import type { ToolArgs, ToolDefinition } from '../tool.js';

export interface AuditEntry {
  readonly tool: ToolDefinition;
  readonly args: ToolArgs;
  /** done, failed, outcome unknown (a write that broke after it was sent), declined, cancelled, token issued */
  readonly outcome: string;
  readonly status: number | undefined;
  /** dialog, sealed answer, token, harmless direction, not guarded; absent when it did not run */
  readonly approval: string | undefined;
}

/** Arguments that say which object a call touches, for tools without declared targets. */
const TARGET_ARGUMENT = /(_id|^number|^login|^scope|^to|^name|^address|^level)$/;
const NEVER_LOGGED = new Set(['value', 'password', 'oauth_client_secret', 'confirm_token', 'token']);

export class AuditLog {
  constructor(
    private readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  record(entry: AuditEntry): void {
    const line = {
      time: this.now().toISOString(),
      tool: entry.tool.name,
      targets: targetsOf(entry.tool, entry.args),
      outcome: entry.outcome,
      woodpecker_status: entry.status ?? null,
      approval: entry.approval ?? null,
    };
    // Synchronous on purpose: an audit line must be on disk before the answer leaves.
    appendFileSync(this.path, `${JSON.stringify(line)}\n`, { encoding: 'utf8', mode: 0o600 });
  }
}

function targetsOf(tool: ToolDefinition, args: ToolArgs): Record<string, unknown> {
  const names = tool.guard ? tool.guard.targets : Object.keys(args).filter((name) => TARGET_ARGUMENT.test(name));
  const targets: Record<string, unknown> = {};
  for (const name of names) {
    if (NEVER_LOGGED.has(name) || args[name] === undefined) continue;
    targets[name] = args[name];
  }
  return targets;
}
