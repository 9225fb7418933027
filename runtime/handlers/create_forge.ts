// create_forge: every POST /forges adds another forge, and a person's approval can be
// redeemed again until it expires (a retried request, a model that loops). So a forge
// of the same type, URL and OAuth client that already exists is returned instead of
// being added twice; the approved forge is the one that exists, once. Either forge is
// shown through the forge view (as update_forge's), with already_existed, this server's
// own field, after it.
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';
import type { ToolAnswer } from '../output/answer.js';

/** Woodpecker caps a page at 50; an instance with more forges than this is not plausible. */
const PER_PAGE = 50;
const MAX_PAGES = 20;

type Forge = Record<string, unknown>;

export const createForge: HandlerOf<'create_forge'> = async (context) => {
  const { type, url, client } = context.args;
  // Redaction happens in the output step, before the view, like for every other answer.
  const answer = (forge: Forge, alreadyExisted: boolean): ToolAnswer => {
    const view = context.tool.output.view;
    return {
      data: { ...forge, already_existed: alreadyExisted },
      ...(view ? { view: [...view, { name: 'already_existed', show: 'sent' as const }] } : {}),
    };
  };
  const listForges = context.toolNamed('list_forges');
  for (let page = 1; page <= MAX_PAGES; page++) {
    const forges = ((await context.call(requestOf(listForges, { page, per_page: PER_PAGE })))
      .body ?? []) as Forge[];
    const same = forges.find(
      (forge) =>
        forge.type === type && forge.url === url && (forge.client ?? '') === (client ?? ''),
    );
    if (same) return answer(same, true);
    if (forges.length < PER_PAGE) break;
  }
  const created = await context.call(requestOf(context.tool, context.args));
  return answer((created.body ?? {}) as Forge, false);
};
