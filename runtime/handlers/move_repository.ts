// move_repository: Woodpecker up to 3.12 performs the move and then answers HTTP 500
// with an empty body. Retrying that would move twice, and reporting it as a failure
// would be false. After any 5xx, read the repository back and say what happened.
import { ToolOutcomeError } from '../core/errors.js';
import { WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';

export const moveRepository: HandlerOf<'move_repository'> = async (context) => {
  const target = String(context.args.to);
  let status: number;
  try {
    status = (await context.call(requestOf(context.tool, context.args))).status;
  } catch (error) {
    if (!(error instanceof WoodpeckerHttpError) || error.status < 500) throw error;
    status = error.status;
  }

  const getRepository = context.toolNamed('get_repository');
  const repository = (
    await context.call(requestOf(getRepository, { repo_id: context.args.repo_id }))
  ).body as { full_name?: unknown } | undefined;
  const fullName = typeof repository?.full_name === 'string' ? repository.full_name : '';
  const moved = fullName.toLowerCase() === target.toLowerCase();

  if (status < 300)
    return {
      data: {
        moved,
        repo_id: context.args.repo_id,
        full_name: fullName,
        woodpecker_status: status,
      },
    };
  if (!moved)
    throw new ToolOutcomeError(
      `Woodpecker answered HTTP ${status} and the repository was not moved: it is still ${fullName}.`,
    );
  const note = `Woodpecker answered HTTP ${status}, but the repository was moved: it is now ${fullName}. Do not retry. (Woodpecker up to 3.12 moves and then fails this way; its forge webhook may still point at the old name, so run repair_repository for this repository.)`;
  return {
    data: {
      moved,
      repo_id: context.args.repo_id,
      full_name: fullName,
      woodpecker_status: status,
      note,
    },
  };
};
