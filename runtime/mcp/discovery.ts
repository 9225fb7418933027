// Dynamic discovery (WOODPECKER_DYNAMIC_TOOLS=true): the first tool list holds the
// essential tools and these two. find_tools searches the whole selection by words;
// enable_toolset adds a toolset to this connection's list and tells the client with
// notifications/tools/list_changed. Every selected tool can be called by name at any
// time: the list is what the model pays for, not what it may do.
//
// On 2026-07-28 (stdio or HTTP) each request is served by a fresh server, so a list cannot
// grow between requests: enable_toolset then says so and names the toolset's tools to call
// directly.
import type { ToolDefinition } from '../core/tool.js';

export const FIND_TOOLS = 'find_tools';
export const ENABLE_TOOLSET = 'enable_toolset';

export function discoveryTools(selected: readonly ToolDefinition[]) {
  const toolsets = toolsetsOf(selected);
  return [
    {
      name: FIND_TOOLS,
      description:
        'Finds tools by words (e.g. "secret", "cron logs"); any tool found can be called by name.',
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            description: 'Words to look for.',
            minLength: 1,
            maxLength: 200,
          },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: ENABLE_TOOLSET,
      description: "Adds a toolset's tools to the tool list.",
      inputSchema: {
        type: 'object',
        properties: { toolset: { type: 'string', enum: toolsets } },
        required: ['toolset'],
        additionalProperties: false,
      },
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
  ] as const;
}

/** Tools whose name, toolset or description hold every word of the query, best first. */
export function findTools(
  selected: readonly ToolDefinition[],
  query: string,
): { name: string; toolset: string; description: string }[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((word) => word.length > 0);
  const scored = selected
    .map((tool) => {
      const name = tool.name.replace(/_/g, ' ');
      const text = `${name} ${tool.group} ${tool.description}`.toLowerCase();
      const hits = words.filter((word) => text.includes(word.replace(/s$/, '')));
      const inName = words.filter((word) => name.includes(word.replace(/s$/, ''))).length;
      return { tool, score: hits.length * 10 + inName, all: hits.length === words.length };
    })
    .filter((entry) => entry.score > 0);
  const complete = scored.filter((entry) => entry.all);
  return (complete.length > 0 ? complete : scored)
    .sort((a, b) => b.score - a.score)
    .slice(0, 12)
    .map(({ tool }) => ({ name: tool.name, toolset: tool.group, description: tool.description }));
}

/** The toolset names, in the order of the manifest. */
export function toolsetsOf(all: readonly ToolDefinition[]): string[] {
  return [...new Set(all.map((tool) => tool.group))];
}
