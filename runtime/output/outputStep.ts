// The one output step every tool's answer passes, plain calls and handlers alike, in
// this order: redaction (the manifest's redact/reveal on top of the standing list), the
// repository allowlist's filter on lists (on whole entries, which carry the names it
// judges), the tool's view, a list's short envelope, the manifest's untrusted marking, then
// the result limit. Nothing else builds a successful MCP result.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { redact, type ToolAnswer } from './answer.js';
import type { Send } from '../woodpecker/woodpeckerClient.js';
import { fitToLimit } from './resultLimit.js';
import { applyView, shortEnvelope } from './view.js';
import type { ToolDefinition } from '../core/tool.js';

export interface OutputPolicy {
  /** WOODPECKER_MCP_MAX_RESULT_BYTES: the most a serialized result may take. */
  readonly maxResultBytes: number;
  readonly repositoryScope: AnswerFilter | undefined;
}

/**
 * What the output step needs of the repository allowlist (call/repositoryScope.ts): the
 * answer without entries of repositories outside the list, or the refusal that replaces it.
 */
export interface AnswerFilter {
  filterAnswer(
    tool: ToolDefinition,
    data: Record<string, unknown>,
    send: Send,
  ): Promise<{ data: Record<string, unknown> } | { refused: CallToolResult }>;
}

export async function finishAnswer(
  tool: ToolDefinition,
  answer: ToolAnswer,
  policy: OutputPolicy,
  send: Send,
): Promise<CallToolResult> {
  let data = redact(answer.data, tool.output) as Record<string, unknown>;
  if (policy.repositoryScope) {
    // The allowlist may withhold the whole answer (it is about a hidden repository, or
    // the lookup that decides failed): that refusal is the result.
    const filtered = await policy.repositoryScope.filterAnswer(tool, data, send);
    if ('refused' in filtered) return filtered.refused;
    data = filtered.data;
  }
  if (answer.view) data = applyView(data, answer.view, tool.output.kind);
  if (tool.output.kind === 'list') data = shortEnvelope(data);
  // A resource link is a content block, which neither a client reading structuredContent
  // alone (Claude Code) nor one reading the text alone (claude.ai) shows: its address goes
  // into the answer too, so both halves say where the rest is.
  if (answer.links?.length)
    data = { ...data, links: answer.links.map(({ uri, title }) => ({ uri, title })) };
  // The marker comes first for a reader and is written last, so no field of the answer
  // (a Woodpecker object with its own `untrusted` or `source`) can overwrite it.
  if (tool.output.untrusted)
    data = Object.assign({ untrusted: true, source: 'woodpecker' }, data, {
      untrusted: true,
      source: 'woodpecker',
    });
  const result = fitToLimit(tool, { ...answer, data }, policy.maxResultBytes);
  // The links' blocks are a few hundred bytes each and few (one per shortened log): they
  // follow the answer, after the limit, and never replace a refusal.
  if (!result.isError && answer.links?.length)
    result.content = [...result.content, ...answer.links];
  return result;
}
