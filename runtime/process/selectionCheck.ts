// A selection that contradicts itself, or leaves nothing, stops the server: started with
// 0 tools it looks connected and does nothing, and an allowed name that another setting
// removes means the operator believes in a tool that is not there.
import { ConfigError } from './config.js';
import type { ToolDefinition } from '../core/tool.js';
import { matches, type SelectionOptions } from './toolSelection.js';

export function checkSelection(
  all: readonly ToolDefinition[],
  options: SelectionOptions,
  selected: readonly ToolDefinition[],
): void {
  for (const entry of options.allowTools ?? []) {
    // Only whole names: `list_*` with a deny of `list_users` is an ordinary narrowing.
    const tool = all.find((candidate) => candidate.name === entry);
    if (!tool) continue;
    if (options.denyTools.some((deny) => matches(tool, deny))) {
      throw new ConfigError(
        `${entry} is in both WOODPECKER_ALLOW_TOOLS and WOODPECKER_DENY_TOOLS, and deny wins, so it would not be served. Remove it from one of the two.`,
      );
    }
    if (options.readOnly && !tool.annotations.readOnlyHint) {
      throw new ConfigError(
        `WOODPECKER_ALLOW_TOOLS names ${entry}, which can change things, and WOODPECKER_READ_ONLY=true removes every such tool. Remove ${entry} from the allow list, or unset WOODPECKER_READ_ONLY.`,
      );
    }
  }
  if (selected.length === 0) {
    const settings = [
      options.readOnly ? 'WOODPECKER_READ_ONLY=true' : undefined,
      options.allowTools ? 'WOODPECKER_ALLOW_TOOLS' : undefined,
      options.denyTools.length > 0 ? 'WOODPECKER_DENY_TOOLS' : undefined,
    ].filter((setting) => setting !== undefined);
    throw new ConfigError(
      `The tool selection leaves no tools to serve (${settings.join(' with ')} removes all ${all.length}). Widen WOODPECKER_ALLOW_TOOLS (for example essential), or shorten WOODPECKER_DENY_TOOLS.`,
    );
  }
}
