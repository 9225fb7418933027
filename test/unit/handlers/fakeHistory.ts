// One fake Woodpecker history for the insight handlers' unit tests (flaky evidence,
// since_green, compare_pipelines): a repository's pipelines, newest first, answered the way
// Woodpecker pages them, with each pipeline by number and, where a test asks, its config.
// Every request is recorded, so a test can hold a handler to the bound its description states.
import { tools } from '../../../generated/index.js';
import type { HandlerContext } from '../../../runtime/call/handlerContext.js';
import type { WoodpeckerRequest } from '../../../runtime/core/tool.js';

export type Raw = Record<string, unknown>;

export interface FakeHistory<Args extends Readonly<Raw>> {
  context: HandlerContext<Args>;
  /** Every request the handler sent, in order. */
  sent: WoodpeckerRequest[];
}

interface Options<Args> {
  /** The call's arguments, for handlers that read them from the context. */
  args?: Args;
  /** The config files of pipeline `number`; without it a config request finds nothing. */
  config?: (number: number) => { name: string; text: string }[];
}

const byName = new Map(tools.map((tool) => [tool.name, tool] as const));

/** A context whose Woodpecker holds `history` (newest first). */
export function fakeHistory<Args extends Readonly<Raw> = Raw>(
  history: Raw[],
  options: Options<Args> = {},
): FakeHistory<Args> {
  const sent: WoodpeckerRequest[] = [];
  const context = {
    args: options.args,
    call: async (request: WoodpeckerRequest) => {
      sent.push(request);
      if (/\/pipelines$/.test(request.path)) {
        const page = Number(request.query?.page ?? 1);
        const perPage = Number(request.query?.perPage ?? 50);
        return { status: 200, body: history.slice((page - 1) * perPage, page * perPage) };
      }
      const config = /\/pipelines\/(\d+)\/config$/.exec(request.path);
      if (config) {
        const files = options.config?.(Number(config[1])) ?? [];
        return {
          status: 200,
          body: files.map(({ name, text }) => ({
            name,
            data: Buffer.from(text).toString('base64'),
          })),
        };
      }
      const number = Number(request.path.split('/').pop());
      return { status: 200, body: history.find((pipeline) => pipeline.number === number) };
    },
    toolNamed: (name: string) => byName.get(name)!,
  } as unknown as HandlerContext<Args>;
  return { context, sent };
}
