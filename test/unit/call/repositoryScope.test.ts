// RepositoryScope reads what a tool declares (tools.yaml `repositories`, emitted onto the
// tool definition), never its name: tools made up here, with names no manifest has, are
// checked exactly as their declarations say. The real tools' behaviour against a real
// Woodpecker is test/e2e/repository-allowlist.test.ts.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { tools } from '../../../generated/index.js';
import { RepositoryScope } from '../../../runtime/call/repositoryScope.js';
import type { Send } from '../../../runtime/woodpecker/woodpeckerClient.js';
import type {
  RepositoryPolicy,
  ToolDefinition,
  WoodpeckerRequest,
} from '../../../runtime/core/tool.js';
import { WoodpeckerHttpError } from '../../../runtime/woodpecker/woodpeckerClient.js';

const toolsByName = new Map(tools.map((tool) => [tool.name, tool] as const));
const scope = () => new RepositoryScope(['acme/site'], toolsByName);

/** A tool no manifest has, with only the declaration under test. */
function madeUp(repositories?: RepositoryPolicy): ToolDefinition {
  return {
    name: 'frobnicate_widget',
    title: 'Frobnicate',
    description: 'Made up for this test.',
    group: 'repositories',
    adminOnly: false,
    essential: false,
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    inputSchema: { type: 'object', properties: {} },
    output: { kind: 'none', redact: [], reveal: [], untrusted: false },
    errorHints: {},
    ...(repositories ? { repositories } : {}),
  };
}

/** Woodpecker as the lookups see it: repositories by id, and the forge's list. */
function woodpecker(): { send: Send; sent: string[] } {
  const byId: Record<string, string> = { '1': 'acme/site', '2': 'other/secret' };
  const sent: string[] = [];
  const send: Send = async (request: WoodpeckerRequest) => {
    sent.push(`${request.method} ${request.path}`);
    const id = /^\/api\/repos\/(\d+)$/.exec(request.path)?.[1];
    if (id !== undefined) {
      const fullName = byId[id];
      if (!fullName) throw new WoodpeckerHttpError(404, request.method, request.path, '');
      return { status: 200, headers: {}, body: { id: Number(id), full_name: fullName } };
    }
    if (request.path === '/api/user/repos') {
      const body = [
        { forge_remote_id: '100', full_name: 'acme/site' },
        { forge_remote_id: '200', full_name: 'other/secret' },
      ];
      return { status: 200, headers: {}, body };
    }
    throw new Error(`unexpected request ${request.method} ${request.path}`);
  };
  return { send, sent };
}

const textOf = (result: CallToolResult | undefined) =>
  (result?.content[0] as { text: string } | undefined)?.text;
const NOT_FOUND = /^frobnicate_widget failed: Woodpecker has no such repository/;

describe('the allowlist follows the declaration on the tool definition', () => {
  it('refuses the declared use outright, with the declared reason, sending nothing', async () => {
    const tool = madeUp({
      args: {},
      refuse: { when: { mode: 'everything', dry: false }, because: 'it frobnicates every repo.' },
    });
    const { send, sent } = woodpecker();
    const refused = await scope().check(tool, { mode: 'everything', dry: false }, send);
    expect(refused?.isError).toBe(true);
    expect(textOf(refused)).toBe('frobnicate_widget refused: it frobnicates every repo.');
    // Every equality must hold: another value is not that use.
    expect(await scope().check(tool, { mode: 'everything', dry: true }, send)).toBeUndefined();
    expect(await scope().check(tool, { mode: 'one' }, send)).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('an id argument under any name is judged by the name Woodpecker gives it', async () => {
    const tool = madeUp({ args: { widget_repo: 'id' } });
    const { send, sent } = woodpecker();
    expect(await scope().check(tool, { widget_repo: 1 }, send)).toBeUndefined();
    expect(textOf(await scope().check(tool, { widget_repo: 2 }, send))).toMatch(NOT_FOUND);
    expect(textOf(await scope().check(tool, { widget_repo: 3 }, send))).toMatch(NOT_FOUND);
    expect(sent).toEqual(['GET /api/repos/1', 'GET /api/repos/2', 'GET /api/repos/3']);
  });

  it('a new name must be in the list and is not looked up (it need not exist yet)', async () => {
    const tool = madeUp({ args: { source: 'id', target: 'new_full_name' } });
    const { send, sent } = woodpecker();
    expect(textOf(await scope().check(tool, { source: 1, target: 'other/x' }, send))).toMatch(
      NOT_FOUND,
    );
    // Refused on the name alone, before any lookup.
    expect(sent).toEqual([]);
    expect(await scope().check(tool, { source: 1, target: 'acme/site' }, send)).toBeUndefined();
    expect(sent).toEqual(['GET /api/repos/1']);
  });

  it("a forge id is judged by the name the forge's list gives it", async () => {
    const tool = madeUp({ args: { remote: 'forge_remote_id' } });
    const { send, sent } = woodpecker();
    expect(await scope().check(tool, { remote: '100' }, send)).toBeUndefined();
    expect(textOf(await scope().check(tool, { remote: '200' }, send))).toMatch(NOT_FOUND);
    expect(textOf(await scope().check(tool, { remote: '999' }, send))).toMatch(NOT_FOUND);
    expect(sent.every((line) => line === 'GET /api/user/repos')).toBe(true);
    expect(sent).toHaveLength(3);
  });

  it('looks at no argument a tool does not declare (the generator refuses an undeclared repo_id)', async () => {
    const { send, sent } = woodpecker();
    expect(await scope().check(madeUp(), { repo_id: 2 }, send)).toBeUndefined();
    expect(
      await scope().check(madeUp({ args: { other: 'id' } }), { repo_id: 2 }, send),
    ).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it("checks a repository a handler found itself, whatever the handler's tool declares", async () => {
    const { send } = woodpecker();
    const tool = madeUp();
    expect(await scope().checkRepository(tool, { repo_id: 1 }, send)).toBeUndefined();
    expect(textOf(await scope().checkRepository(tool, { repo_id: 2 }, send))).toMatch(NOT_FOUND);
    expect(
      textOf(await scope().checkRepository(tool, { full_name: 'other/secret' }, send)),
    ).toMatch(NOT_FOUND);
  });
});

describe('which full names a pattern covers', () => {
  const patterns = new RepositoryScope(['acme/*', 'group/sub/*', 'tools/kube'], toolsByName);

  it('owner/* covers that owner only: not a nested group below it, not a longer owner', () => {
    expect(patterns.allows('acme/site')).toBe(true);
    expect(patterns.allows('acme/sub/site')).toBe(false);
    expect(patterns.allows('acme/site/extra')).toBe(false);
    expect(patterns.allows('acme-evil/site')).toBe(false);
    expect(patterns.allows('evil/acme/site')).toBe(false);
    expect(patterns.allows('group/sub/site')).toBe(true);
    expect(patterns.allows('group/site')).toBe(false);
    expect(patterns.allows('group/sub/deeper/site')).toBe(false);
  });

  it('ignores ASCII case only: a Unicode look-alike is another name', () => {
    expect(patterns.allows('ACME/Site')).toBe(true);
    expect(patterns.allows('Tools/KUBE')).toBe(true);
    // U+212A KELVIN SIGN lowercases to "k" in Unicode, but is not the letter K.
    expect(patterns.allows('tools/\u212Aube')).toBe(false);
    expect(patterns.allows('tools/kube ')).toBe(false);
  });
});
