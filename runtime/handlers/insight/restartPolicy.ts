// When restart_pipeline refuses. Woodpecker's restart copies the old pipeline and starts
// it: it never asks for approval again, and for a deployment it checks only the
// repository's allow_deploy, not what the pipeline was. restart_pipeline has no dialog
// (the specification keeps it unguarded), so without these rules it would be the way
// around approve_pipeline's: decline a fork's pipeline and restart it, let it end in an
// error before anybody approved it and restart it, or re-run a pull request's code as a
// deployment. Each refusal says why and what a person can do instead.
//
// Only facts Woodpecker reports are used (status, event, from_fork, reviewed_by, author
// and the repository's approval settings), and the texts quote only numbers and
// Woodpecker's own enum values, never a branch, title or login.
import { PULL_REQUEST_EVENTS } from '../../core/woodpeckerEvents.js';

/** The fields of a pipeline (GET /repos/{id}/pipelines/{n}) these rules read. */
interface RestartFacts {
  readonly status?: unknown;
  readonly event?: unknown;
  readonly from_fork?: unknown;
  readonly reviewed_by?: unknown;
  readonly author?: unknown;
}

/** The fields of a repository (GET /repos/{id}) these rules read. */
interface RepoFacts {
  readonly require_approval?: unknown;
  readonly approval_allowed_users?: unknown;
}

export interface RestartRequest {
  readonly repoId: number;
  readonly number: number;
  /** restart_pipeline's `event` argument ("deployment") or undefined. */
  readonly event: unknown;
  readonly deployTo: unknown;
}

const PULL_REQUEST_EVENT_SET = new Set(PULL_REQUEST_EVENTS);
/** Pipelines Woodpecker itself creates; it never holds them for approval. */
const NEVER_HELD_EVENTS = new Set(['cron', 'manual']);

/** Why this restart must not run through this server, or undefined when it may. */
export function restartRefusal(
  pipelineAnswer: unknown,
  repoAnswer: unknown,
  request: RestartRequest,
): string | undefined {
  const pipeline = asObject(pipelineAnswer) as RestartFacts;
  const repo = asObject(repoAnswer) as RepoFacts;
  const which = `Pipeline ${request.number} of repository ${request.repoId}`;
  const status = pipeline.status;
  const event = typeof pipeline.event === 'string' ? pipeline.event : '';

  if (status === 'blocked') {
    return `${which} is waiting for approval (status "blocked"). A restart would run it without that approval, so restart_pipeline does not. To run it, call approve_pipeline, which asks a person first; to drop it, call decline_pipeline.`;
  }
  if (status === 'declined') {
    return `${which} was declined: a person decided it should not run. A restart would run the same code with the repository's secrets without asking anyone, so restart_pipeline does not. If it should run after all, a new pipeline for the same change (the author pushes again) waits in "blocked" for approve_pipeline, which asks a person first.`;
  }
  if (
    PULL_REQUEST_EVENT_SET.has(event) &&
    (request.event !== undefined || request.deployTo !== undefined)
  ) {
    return `${which} is a pull request pipeline (event "${event}"): its code comes from the pull request. Restarting it as a deployment (event "deployment" or deploy_to) would run that code with the secrets and targets of a deployment, which Woodpecker allows whenever the repository allows deployments, so restart_pipeline refuses. Deploy from the target branch instead: restart one of its push, tag or manual pipelines with event "deployment", or restart this one without event and deploy_to.`;
  }
  if (wouldBeHeld(pipeline, repo) && !wasApproved(pipeline)) {
    const source = pipeline.from_fork === true ? 'comes from a fork and ' : '';
    return `${which} ${source}was never approved by a person (Woodpecker records no approval for it; its status is "${statusWord(status)}"), and this repository's require_approval holds such pipelines for one. A restart would run its code with the repository's secrets without that approval, so restart_pipeline refuses. A person can have the author push again (the new pipeline waits for approve_pipeline, which asks a person first), or restart it in Woodpecker's web interface after reading the change.`;
  }
  return undefined;
}

/** Woodpecker records who approved (or declined) a pipeline in reviewed_by. */
function wasApproved(pipeline: RestartFacts): boolean {
  return typeof pipeline.reviewed_by === 'string' && pipeline.reviewed_by !== '';
}

/**
 * Whether the repository's current settings would hold this pipeline for approval, as
 * Woodpecker decides it when a pipeline is created (server/pipeline/gated.go). An
 * unknown setting counts as holding: the rule must not assume the harmless case.
 */
function wouldBeHeld(pipeline: RestartFacts, repo: RepoFacts): boolean {
  const event = typeof pipeline.event === 'string' ? pipeline.event : '';
  if (NEVER_HELD_EVENTS.has(event)) return false;
  const allowed = Array.isArray(repo.approval_allowed_users) ? repo.approval_allowed_users : [];
  if (typeof pipeline.author === 'string' && allowed.includes(pipeline.author)) return false;
  const pullRequest = PULL_REQUEST_EVENT_SET.has(event);
  switch (repo.require_approval) {
    case 'none':
      return false;
    case 'forks':
      return pullRequest && pipeline.from_fork === true;
    case 'pull_requests':
      return pullRequest;
    default:
      return true;
  }
}

/** Woodpecker's status enum as it is, anything else as "unknown". */
function statusWord(status: unknown): string {
  return typeof status === 'string' && /^[a-z_]{1,20}$/.test(status) ? status : 'unknown';
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
