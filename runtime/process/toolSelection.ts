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
      const guess = nearestName(all, entry);
      throw new ConfigError(
        `${variable} entry ${describeEntry(entry, index)} matches no tool${guess ? `; did you mean ${guess}?` : '.'} Use tool names (list_pipelines), a prefix with one trailing * (list_*), essential, or a toolset: ${toolsetsOf(all).join(', ')}.`,
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

/**
 * The tool name, toolset or preset a misspelt entry most likely meant: the closest within
 * a few edits (a third of its length at most), else undefined. Only entries that look
 * like a name are compared, so nothing else is echoed back.
 */
function nearestName(all: readonly ToolDefinition[], entry: string): string | undefined {
  if (!/^[a-z_*]{1,64}$/.test(entry)) return undefined;
  const typed = entry.replace(/\*$/, '');
  const names = [...all.map((tool) => tool.name), ...toolsetsOf(all), 'essential'];
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(typed.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}
