import type { components } from '../../generated/woodpecker-api.js';

type WebhookEvent = components['schemas']['WebhookEvent'];

/**
 * Every pipeline event Woodpecker knows (its WebhookEvent), in the spec's order: the one
 * list the operator policy's `events` and the tests of tools.yaml's event enums read.
 * `tsc` refuses a name the pinned spec does not have; test/unit/core/woodpeckerEvents
 * fails when the spec gains one this list lacks.
 */
export const WEBHOOK_EVENTS = [
  'push',
  'pull_request',
  'pull_request_closed',
  'pull_request_metadata',
  'tag',
  'release',
  'deployment',
  'cron',
  'manual',
] as const satisfies readonly WebhookEvent[];

// Pipeline events Woodpecker treats as one family. Its IsPullRequest (3.11:
// model.Pipeline; 3.17 and main: metadata.Event.IsPull) counts all three pull request
// events, and a secret listed for any of them reaches pipelines a fork can start. The
// guard (through tools.yaml's `adds_family`, compiled by the generator) and the restart
// policy read the family from here, so a fourth event is added in one place.
export const EVENT_FAMILIES = {
  pull_request: ['pull_request', 'pull_request_closed', 'pull_request_metadata'],
} as const satisfies Readonly<Record<string, readonly WebhookEvent[]>>;

/** Every event Woodpecker's IsPullRequest counts. */
export const PULL_REQUEST_EVENTS: readonly string[] = EVENT_FAMILIES.pull_request;
