// The reads behind the `shadows` predicate. Woodpecker hands a repository's pipelines
// the narrowest secret (or registry login) of a name: repository before organization
// before global. So creating one at a narrower level than an existing one of the same
// name swaps what pipelines receive — the effect update_secret {value} asks about.
//
// The generated guard says which tool reads an entry and which reads a repository's
// organization; this file only walks the levels. It names no tool.
import type { Look, Looked, ToolArgs, WoodpeckerRequest } from '../core/tool.js';

/** A level wider than the call's own, as the read tool's arguments name it. */
export type WiderLevel =
  { readonly scope: 'organization'; readonly org_id: number } | { readonly scope: 'global' };

export interface WiderReads {
  /** The read of the entry with the call's name (or address) at a wider level. */
  entry(level: WiderLevel): WoodpeckerRequest;
  /** The read of a repository, whose answer carries its org_id. */
  organizationOf(repoId: number): WoodpeckerRequest;
}

/**
 * Reads the same name at every level wider than the call's `scope`: organization and
 * global for a repository, global for an organization, nothing for global. A
 * repository whose organization cannot be read counts as an unreadable organization
 * level, so the caller asks rather than assume nothing is shadowed.
 */
export async function lookAtWiderLevels(
  args: ToolArgs,
  look: Look,
  reads: WiderReads,
): Promise<readonly Looked[]> {
  const found: Looked[] = [];
  if (args.scope === 'repository') {
    // Without repo_id the call itself fails naming it; there is nothing to look at.
    if (typeof args.repo_id !== 'number') return [];
    const repository = await look(reads.organizationOf(args.repo_id));
    const orgId =
      repository.status === 'found'
        ? (repository.body as { org_id?: unknown } | null)?.org_id
        : undefined;
    found.push(
      typeof orgId === 'number' && orgId > 0
        ? await look(reads.entry({ scope: 'organization', org_id: orgId }))
        : { status: 'unreadable' },
    );
  }
  if (args.scope === 'repository' || args.scope === 'organization')
    found.push(await look(reads.entry({ scope: 'global' })));
  return found;
}
