// A limit on builds holds a new or changed cron together with the repository's other
// crons: each keeping within a limit of three an hour, three "*/20" crons start nine
// builds an hour, and Woodpecker starts them without this server. So a call that schedules
// builds reads the repository's cron list once (one page, Woodpecker's largest) and adds
// up what the crons the same rule covers can start; a list it cannot read, or cannot read
// whole, refuses the call: a limit is not judged blind.
import type { WoodpeckerRequest } from '../core/tool.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';
import { mostBuildsIn } from './cronRate.js';
import { matchesCall, type CallFacts, type Fact, type PolicyRule } from './policyRule.js';

/** Woodpecker answers at most this many crons a page (server/router/middleware/session). */
export const CRON_PAGE = 50;

interface StoredCron {
  readonly id: number | undefined;
  readonly branch: string;
  readonly schedule: string;
}

/** The other enabled crons of the repository, or why they could not be read. */
export type OtherCrons = { readonly crons: readonly StoredCron[] } | { readonly unread: string };

export function cronListRequest(repoId: number): WoodpeckerRequest {
  return {
    method: 'GET',
    path: `/api/repos/${repoId}/cron`,
    query: { page: '1', perPage: String(CRON_PAGE) },
  };
}

/** @param changing the cron an update_cron changes: its stored self is left out. */
export async function otherCrons(
  repoId: number | undefined,
  changing: unknown,
  send: (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>,
): Promise<OtherCrons> {
  if (repoId === undefined) return { unread: 'the call names no repository id' };
  let body: unknown;
  try {
    body = (await send(cronListRequest(repoId))).body;
  } catch {
    return { unread: `GET /api/repos/${repoId}/cron failed` };
  }
  if (!Array.isArray(body)) return { unread: `GET /api/repos/${repoId}/cron answered no list` };
  if (body.length >= CRON_PAGE)
    return {
      unread: `the repository has ${CRON_PAGE} crons or more, and this server reads one page of ${CRON_PAGE}`,
    };
  const crons: StoredCron[] = [];
  for (const entry of body as Record<string, unknown>[]) {
    if (!entry || typeof entry !== 'object') continue;
    const id = Number.isSafeInteger(entry['id']) ? (entry['id'] as number) : undefined;
    if (id !== undefined && id === changing) continue;
    // Woodpecker before 3.17 has no `enabled`: every cron runs.
    if (entry['enabled'] === false) continue;
    crons.push({
      id,
      branch: typeof entry['branch'] === 'string' ? entry['branch'] : '',
      schedule: typeof entry['schedule'] === 'string' ? entry['schedule'] : '',
    });
  }
  return { crons };
}

/** What the crons the rule covers can start in its window, each at its busiest. */
export async function coveredBuilds(
  rule: PolicyRule,
  crons: readonly StoredCron[],
  facts: Pick<CallFacts, 'repoId' | 'repoName'>,
  defaultBranch: () => Promise<Fact>,
): Promise<{ readonly count: number; readonly builds: number }> {
  let count = 0;
  let builds = 0;
  for (const cron of crons) {
    // A cron without a branch runs the repository's default one.
    const branch: Fact =
      cron.branch !== '' ? { known: true, value: cron.branch } : await defaultBranch();
    const matches = await matchesCall(rule, {
      ...facts,
      branch,
      event: { known: true, value: 'cron' },
      deployTo: { known: true, value: undefined },
      schedule: { known: true, value: cron.schedule },
    });
    if (!matches) continue;
    count++;
    builds += mostBuildsIn(cron.schedule, rule.limit!.windowMs);
  }
  return { count, builds };
}
