// What a tool result owes each kind of client (docs/clients.md): Claude Code reads only
// structuredContent, claude.ai only the text. So every fact — the untrusted marking, a
// truncation note, the next step, where the rest of a log is — must be in both halves.
import type { CallToolResult } from '@modelcontextprotocol/server';

/** The facts one half has and the other lacks; empty when both say the same. */
export function halvesDisagree(result: CallToolResult): string[] {
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const texts = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  const text = texts.join('\n\n');
  // One half only (every error, and the dialog's refusals): a client that reads
  // structuredContent reads the text when there is none, so the text must say it all,
  // the address of a resource link included.
  if (structured === undefined) {
    const problems = text.trim() === '' ? ['no structuredContent and no text'] : [];
    for (const block of result.content)
      if (block.type === 'resource_link' && !text.includes(block.uri))
        problems.push(`${block.uri} is not in the text`);
    return problems;
  }
  const problems: string[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    if (JSON.stringify(parsed) !== JSON.stringify(structured))
      problems.push('the text is JSON, but not that of structuredContent');
  } else if (structured.message !== text) {
    problems.push(`the text's prose is not in structuredContent: ${text.slice(0, 120)}`);
  }
  const structuredJson = JSON.stringify(structured);
  for (const block of result.content)
    if (block.type === 'resource_link') {
      if (!structuredJson.includes(block.uri))
        problems.push(`${block.uri} is not in structuredContent`);
      if (!text.includes(block.uri)) problems.push(`${block.uri} is not in the text`);
    }
  return problems;
}
