// The errors every stage may raise or build, below all of them: a handler throws
// ToolInputError or ToolOutcomeError, call/toolErrors.ts turns them into the text a model
// reads, and errorResult is the one shape of an MCP tool error.
import type { CallToolResult } from '@modelcontextprotocol/server';

/** A problem the runtime found before or instead of calling Woodpecker. */
export class ToolInputError extends Error {
  override readonly name: string = 'ToolInputError';
}

/**
 * This server's own policy refused the call before anything was written (the restart
 * policy): the audit log records it as `refused`, not as a failure of the call.
 */
export class ToolPolicyRefusal extends ToolInputError {
  override readonly name = 'ToolPolicyRefusal';
}

/**
 * Woodpecker answered, but a read-back shows the call did not do what it was for
 * (update_user stored nothing, move_repository did not move). Thrown by handlers.
 */
export class ToolOutcomeError extends Error {
  override readonly name = 'ToolOutcomeError';
}

export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
