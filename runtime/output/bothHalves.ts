// Claude Code reads a tool result's structuredContent and not its text; claude.ai reads the
// text and not structuredContent (docs/clients.md). So both halves must carry the same
// facts. The output step's answers do by construction (the text is the JSON of
// structuredContent); a result written as prose beside a few fields (the two-call
// confirm_token: what the call would do, how to go on, to check with the user) gets its
// prose into structuredContent as `message`. runtime/mcp/server.ts applies it to every
// tool's result.
import type { CallToolResult } from '@modelcontextprotocol/server';

export function bothHalves(result: CallToolResult): CallToolResult {
  const structured = result.structuredContent;
  if (!structured || typeof structured !== 'object' || 'message' in structured) return result;
  const texts = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  // The output step's one text block is the JSON of structuredContent: nothing to add.
  if (texts.length === 1 && texts[0]!.startsWith('{')) return result;
  if (texts.length === 0) return result;
  return { ...result, structuredContent: { ...structured, message: texts.join('\n\n') } };
}
