// update_repository: Woodpecker before 3.12 (3.11 here) compares all three trusted flags
// of a PATCH before it checks which were sent, so a body with one flag but not the
// others makes it dereference nil and answer 500 — withdrawing trusted_security failed
// and the flag stayed on. When any trusted_* flag is given, send all three: the given
// ones, and the others as they are now. Every release accepts that body.
import { answerOf } from '../output/answer.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';

const TRUSTED_FLAGS = [
  ['trusted_network', 'network'],
  ['trusted_volumes', 'volumes'],
  ['trusted_security', 'security'],
] as const;

export const updateRepository: HandlerOf<'update_repository'> = async (context) => {
  const args: Record<string, unknown> = { ...context.args };
  if (TRUSTED_FLAGS.some(([param]) => args[param] !== undefined)) {
    // The gate read the repository to decide whether this grants trust; reuse that.
    const current = (context.current ??
      (
        await context.call(
          requestOf(context.toolNamed('get_repository'), { repo_id: context.args.repo_id }),
        )
      ).body) as { trusted?: Record<string, unknown> } | undefined;
    for (const [param, field] of TRUSTED_FLAGS) {
      if (args[param] === undefined) args[param] = current?.trusted?.[field] === true;
    }
  }
  const response = await context.call(requestOf(context.tool, args));
  return answerOf(context.tool, context.args, response);
};
