// The reads behind the `shadows` predicate: which levels already hold an entry a
// repository's pipelines would take for the call's name (or registry address).
//
// What Woodpecker does (the same in 3.11, 3.17 and main): it lists a repository's
// secrets and registry logins at every level, keeps the first of each exact name in the
// order repository, organization, global, and then
// - secrets: keys them by lower-cased name, so of two spellings the later, wider one wins
//   (a global "deploy_token" replaces a repository's "DEPLOY_TOKEN"), and within a level
//   the order of the list decides;
// - registries: takes the first login whose host matches the image's, narrowest first,
//   with "index.docker.io" standing for "docker.io". Letter case and spaces are compared
//   as written.
// So a new entry changes what pipelines receive when its folded name meets one at a
// level it outranks or at its own level under another spelling. The manifest says which
// fold and whether the own level counts; this file reads the levels and compares. Every
// level is a list read page by page, bounded: a level longer than that, or one the caller
// may not read, is "could not tell", and the gate asks.
//
// The generated guard says which tool lists a level and which reads a repository's
// organization; this file names no tool.
import type { LevelFinding, Look, ToolArgs, WoodpeckerRequest } from '../core/tool.js';

/** A level as the list tool's arguments name it. */
export type Level =
  | { readonly scope: 'repository'; readonly repo_id: number }
  | { readonly scope: 'organization'; readonly org_id: number }
  | { readonly scope: 'global' };

export interface LevelReads {
  /** The field of a listed entry that holds its name (or address). */
  readonly param: string;
  /** How Woodpecker folds a name before it compares (see NAME_FOLDS). */
  readonly fold: NameFold;
  /** Whether another spelling at the call's own level counts (it does for secrets). */
  readonly sameLevel: boolean;
  /** One page of a level's entries. */
  list(level: Level, page: number, perPage: number): WoodpeckerRequest;
  /** The read of a repository, whose answer carries its org_id. */
  organizationOf(repoId: number): WoodpeckerRequest;
}

/**
 * Go's strings.ToLower, one code point at a time: JavaScript's toLowerCase turns "İ"
 * into two code points where Go gives "i", and lower-cases a final "Σ" by context.
 */
function goLowerCase(text: string): string {
  let folded = '';
  for (const char of text) {
    if (char === '\u0130') folded += 'i';
    else {
      const lower = char.toLowerCase();
      folded += [...lower].length === 1 ? lower : char;
    }
  }
  return folded;
}

/** The spellings Woodpecker takes for one, by the name tools.yaml gives the fold. */
export const NAME_FOLDS = {
  /** Secret names: from_secret is compared lower-cased; spaces count as written. */
  letter_case: goLowerCase,
  /** Registry addresses: matched to an image's host, where Docker Hub has two names. */
  registry_host: (address: string) => (address === 'index.docker.io' ? 'docker.io' : address),
} as const;
export type NameFold = keyof typeof NAME_FOLDS;

/** Woodpecker's largest page; a level is read up to MAX_PAGES of them. */
export const PER_PAGE = 50;
export const MAX_PAGES = 4;

/**
 * Looks at the call's own level (when `sameLevel`) and every level wider than its
 * `scope`. A repository whose organization cannot be read counts as an unknown
 * organization level.
 */
export async function lookAtLevels(
  args: ToolArgs,
  look: Look,
  reads: LevelReads,
): Promise<readonly LevelFinding[]> {
  const name = args[reads.param];
  // Without a name, or without repo_id, the call itself fails naming it.
  if (typeof name !== 'string') return [];
  const levels: Array<Level | { scope: 'organization'; unknown: true }> = [];
  if (args.scope === 'repository') {
    if (typeof args.repo_id !== 'number') return [];
    if (reads.sameLevel) levels.push({ scope: 'repository', repo_id: args.repo_id });
    const repository = await look(reads.organizationOf(args.repo_id));
    const orgId =
      repository.status === 'found'
        ? (repository.body as { org_id?: unknown } | null)?.org_id
        : undefined;
    levels.push(
      typeof orgId === 'number' && orgId > 0
        ? { scope: 'organization', org_id: orgId }
        : { scope: 'organization', unknown: true },
    );
  } else if (args.scope === 'organization') {
    if (typeof args.org_id !== 'number') return [];
    if (reads.sameLevel) levels.push({ scope: 'organization', org_id: args.org_id });
  } else if (args.scope === 'global') {
    if (reads.sameLevel) levels.push({ scope: 'global' });
  } else return [];
  if (args.scope !== 'global') levels.push({ scope: 'global' });

  const findings: LevelFinding[] = [];
  for (const level of levels) {
    const id = 'repo_id' in level ? level.repo_id : 'org_id' in level ? level.org_id : undefined;
    const at = { scope: level.scope, ...(id === undefined ? {} : { id }) };
    if ('unknown' in level) findings.push({ ...at, status: 'unknown' });
    else {
      const own = level.scope === args.scope;
      findings.push({ ...at, status: await lookAtLevel(level, name, own, look, reads) });
    }
  }
  return findings;
}

async function lookAtLevel(
  level: Level,
  name: string,
  own: boolean,
  look: Look,
  reads: LevelReads,
): Promise<LevelFinding['status']> {
  const fold = NAME_FOLDS[reads.fold];
  const wanted = fold(name);
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await look(reads.list(level, page, PER_PAGE));
    // A level that is not there (404) holds nothing; a refusal says nothing.
    if (answer.status === 'absent') return 'clear';
    if (answer.status !== 'found') return 'unknown';
    // Go encodes an empty list as null.
    const entries: unknown = answer.body === null ? [] : answer.body;
    if (!Array.isArray(entries)) return 'unknown';
    for (const entry of entries as unknown[]) {
      const held = (entry as Record<string, unknown> | null)?.[reads.param];
      if (typeof held !== 'string' || fold(held) !== wanted) continue;
      // The exact name at its own level is a duplicate Woodpecker refuses, not a swap.
      if (own && held === name) continue;
      return 'collides';
    }
    if (entries.length < PER_PAGE) return 'clear';
  }
  return 'unknown';
}

/**
 * The dialog's line naming the levels, from the closed vocabulary of levels and their
 * numeric ids: never the entry's name, which a caller chose.
 */
export function describeLevels(findings: readonly LevelFinding[] | undefined): string | undefined {
  const named = (finding: LevelFinding) =>
    finding.scope === 'global'
      ? 'global level'
      : `${finding.scope} ${finding.id === undefined ? '(id unknown)' : String(finding.id)}`;
  const colliding = (findings ?? []).filter((finding) => finding.status === 'collides');
  const unknown = (findings ?? []).filter((finding) => finding.status === 'unknown');
  const parts: string[] = [];
  if (colliding.length > 0)
    parts.push(
      `Pipelines would take it for an entry that already exists at: ${colliding.map(named).join(', ')}.`,
    );
  if (unknown.length > 0)
    parts.push(
      `These levels could not be read (no permission, or more entries than this server reads), so a collision there cannot be ruled out: ${unknown.map(named).join(', ')}.`,
    );
  return parts.length === 0 ? undefined : parts.join(' ');
}
