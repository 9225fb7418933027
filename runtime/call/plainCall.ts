// The parts of a plain call (one tools.yaml `calls` entry) besides sending it: the reads a
// guard predicate declared, the object a PATCH must be built from, and the check that a
// write Woodpecker answered really stored something.
import type { Looked, ToolArgs, ToolDefinition, WoodpeckerRequest } from '../core/tool.js';
import { ToolOutcomeError } from '../core/errors.js';
import { WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';

/**
 * A read a predicate declared: 404 means "not there", any other refusal (403 for a
 * caller who may not read that level, 5xx) means "could not tell", which asks.
 */
export async function lookWith(
  send: (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>,
  request: WoodpeckerRequest,
): Promise<Looked> {
  try {
    return { status: 'found', body: (await send(request)).body };
  } catch (error) {
    if (!(error instanceof WoodpeckerHttpError)) throw error;
    return error.status === 404 ? { status: 'absent' } : { status: 'unreadable' };
  }
}

/**
 * The call of a write whose PATCH overwrites what it is not sent (tools.yaml `current`),
 * built with the object as it is now: the guard's read when it made the same one, else a
 * read of its own, sent only when the arguments leave something to fill in.
 */
export async function withCurrent(
  tool: ToolDefinition,
  args: ToolArgs,
  request: WoodpeckerRequest,
  guardRead: unknown,
  send: (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>,
): Promise<WoodpeckerRequest> {
  const current = tool.current;
  if (!current || !tool.request || !current.needed(args)) return request;
  const now =
    current.sameAsGuardRead && guardRead !== undefined
      ? guardRead
      : (await send(current.read(args))).body;
  return tool.request(args, now);
}

/** Woodpecker answers some writes that matched nothing with 200 and id 0 (tools.yaml `stored_id`). */
export function requireStoredId(tool: ToolDefinition, response: WoodpeckerResponse): void {
  const id = (response.body as { id?: unknown } | null | undefined)?.id;
  if (typeof id === 'number' && id !== 0) return;
  const check = tool.readBack?.[0];
  throw new ToolOutcomeError(
    `Woodpecker answered HTTP ${response.status} but reports no stored object (id ${String(id)}); nothing was changed.${check ? ` Check it with ${check}.` : ''}`,
  );
}
