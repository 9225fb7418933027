// What a hand-written handler gets. It builds no URLs and speaks no HTTP itself: it
// asks tool definitions for their requests and sends them through `call`.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolAnswer } from '../output/answer.js';
import type { ToolArgs, ToolDefinition, WoodpeckerRequest } from '../core/tool.js';
import type { ToolArgsByName, ToolName } from '../../generated/index.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';

/** A: the handler's own tool's arguments (checked against its inputSchema before it runs). */
export interface HandlerContext<A extends ToolArgs = ToolArgs> {
  readonly tool: ToolDefinition<A>;
  readonly args: A;
  /**
   * Sends one request with the caller's token and the call's cancellation signal. A GET
   * the call made before (in a check, the gate or this handler) is answered from that
   * read; a write forgets them all (runtime/call/callReader.ts).
   */
  call(request: WoodpeckerRequest): Promise<WoodpeckerResponse>;
  /**
   * Says the call starts no build after all (a dry run): the build-limit place it was
   * counted under goes back. A no-op when no limit counted it.
   */
  startedNothing(): void;
  /** A GET sent even when this call made it before: for a poll that must see the present. */
  fresh(request: WoodpeckerRequest): Promise<WoodpeckerResponse>;
  /** A GET whose body arrives piece by piece (see WoodpeckerClient.stream); false stops it. */
  stream(request: WoodpeckerRequest, onText: (text: string) => boolean | void): Promise<void>;
  /**
   * Another tool's definition, to reuse its request builder (e.g. get_pipeline's). Typed
   * by the generated catalogue: a misspelt name, or arguments `requestOf` is then given
   * that the tool does not take, fail in `tsc`.
   */
  toolNamed<N extends ToolName>(name: N): ToolDefinition<ToolArgsByName[N]>;
  /** Reports progress to the client when it asked for it; a no-op otherwise. */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
  readonly signal: AbortSignal;
  /**
   * The repository allowlist's check for a repository the handler found itself (not in
   * its arguments): a refusal to return, or undefined when the call may go on.
   */
  checkRepository(
    args: { readonly repo_id: number } | { readonly full_name: string },
  ): Promise<CallToolResult | undefined>;
  /** WOODPECKER_URL: the server links must point at (resolve_link). */
  readonly woodpeckerUrl: string;
}

/**
 * A handler returns data; the executor's output step redacts, filters, marks and bounds
 * it like any other answer. A failure is thrown and mapped by runtime/call/toolErrors.ts.
 */
export type ToolHandler<A extends ToolArgs = ToolArgs> = (
  context: HandlerContext<A>,
) => Promise<ToolAnswer>;

/** The handler of the tool named N (a handler is named after its tool), typed by its arguments. */
export type HandlerOf<N extends ToolName> = ToolHandler<ToolArgsByName[N]>;

/** The hand-written handlers by tool name, each typed by that tool's arguments. */
export type HandlerRegistry = { readonly [N in ToolName]?: HandlerOf<N> };

/** The request a tool's manifest entry builds for these arguments. */
export function requestOf<A extends ToolArgs>(tool: ToolDefinition<A>, args: A): WoodpeckerRequest {
  if (!tool.request) throw new Error(`${tool.name} declares no Woodpecker call in tools.yaml`);
  return tool.request(args);
}

/** Thrown by a handler to end the call with a refusal it was given (the allowlist's). */
export class CallRefused extends Error {
  constructor(readonly result: CallToolResult) {
    super('refused');
  }
}
