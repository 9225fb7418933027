// An append-only JSON-lines record of every call that can change something: when, which
// tool, on what, what happened, Woodpecker's status and how it was approved. Targets
// are ids and names only; secret values, passwords and tokens never reach the file.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Approval } from '../gate/gate.js';
import { GATE_ARGUMENT, type ToolArgs, type ToolDefinition } from '../core/tool.js';

/** The variable the path comes from, named in every message about the file. */
export const AUDIT_LOG_VARIABLE = 'WOODPECKER_MCP_AUDIT_LOG';

export class AuditLogUnusable extends Error {
  override readonly name = 'AuditLogUnusable';
}

/** What became of a write call: it ran, failed, may have run (its answer broke after it was sent), or was stopped before it ran. */
export type AuditOutcome =
  | 'done'
  | 'failed'
  | 'outcome unknown'
  | 'declined'
  | 'cancelled'
  | 'token issued'
  /** Refused by this server before anything was written (WOODPECKER_REPOS, a release too old, the restart policy). */
  | 'refused';

export interface AuditEntry {
  readonly tool: ToolDefinition;
  readonly args: ToolArgs;
  readonly outcome: AuditOutcome;
  readonly status: number | undefined;
  /** How the call was let through; absent when it did not run. */
  readonly approval: Approval | undefined;
  /** The operator's policy rules behind a question, refusal or limit (WOODPECKER_MCP_POLICY). */
  readonly rules?: readonly string[];
}

export class AuditLog {
  private readonly fd: number;

  /**
   * Opens the file for appending now, at startup: a path that cannot be written must stop
   * the server before any write call runs, not fail after Woodpecker already acted.
   * @throws AuditLogUnusable naming the variable and the system's reason (not the path's contents).
   */
  constructor(
    path: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    try {
      this.fd = openSync(path, 'a', 0o600);
    } catch (error) {
      throw new AuditLogUnusable(
        `${AUDIT_LOG_VARIABLE} names a file that cannot be opened for appending (${reasonOf(error)}). Point it at a file in a directory that exists and this user may write, or unset it to run without an audit log.`,
      );
    }
  }

  /**
   * Appends one line. Returns undefined when it was written, else the reason it was not:
   * the caller decides what to tell, because the call it records has already happened.
   */
  record(entry: AuditEntry): string | undefined {
    const line = {
      time: this.now().toISOString(),
      tool: entry.tool.name,
      targets: targetsOf(entry.tool, entry.args),
      outcome: entry.outcome,
      woodpecker_status: entry.status ?? null,
      approval: entry.approval ?? null,
      ...(entry.rules && entry.rules.length > 0 ? { rules: entry.rules } : {}),
    };
    // Synchronous on purpose: an audit line must be on disk before the answer leaves.
    try {
      writeSync(this.fd, `${JSON.stringify(line)}\n`);
      return undefined;
    } catch (error) {
      return reasonOf(error);
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed: nothing left to flush.
    }
  }
}

/** The system's error code (ENOENT, EACCES, ENOSPC…), never a message that could quote data. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

/**
 * The arguments the definition names as the call's targets (generator/rules/auditTargets.ts).
 * A credential (writeOnly in the input schema) or the gate's token is left out here too,
 * so a definition written by hand cannot put one in the file either.
 */
function targetsOf(tool: ToolDefinition, args: ToolArgs): Record<string, unknown> {
  const targets: Record<string, unknown> = {};
  for (const name of tool.auditTargets ?? []) {
    const property = tool.inputSchema.properties[name] as { writeOnly?: unknown } | undefined;
    if (name === GATE_ARGUMENT || property?.writeOnly === true || args[name] === undefined)
      continue;
    targets[name] = args[name];
  }
  return targets;
}
