// Nobody is asked about a call that cannot be made. A guarded call whose arguments do not
// build a Woodpecker request (scope "repository" without repo_id, for example) must fail
// before the gate with an error that names the missing field, not show a dialog, hand
// out a token, and then fail "unexpectedly".
import { describe, expect, it } from 'vitest';
import { REVISIONS, withSession, textOf } from './mcpSession.js';

const UNBUILDABLE: ReadonlyArray<{ tool: string; args: Record<string, unknown>; field: string }> = [
  { tool: 'delete_secret', args: { scope: 'repository', name: 'whatever' }, field: 'repo_id' },
  { tool: 'delete_secret', args: { scope: 'organization', name: 'whatever' }, field: 'org_id' },
  {
    tool: 'delete_registry',
    args: { scope: 'repository', address: 'registry.example.invalid' },
    field: 'repo_id',
  },
  {
    tool: 'update_registry',
    args: { scope: 'organization', address: 'registry.example.invalid', password: 'pw' },
    field: 'org_id',
  },
];

describe.each(REVISIONS)('%s', (revision) => {
  it.each(UNBUILDABLE.map((c) => [`${c.tool} ${JSON.stringify(c.args)}`, c] as const))(
    '%s: no dialog, no token, an error naming the missing field',
    async (_, { tool, args, field }) => {
      for (const canElicit of [true, false]) {
        await withSession({ revision, canElicit }, async (session) => {
          const result = await session.call(tool, args);
          const text = textOf(result);
          expect(session.dialogs, `${tool} asked about a call it cannot make`).toHaveLength(0);
          expect(result.isError, text).toBe(true);
          expect(
            (result.structuredContent as Record<string, unknown> | undefined)?.confirm_token,
            'a token for a call that cannot be made',
          ).toBeUndefined();
          expect(text).toContain(field);
          expect(text).not.toMatch(/unexpectedly/);
        });
      }
    },
  );
});
