// Runs one tool call: the steps of callSteps.ts in their order, each of which may end the
// call, then the audit line of the step that did. Every failure becomes a tool error
// through toolErrors.ts; nothing here throws into the MCP layer.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { AUDIT_LOG_VARIABLE, type AuditOutcome } from './auditLog.js';
import type { Approval } from '../gate/gate.js';
import { CallRefused } from './handlerContext.js';
import type { ToolArgs, ToolDefinition } from '../core/tool.js';
import { ToolPolicyRefusal } from '../core/errors.js';
import { describeFailure } from './toolErrors.js';
import { callReader } from './callReader.js';
import { CALL_STEPS, type CallEnd, type CallState } from './callSteps.js';
import type { CallContext, ExecutorDeps } from './executorDeps.js';

export type { CallContext, ExecutorDeps } from './executorDeps.js';
import { WoodpeckerHttpError, WoodpeckerUnreachableError } from '../woodpecker/woodpeckerClient.js';

export class Executor {
  constructor(private readonly deps: ExecutorDeps) {}

  async run(
    tool: ToolDefinition,
    rawArgs: ToolArgs,
    call: CallContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    const args = withoutAbsent(rawArgs);
    const client = this.deps.client;
    const state: CallState = {
      tool,
      args,
      call,
      rules: [],
      reader: callReader((request) =>
        client!.send(request, { token: call.token, signal: call.signal }),
      ),
    };
    try {
      for (const step of CALL_STEPS) {
        const end = await step.run(state, this.deps);
        if (end) return this.ended(end, state);
      }
      throw new Error('the call steps ended without an answer');
    } catch (error) {
      return this.failed(error, state);
    }
  }

  private ended(end: CallEnd, state: CallState): CallToolResult | InputRequiredResult {
    if (end.outcome === undefined) return end.result;
    // The operator's rules are named when they matched a call that then ran or was
    // stopped after the policy; a refusal before the policy names none.
    return this.recorded(end.result, state, end.outcome, end.status, end.approval);
  }

  private failed(error: unknown, state: CallState): CallToolResult {
    const { tool } = state;
    // Nothing started: refused here after the count, or by Woodpecker with a 4xx. A 5xx
    // or a lost connection may have started a build, and stays counted.
    if (
      error instanceof CallRefused ||
      error instanceof ToolPolicyRefusal ||
      (error instanceof WoodpeckerHttpError && error.status < 500)
    )
      state.giveBack?.();
    // Refused by this server's own rules (the allowlist in a handler, the restart policy):
    // nothing was written, and the log says refused, not failed.
    if (error instanceof CallRefused)
      return this.recorded(error.result, { ...state, rules: [] }, 'refused');
    const described = describeFailure(tool, error, (name) => this.deps.toolsByName.has(name));
    if (error instanceof ToolPolicyRefusal)
      return this.recorded(described, { ...state, rules: [] }, 'refused');
    // A write that broke after it was sent may have happened: the log must not say "failed".
    if (error instanceof WoodpeckerUnreachableError && error.outcomeUnknown)
      return this.recorded(described, state, 'outcome unknown', undefined, state.approval);
    return this.recorded(
      described,
      state,
      'failed',
      error instanceof WoodpeckerHttpError ? error.status : undefined,
    );
  }

  /**
   * Writes the audit line and returns the call's own result. A line that could not be
   * written never turns the result into a failure (a model would retry a change that
   * happened): the result stays what it was, and says both facts.
   */
  private recorded<R extends CallToolResult | InputRequiredResult>(
    result: R,
    { tool, args, rules }: Pick<CallState, 'tool' | 'args' | 'rules'>,
    outcome: AuditOutcome,
    status?: number,
    approval?: Approval,
  ): R {
    // A read is logged only when an operator's rule stopped it.
    if ((tool.annotations.readOnlyHint && rules.length === 0) || !this.deps.audit) return result;
    const unwritten = this.deps.audit.record({ tool, args, outcome, status, approval, rules });
    if (unwritten === undefined) return result;
    this.deps.onAuditFailure?.(tool.name, unwritten);
    const note = `Audit: the ${tool.name} call above ${outcome === 'done' ? 'was carried out' : `ended as "${outcome}"`}, but its line could not be written to ${AUDIT_LOG_VARIABLE} (${unwritten}). Do not repeat the call because of this; tell the server's operator.`;
    const content = Array.isArray((result as CallToolResult).content)
      ? (result as CallToolResult).content
      : [];
    return { ...result, content: [...content, { type: 'text', text: note }] };
  }
}

// Optional arguments a client left out, sent as undefined or sent as null are all "not given".
function withoutAbsent(args: ToolArgs): ToolArgs {
  return Object.fromEntries(
    Object.entries(args ?? {}).filter(([, value]) => value !== undefined && value !== null),
  );
}
