// Resources, completions and prompts read Woodpecker by running the read-only tools
// through the executor, so every read passes what a tool call passes: the caller's token
// and its permissions, the WOODPECKER_REPOS allowlist, redaction, the untrusted marking
// and the result limit. Nothing here sends a request of its own.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { Executor } from '../call/executor.js';
import type { ToolArgs, ToolDefinition } from '../core/tool.js';
import type { ToolArgsByName, ToolName } from '../../generated/index.js';

/** How long one completion may wait for Woodpecker: a client asks on every keystroke. */
const COMPLETION_TIMEOUT_MS = 5_000;

/** Typed by the generated catalogue: a misspelt tool or argument fails in `tsc`. */
export interface ToolReader {
  /** Whether this server offers the tool (WOODPECKER_ALLOW_TOOLS / DENY / READ_ONLY). */
  offers(name: ToolName): boolean;
  /** The structured answer of a read-only tool, or a ProtocolError with the tool's own error text. */
  read<N extends ToolName>(
    name: N,
    args: ToolArgsByName[N],
    token: string | undefined,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Like read, for completions: any failure is no suggestions. */
  suggest<N extends ToolName>(
    name: N,
    args: ToolArgsByName[N],
    token: string | undefined,
  ): Promise<Record<string, unknown> | undefined>;
}

export function toolReader(
  tools: readonly ToolDefinition[],
  executor: Pick<Executor, 'run'>,
): ToolReader {
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  const run = async (
    name: string,
    args: ToolArgs,
    token: string | undefined,
    signal: AbortSignal,
  ) => {
    const tool = byName.get(name);
    // Only read-only tools: nothing reached through a resource or a prompt may change anything.
    if (!tool || !tool.annotations.readOnlyHint)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${name} is not offered by this server (WOODPECKER_ALLOW_TOOLS / WOODPECKER_DENY_TOOLS).`,
      );
    // A read-only tool never asks, so no dialog channel is needed.
    return executor.run(tool, args, {
      token,
      channel: {
        revision: '2025-11-25',
        clientCanElicit: false,
        inputResponses: undefined,
        requestState: undefined,
      },
      signal,
      progress: async () => undefined,
    });
  };
  return {
    offers: (name) => byName.has(name),
    read: async (name, args, token, signal = new AbortController().signal) =>
      structured(name, await run(name, args, token, signal)),
    suggest: async (name, args, token) => {
      try {
        return structured(
          name,
          await run(name, args, token, AbortSignal.timeout(COMPLETION_TIMEOUT_MS)),
        );
      } catch {
        return undefined;
      }
    },
  };
}

function structured(
  name: string,
  result: CallToolResult | InputRequiredResult,
): Record<string, unknown> {
  const call = result as CallToolResult;
  if (call.isError || !call.structuredContent) {
    const text = (call.content ?? [])
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join(' ');
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, text || `${name} gave no answer.`);
  }
  return call.structuredContent as Record<string, unknown>;
}
