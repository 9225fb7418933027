// Output shaping: redaction of credentials, the list envelope that says when there may
// be more, and the answer each output kind makes of Woodpecker's response. The output step
// applies them.
import type { ResourceLink } from '@modelcontextprotocol/server';
import {
  GATE_ARGUMENT,
  type OutputSpec,
  type ToolArgs,
  type ToolDefinition,
  type View,
} from '../core/tool.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';

/**
 * Fields that hold credentials somewhere in Woodpecker's answers: an agent's token is
 * returned in clear text to admins, forges return their OAuth secret. They are replaced
 * wherever they appear, at any depth.
 */
const ALWAYS_REDACTED = new Set([
  'token',
  'password',
  'oauth_client_secret',
  'client_secret',
  'access_token',
  'refresh_token',
  'agent_secret',
  'hash',
]);

export const REDACTED = '[redacted]';

/** Woodpecker caps perPage at 50 without saying so. */
export const WOODPECKER_MAX_PAGE_SIZE = 50;

export function redact(value: unknown, output: Pick<OutputSpec, 'redact' | 'reveal'>): unknown {
  const extra = new Set(output.redact);
  const reveal = new Set(output.reveal);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const secret = (ALWAYS_REDACTED.has(key) || extra.has(key)) && !reveal.has(key);
        copy[key] =
          secret && child !== '' && child !== null && child !== undefined ? REDACTED : walk(child);
      }
      return copy;
    }
    return node;
  };
  return walk(value);
}

export interface ListEnvelope<T = unknown> {
  readonly items: T[];
  readonly page: number;
  readonly per_page: number;
  readonly may_have_more: boolean;
  readonly note?: string;
}

/**
 * Woodpecker sends no totals or links: a full page is the only sign there may be more.
 * Routes without paging (a user's repositories, the feed, the queue) return everything.
 */
export function listEnvelope(body: unknown, args: ToolArgs, paginated = true): ListEnvelope {
  const items = Array.isArray(body) ? body : body === null || body === undefined ? [] : [body];
  const page = typeof args.page === 'number' ? args.page : 1;
  const perPage =
    typeof args.per_page === 'number'
      ? Math.min(args.per_page, WOODPECKER_MAX_PAGE_SIZE)
      : WOODPECKER_MAX_PAGE_SIZE;
  const mayHaveMore = paginated && items.length >= perPage;
  return {
    items,
    page,
    per_page: perPage,
    may_have_more: mayHaveMore,
    ...(mayHaveMore ? { note: `This page is full; ask for page ${page + 1} to see more.` } : {}),
  };
}

/**
 * What a tool produced, before the output step (runtime/output/outputStep.ts) turns it into
 * an MCP result: plain data, never an MCP result, so every tool's answer passes the same
 * redaction, repository filter, untrusted marking and size limit.
 */
export interface ToolAnswer {
  readonly data: Record<string, unknown>;
  /** The one array in `data` that may lose whole entries to fit the result limit. */
  readonly shortenable?: Shortenable;
  /** Resources the client may read later (a whole log when only a part was returned). */
  readonly links?: readonly ResourceLink[];
  /** The view the output step applies (after the allowlist, which reads whole entries). */
  readonly view?: View;
}

export interface Shortenable {
  readonly field: string;
  /** Which end survives: a list keeps its first entries, a log tail its last lines. */
  readonly keep: 'start' | 'end';
  /** The words that tell the caller how to ask for less ("a smaller per_page"). */
  readonly narrow: string;
  /**
   * The fields that describe the entries (a log's first_line and last_line), as they
   * must read when only entries [from, to) are kept: merged over the answer's own.
   */
  readonly describe?: (from: number, to: number) => Record<string, unknown>;
}

/** The answer of a plain Woodpecker call, shaped by the tool's output kind. */
export function answerOf(
  tool: ToolDefinition,
  args: ToolArgs,
  response: WoodpeckerResponse,
): ToolAnswer {
  const answer = plainAnswerOf(tool, args, response);
  // `detail: "full"` asks for Woodpecker's whole object; a 204 where an object was due
  // (a filtered pipeline) is our own note, not Woodpecker's object, and has no view.
  const view = tool.output.view;
  const viewed =
    view !== undefined &&
    args.detail !== 'full' &&
    (tool.output.kind !== 'object' || isObject(response.body));
  return viewed ? { ...answer, view } : answer;
}

function plainAnswerOf(
  tool: ToolDefinition,
  args: ToolArgs,
  response: WoodpeckerResponse,
): ToolAnswer {
  const body = response.body;
  switch (tool.output.kind) {
    case 'list':
      return {
        data: listEnvelope(body, args, 'page' in tool.inputSchema.properties) as unknown as Record<
          string,
          unknown
        >,
        shortenable: { field: 'items', keep: 'start', narrow: narrowingOf(tool) },
      };
    case 'none':
      return {
        data: { done: true, status: response.status, ...(isObject(body) ? { result: body } : {}) },
      };
    case 'text':
      return { data: { text: typeof body === 'string' ? body : JSON.stringify(body ?? '') } };
    case 'object':
    default:
      if (isObject(body)) return { data: body };
      // Some routes answer 204 where an object would be expected (a filtered pipeline).
      return { data: { result: body ?? null, status: response.status, ...filteredNote(response) } };
  }
}

/** How a caller asks a list tool for fewer entries: its paging, its filters, or both. */
function narrowingOf(tool: ToolDefinition): string {
  const properties = Object.keys(tool.inputSchema.properties);
  const required = new Set(tool.inputSchema.required ?? []);
  const filters = properties.filter(
    (name) => !required.has(name) && !['page', 'per_page', GATE_ARGUMENT, 'detail'].includes(name),
  );
  const ways = [
    ...(properties.includes('per_page')
      ? ['a smaller per_page (then page through with page)']
      : []),
    ...(filters.length > 0 ? [`a narrower ${filters.join(', ')}`] : []),
  ];
  return ways.length > 0
    ? ways.join(', or ')
    : 'nothing narrower (this route has no paging or filter; raise the limit)';
}

function filteredNote(response: WoodpeckerResponse): Record<string, unknown> {
  return response.headers['pipeline-filtered'] === 'true'
    ? {
        filtered: true,
        note: 'Woodpecker created no pipeline: every workflow was filtered out (no config file, [skip ci], or when: conditions).',
      }
    : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
