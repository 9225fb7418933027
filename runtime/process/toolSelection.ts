// Which tools this server registers: WOODPECKER_READ_ONLY, WOODPECKER_ALLOW_TOOLS and
// WOODPECKER_DENY_TOOLS. An entry is a tool name, a prefix with one trailing *, the
// `essential` preset, or a toolset: the name of a group of tools.yaml (secrets, agents,
// ...). An entry that matches no tool stops startup: a misspelt deny entry would
// otherwise leave the tool it meant to remove quietly enabled.
import { ConfigError } from './config.js';
import type { ToolDefinition } from '../core/tool.js';
import { toolsetsOf } from '../mcp/discovery.js';

export interface SelectionOptions {
  readonly readOnly: boolean;
  readonly allowTools: readonly string[] | undefined;
  readonly denyTools: readonly string[];
}

export function selectTools(
  all: readonly ToolDefinition[],
  options: SelectionOptions,
): ToolDefinition[] {
  const allowed = options.allowTools
    ? matching(all, options.allowTools, 'WOODPECKER_ALLOW_TOOLS')
    : new Set(all.map((tool) => tool.name));
  const denied = matching(all, options.denyTools, 'WOODPECKER_DENY_TOOLS');
  return all.filter(
    (tool) =>
      allowed.has(tool.name) &&
      !denied.has(tool.name) &&
      (!options.readOnly || tool.annotations.readOnlyHint),
  );
}

function matching(
  all: readonly ToolDefinition[],
  entries: readonly string[],
  variable: string,
): Set<string> {
  const names = new Set<string>();
  entries.forEach((entry, index) => {
    const matched = all.filter((tool) => matches(tool, entry));
    if (matched.length === 0) {
      throw new ConfigError(
        `${variable} entry ${describeEntry(entry, index)} matches no tool. Use tool names (list_pipelines), a prefix with one trailing * (list_*), essential, or a toolset: ${toolsetsOf(all).join(', ')}.`,
      );
    }
    for (const tool of matched) names.add(tool.name);
  });
  return names;
}

// A misspelt tool name is worth repeating; anything else (a token pasted into the wrong
// variable) is named by its position only. Tool names hold no digits or capitals, which
// every Woodpecker token does.
function describeEntry(entry: string, index: number): string {
  return /^[a-z_*]{1,64}$/.test(entry) ? `"${entry}"` : `number ${index + 1}`;
}

export function matches(tool: ToolDefinition, entry: string): boolean {
  if (entry === 'essential') return tool.essential;
  if (entry === tool.group) return true;
  if (entry.endsWith('*') && entry.indexOf('*') === entry.length - 1)
    return tool.name.startsWith(entry.slice(0, -1));
  return tool.name === entry;
}
