// Stage 4d: one sorted-key JSON snapshot of each tool's surface, so a change of policy
// reads as a small data diff next to the manifest change.
import { headerLine, type Inputs } from '../header.js';
import type { CallModel, ToolModel } from '../model.js';

export function snapshotOf(tool: ToolModel): unknown {
  return {
    name: tool.name,
    annotations: tool.annotations,
    admin_only: tool.adminOnly,
    ...(tool.worksWithoutToken ? { works_without_token: true } : {}),
    guard: tool.guard
      ? {
          condition: tool.guard.condition,
          targets: tool.guard.targets,
          bind_body: tool.guard.bindBody,
          predicate: tool.guard.predicate,
          ...(tool.guard.read ? { read: tool.guard.read.tool } : {}),
          ...(tool.guard.identity === undefined ? {} : { identity: tool.guard.identity }),
          // What the person reads is policy too: a changed sentence shows in review.
          dialog: tool.guard.dialog,
          ...(tool.guard.links ? { links: tool.guard.links } : {}),
        }
      : 'never',
    inputSchema: tool.inputSchema,
    calls: tool.calls.map((call) => ({
      ...(call.when.length > 0 ? { when: Object.fromEntries(call.when.map(whenEntry)) } : {}),
      method: call.method,
      path: call.fullPath,
    })),
    output: tool.output,
    // Which arguments WOODPECKER_REPOS checks: a new repository argument shows in review.
    ...(tool.repositories === undefined ? {} : { repositories: tool.repositories }),
    ...(tool.handler === undefined ? {} : { handler: tool.handler }),
    // What an operator policy may match on (and count as a build) is part of the surface.
    ...(tool.policyFacts === undefined
      ? {}
      : { policy_facts: { ...tool.policyFacts, read: tool.policyFacts.read?.tool } }),
    // A view a host renders beside the answer: shown in review like any other surface.
    ...(tool.app === undefined ? {} : { app: tool.app }),
    // Parameters refused on older Woodpecker releases are part of the surface too.
    ...(Object.keys(tool.since).length > 0 ? { since: tool.since } : {}),
    ...(tool.availableSince === undefined ? {} : { available_since: tool.availableSince }),
    ...(Object.keys(tool.impliedBeforeSince).length > 0
      ? { implied_before_since: tool.impliedBeforeSince }
      : {}),
  };
}

function whenEntry(condition: CallModel['when'][number]): [string, unknown] {
  return 'present' in condition ? ['present', condition.param] : [condition.param, condition.value];
}

export function emitSnapshot(tool: ToolModel, inputs: Inputs): string {
  const withHeader = { $comment: headerLine(inputs), ...(snapshotOf(tool) as object) };
  return `${JSON.stringify(sortKeys(withHeader), null, 2)}\n`;
}

/** Object keys sorted at every depth; arrays keep their order (it carries meaning). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
}
