// Lookups of a tool by name are typed by the generated catalogue (ToolName,
// ToolArgsByName): a handler's `toolNamed` + `requestOf` and the resource and prompt
// reads. `npm run typecheck` compiles this file: each `@ts-expect-error` line below must
// stay an error, or the typecheck fails (a wrong name or argument compiling again).
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { requestOf, type HandlerContext } from '../../../runtime/call/handlerContext.js';
import { handlers } from '../../../runtime/handlers/index.js';
import type { ToolReader } from '../../../runtime/mcp/toolReads.js';

const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
const context = {
  toolNamed: (name: string) => byName.get(name)!,
} as unknown as HandlerContext;

/** Never called: it exists for tsc. */
export function wrongLookups(reader: ToolReader): void {
  // @ts-expect-error a tool name the catalogue does not have
  context.toolNamed('get_pipelines');
  // @ts-expect-error an argument get_pipeline does not take
  requestOf(context.toolNamed('get_pipeline'), { repo_id: 1, number: '3', step_id: 4 });
  // @ts-expect-error an argument of the wrong type (repo_id is an integer)
  requestOf(context.toolNamed('get_pipeline'), { repo_id: '1', number: '3' });
  // @ts-expect-error a required argument left out (number)
  requestOf(context.toolNamed('get_pipeline'), { repo_id: 1 });
  // @ts-expect-error a misspelt tool in a resource or prompt read
  void reader.read('get_repositroy', { repo_id: 1 }, undefined);
  // @ts-expect-error arguments of another tool
  void reader.suggest('list_pipelines', { forge_id: 1 }, undefined);
  // @ts-expect-error a name that is not a tool
  reader.offers('get_everything');
}

describe('typed lookups by tool name', () => {
  it('builds the request of the tool it names, from that tool’s arguments', () => {
    const request = requestOf(context.toolNamed('get_pipeline'), { repo_id: 7, number: 3 });
    expect(request).toMatchObject({ method: 'GET', path: '/api/repos/7/pipelines/3' });
  });

  it('registers each handler under its own tool’s name, the name that types its arguments', () => {
    const withHandler = tools.filter((tool) => tool.handler !== undefined);
    expect(withHandler.map((tool) => tool.handler)).toEqual(withHandler.map((tool) => tool.name));
    expect(Object.keys(handlers).sort()).toEqual(withHandler.map((tool) => tool.name).sort());
  });
});
