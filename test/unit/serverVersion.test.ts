// The `since` check: a parameter an older Woodpecker drops is refused with a message that
// names it and the release it needs; GET /version is read once and only when needed.
import { describe, expect, it } from 'vitest';
import { releaseOf, ServerVersion } from '../../runtime/call/serverVersion.js';
import type { ToolDefinition, WoodpeckerRequest } from '../../runtime/tool.js';
import type { WoodpeckerResponse } from '../../runtime/woodpecker/woodpeckerClient.js';

const tool = { name: 'update_secret', since: { note: '3.13.0' } } as unknown as ToolDefinition;

function server(version: unknown, fail = false) {
  const sent: WoodpeckerRequest[] = [];
  const send = async (request: WoodpeckerRequest): Promise<WoodpeckerResponse> => {
    sent.push(request);
    if (fail) throw new Error('connection refused');
    return { status: 200, headers: {}, body: { source: 'x', version } } as unknown as WoodpeckerResponse;
  };
  return { sent, send };
}

const textOf = (result: { content?: unknown } | undefined) => JSON.stringify(result?.content ?? '');

describe('ServerVersion', () => {
  it('refuses note on 3.11.0, naming the field, the release it needs and the fix', async () => {
    const { send } = server('3.11.0');
    const refusal = await new ServerVersion().check(tool, { name: 's', note: 'n' }, send);
    expect(refusal?.isError).toBe(true);
    expect(textOf(refusal)).toMatch(/update_secret: note needs Woodpecker 3\.13 or newer.*runs 3\.11\.0.*Call again without note/);
  });

  it('lets note through on 3.13.0 and later, and on development builds it cannot order', async () => {
    for (const version of ['3.13.0', '3.17.0', '4.0.0', 'next-a4cb541']) {
      expect(await new ServerVersion().check(tool, { note: 'n' }, server(version).send), version).toBeUndefined();
    }
  });

  it('does not read the version when no such argument is given, and reads it once otherwise', async () => {
    const { sent, send } = server('3.11.0');
    const versions = new ServerVersion();
    expect(await versions.check(tool, { name: 's', events: ['push'] }, send)).toBeUndefined();
    expect(sent).toHaveLength(0);
    await versions.check(tool, { note: 'a' }, send);
    await versions.check(tool, { note: 'b' }, send);
    expect(sent).toEqual([{ method: 'GET', path: '/version' }]);
  });

  it('lets the call through when /version cannot be read, and tries again next time', async () => {
    const failing = server('3.11.0', true);
    const versions = new ServerVersion();
    expect(await versions.check(tool, { note: 'n' }, failing.send)).toBeUndefined();
    expect(await versions.check(tool, { note: 'n' }, failing.send)).toBeUndefined();
    expect(failing.sent).toHaveLength(2);
  });

  it('parses releases with or without a leading v', () => {
    expect(releaseOf('3.11.0')).toEqual([3, 11, 0]);
    expect(releaseOf('v3.17.2')).toEqual([3, 17, 2]);
    expect(releaseOf('next-a4cb541')).toBeUndefined();
    expect(releaseOf(undefined)).toBeUndefined();
  });
});
