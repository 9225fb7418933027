// What one tools/list answer holds, decided per request: the selected tools, minus the
// admin-only ones when the token's account is not an instance admin
// (WOODPECKER_HIDE_ADMIN_TOOLS, on by default), minus the toolsets this connection has
// not enabled in dynamic mode (WOODPECKER_DYNAMIC_TOOLS). Neither filter is a permission:
// Woodpecker decides what an account may do. They keep the model's context for tools
// it can use.
import type { ToolDefinition } from '../core/tool.js';
import type { Account } from './accountLookup.js';
import { listedSchemaOf } from './listedSchema.js';

export interface ListedTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations: ToolDefinition['annotations'];
}

const listedCache = new WeakMap<ToolDefinition, ListedTool>();

/** A tool as the list shows it: no title (a display name for people), the short schema. */
export function listedTool(tool: ToolDefinition): ListedTool {
  let listed = listedCache.get(tool);
  if (!listed) {
    listed = {
      name: tool.name,
      description: tool.description,
      inputSchema: listedSchemaOf(tool.inputSchema),
      annotations: { ...tool.annotations },
    };
    listedCache.set(tool, listed);
  }
  return listed;
}

/** True when the list leaves this tool out because the account cannot use it. */
export function hiddenForAccount(tool: ToolDefinition, account: Account | undefined): boolean {
  return tool.adminOnly && account !== undefined && !account.admin;
}

/** Why a hidden tool was called anyway: the answer instead of Woodpecker's 403. */
export function hiddenToolMessage(tool: ToolDefinition, account: Account): string {
  return (
    `${tool.name} needs an instance admin, and the account of this token (${account.login}) is not one (get_current_user shows it), so this server leaves the tool out of its list and does not call Woodpecker, which would answer 403. ` +
    'Use a token of an instance admin, or set WOODPECKER_HIDE_ADMIN_TOOLS=false to list admin-only tools for every token.'
  );
}
