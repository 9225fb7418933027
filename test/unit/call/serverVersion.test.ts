// The `since` check: a parameter an older Woodpecker drops is refused with a message that
// names it and the release it needs; GET /version is read once and only when needed.
import { describe, expect, it } from 'vitest';
import { releaseOf, ServerVersion } from '../../../runtime/call/serverVersion.js';
import type { ToolDefinition, WoodpeckerRequest } from '../../../runtime/core/tool.js';
import type { WoodpeckerResponse } from '../../../runtime/woodpecker/woodpeckerClient.js';

const tool = { name: 'update_secret', since: { note: '3.13.0' } } as unknown as ToolDefinition;

function server(version: unknown, fail = false) {
  const sent: WoodpeckerRequest[] = [];
  const send = async (request: WoodpeckerRequest): Promise<WoodpeckerResponse> => {
    sent.push(request);
    if (fail) throw new Error('connection refused');
    return {
      status: 200,
      headers: {},
      body: { source: 'x', version },
    } as unknown as WoodpeckerResponse;
  };
  return { sent, send };
}

const textOf = (result: { content?: unknown } | undefined) => JSON.stringify(result?.content ?? '');

describe('ServerVersion', () => {
  it('refuses note on 3.11.0, naming the field, the release it needs and the fix', async () => {
    const { send } = server('3.11.0');
    const refusal = await new ServerVersion().check(tool, { name: 's', note: 'n' }, send);
    expect(refusal?.isError).toBe(true);
    expect(textOf(refusal)).toMatch(
      /update_secret: note needs Woodpecker ≥ 3\.13; this server is 3\.11\.0.*Nothing was sent\. Call again without note\./,
    );
  });

  it('lets note through on 3.13.0 and later, and on development builds it cannot order', async () => {
    for (const version of ['3.13.0', '3.17.0', '4.0.0', 'next-a4cb541']) {
      expect(
        await new ServerVersion().check(tool, { note: 'n' }, server(version).send),
        version,
      ).toBeUndefined();
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

  const cronTool = {
    name: 'create_cron',
    since: { enabled: '3.15.0', timezone: '3.15.0' },
    impliedBeforeSince: { enabled: true },
  } as unknown as ToolDefinition;

  it('lets through the value an older release applies anyway, and refuses the other one with the fix', async () => {
    const { send } = server('3.11.0');
    const versions = new ServerVersion();
    expect(await versions.check(cronTool, { name: 'c', enabled: true }, send)).toBeUndefined();
    const refusal = await versions.check(
      cronTool,
      { name: 'c', enabled: false, timezone: 'Europe/Berlin' },
      send,
    );
    expect(textOf(refusal)).toMatch(
      /enabled needs Woodpecker ≥ 3\.15; timezone needs Woodpecker ≥ 3\.15; this server is 3\.11\.0/,
    );
    expect(textOf(refusal)).toContain(
      'Call again with enabled: true (what it does anyway) and without timezone.',
    );
    expect(
      await new ServerVersion().check(
        cronTool,
        { enabled: false, timezone: 'UTC' },
        server('3.15.0').send,
      ),
    ).toBeUndefined();
  });

  const newTool = {
    name: 'download_step_log',
    availableSince: '3.18.0',
  } as unknown as ToolDefinition;

  it('refuses a tool whose route the server lacks, called by name, and does not offer it once the version is known', async () => {
    const { send } = server('3.17.0');
    const versions = new ServerVersion();
    expect(versions.offers(newTool), 'not known yet: offered, the call decides').toBe(true);
    const refusal = await versions.check(newTool, {}, send);
    expect(refusal?.isError).toBe(true);
    expect(textOf(refusal)).toContain(
      'download_step_log: needs Woodpecker ≥ 3.18; this server is 3.17.0.',
    );
    expect(versions.offers(newTool)).toBe(false);
    expect(versions.offers(tool)).toBe(true);
    const next = new ServerVersion();
    await next.learn(server('3.18.0-dev+a4cb541').send);
    expect(next.offers(newTool)).toBe(true);
    expect(await next.check(newTool, {}, server('3.18.0-dev+a4cb541').send)).toBeUndefined();
  });

  it('serves a development build it cannot order, and a release newer than every spec, as the newest; the latter with one line on stderr', async () => {
    const lines: string[] = [];
    const dev = new ServerVersion({
      warn: (line) => lines.push(line),
      known: ['3.11.0', '3.17.0'],
    });
    await dev.learn(server('next-a4cb541').send);
    expect(dev.offers(newTool)).toBe(true);
    expect(await dev.check(tool, { note: 'n' }, server('next-a4cb541').send)).toBeUndefined();
    expect(lines).toEqual([]);

    const newer = new ServerVersion({
      warn: (line) => lines.push(line),
      known: ['3.11.0', '3.17.0'],
    });
    await newer.learn(server('4.2.0').send);
    await newer.check(tool, { note: 'n' }, server('4.2.0').send);
    expect(newer.offers(newTool)).toBe(true);
    expect(lines).toEqual([
      'woodpecker-ci-mcp: Woodpecker 4.2.0 is newer than every release the tools were checked against (newest: 3.17.0); serving it as 3.17.0.',
    ]);

    const known = new ServerVersion({
      warn: (line) => lines.push(line),
      known: ['3.11.0', '3.17.0'],
    });
    await known.learn(server('3.17.0').send);
    expect(lines).toHaveLength(1);
  });

  it('parses releases with or without a leading v', () => {
    expect(releaseOf('3.11.0')).toEqual([3, 11, 0]);
    expect(releaseOf('v3.17.2')).toEqual([3, 17, 2]);
    expect(releaseOf('next-a4cb541')).toBeUndefined();
    expect(releaseOf(undefined)).toBeUndefined();
  });
});
