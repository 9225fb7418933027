// update_forge: Woodpecker's PATCH /forges/{id} overwrites every field, so a partial
// update would blank the rest. Read the forge, lay the given fields over it, write all.
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';

/** Fields of a forge that the PATCH body carries and that must survive an update. */
const KEPT_FIELDS = ['type', 'url', 'client', 'oauth_host', 'skip_verify'] as const;

export const updateForge: HandlerOf<'update_forge'> = async (context) => {
  const getForge = context.toolNamed('get_forge');
  const current = ((await context.call(requestOf(getForge, { forge_id: context.args.forge_id })))
    .body ?? {}) as Record<string, unknown>;

  const merged: Record<string, unknown> = { ...context.args };
  for (const field of KEPT_FIELDS) {
    if (merged[field] === undefined && current[field] !== undefined && current[field] !== null)
      merged[field] = current[field];
  }
  // An empty oauth_client_secret keeps the stored one; we never read it back anyway.
  const request = requestOf(context.tool, merged);
  const body = {
    ...(request.body as Record<string, unknown> | undefined),
    additional_options: current.additional_options ?? {},
  };
  const response = await context.call({ ...request, body });
  return { data: { ...((response.body ?? {}) as Record<string, unknown>) } };
};
