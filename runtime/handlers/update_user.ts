// update_user: Woodpecker's PATCH /users/{login} (3.17, still so on main) first looks the
// account up by the body's forge_remote_id and falls back to the login only when that
// lookup returns nil. Its store returns an empty, non-nil user when nothing matches, so a
// body without forge_remote_id updates no row and still answers 200 (with id 0). Read the
// account first and send its forge_remote_id, so the lookup finds it.
import { ToolOutcomeError } from '../core/errors.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';

export const updateUser: HandlerOf<'update_user'> = async (context) => {
  const { login, forge_id } = context.args;
  // The gate already read the account to decide whether this grants admin; reuse that.
  const current = (context.current ??
    (await context.call(requestOf(context.toolNamed('get_user'), { login, forge_id }))).body ??
    {}) as Record<string, unknown>;

  const request = requestOf(context.tool, context.args);
  const body = {
    ...(request.body as Record<string, unknown> | undefined),
    forge_remote_id: current.forge_remote_id,
  };
  const response = await context.call({ ...request, body });
  const updated = (response.body ?? {}) as Record<string, unknown>;
  if (typeof updated.id !== 'number' || updated.id === 0) {
    throw new ToolOutcomeError(
      `Woodpecker answered HTTP ${response.status} but reports no stored account (id ${String(updated.id)}); nothing was changed. Check the account with get_user.`,
    );
  }
  return { data: updated };
};
