// End-to-end: the cron tools through a real MCP client against the harness's Woodpecker.
// Schedules are "0 0 1 1 *" style (midnight on January 1st), so nothing fires on its own
// during a run; run_cron starts the pipeline that the test then watches on the agent.
import { describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  offlinePipelineYaml,
  serverOlderThan,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import type { WoodpeckerPipeline } from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';
import type { ListEnvelope } from '../../runtime/output/answer.js';
import { timeOf } from '../../runtime/output/view.js';

interface Cron {
  id: number;
  name: string;
  repo_id: number;
  schedule: string;
  timezone: string;
  branch: string;
  enabled: boolean;
  next_exec: number;
}

/** Unix seconds of the next midnight of January 1st in UTC, shifted by an offset in hours. */
function nextNewYear(offsetHours = 0): number {
  const year = new Date().getUTCFullYear() + 1;
  return Date.UTC(year, 0, 1) / 1000 - offsetHours * 3600;
}

describe.each(REVISIONS)('crons on %s', (revision) => {
  it('create (UTC default, enabled), get, list with paging, update only what is passed, run on the agent, delete', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml(
          [{ name: 'nightly', commands: ['echo cron-ran'] }],
          ['cron', 'manual'],
        ),
      },
    });
    const api = adminApi();
    const cronPath = (id: number) => `/api/repos/${repo.repoId}/cron/${id}`;
    // Crons have a timezone and an enabled flag from Woodpecker 3.15 on; before, every cron
    // fires, in UTC. There the tools refuse a timezone and enabled: false, naming the release.
    const modern = !serverOlderThan('3.15.0');
    const since315 = (fields: Partial<Cron>) => (modern ? fields : {});
    const refusal = (tool: string, params: string) =>
      `${tool}: ${params}; this server is ${harnessInfo().version}, which would drop it without saying so. Nothing was sent.`;

    await withSession({ revision }, async (session) => {
      // create: no timezone given → UTC; enabled as passed.
      const created = await session.ok<Cron>('create_cron', {
        repo_id: repo.repoId,
        name: 'new-year',
        schedule: '0 0 1 1 *',
        enabled: true,
      });
      expect(created.id).toBeGreaterThan(0);
      const stored = await api.get<Cron>(cronPath(created.id));
      expect(stored).toMatchObject({
        name: 'new-year',
        schedule: '0 0 1 1 *',
        ...since315({ timezone: 'UTC', enabled: true }),
        repo_id: repo.repoId,
      });
      expect(stored.next_exec).toBe(nextNewYear());

      // A second one on an explicit branch and timezone, switched off.
      const berlinArgs = {
        repo_id: repo.repoId,
        name: 'new-year-berlin',
        schedule: '0 0 1 1 *',
        timezone: 'Europe/Berlin',
        branch: 'main',
        enabled: false,
      };
      if (!modern) {
        const refused = await session.call('create_cron', berlinArgs);
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain(
          refusal(
            'create_cron',
            'timezone needs Woodpecker ≥ 3.15; enabled needs Woodpecker ≥ 3.15',
          ),
        );
        expect(textOf(refused)).toContain(
          'Call again without timezone and with enabled: true (what it does anyway).',
        );
        expect(
          ((await api.get<Cron[]>(`/api/repos/${repo.repoId}/cron`)) ?? []).map(
            (cron) => cron.name,
          ),
        ).toEqual(['new-year']);
      }
      const berlin = await session.ok<Cron>(
        'create_cron',
        modern ? berlinArgs : { ...berlinArgs, timezone: undefined, enabled: true },
      );
      // Midnight in Berlin (UTC+1 in January) is 23:00 UTC the day before.
      expect(await api.get<Cron>(cronPath(berlin.id))).toMatchObject(
        modern
          ? { timezone: 'Europe/Berlin', branch: 'main', enabled: false, next_exec: nextNewYear(1) }
          : { branch: 'main', next_exec: nextNewYear() },
      );

      // A duplicate name is refused with a hint to use update_cron.
      const duplicate = await session.call('create_cron', {
        repo_id: repo.repoId,
        name: 'new-year',
        schedule: '0 0 1 1 *',
        enabled: true,
      });
      expect(duplicate.isError).toBe(true);
      expect(textOf(duplicate)).toMatch(/409|already/);

      // get: the view leaves out what goes without saying, the same on every release: the
      // timezone UTC (Woodpecker's default) and enabled true (before 3.15 every cron runs).
      const got = await session.ok<Cron>('get_cron', { repo_id: repo.repoId, cron_id: created.id });
      expect(got).toMatchObject({
        id: created.id,
        name: 'new-year',
        schedule: '0 0 1 1 *',
        next_exec: timeOf(nextNewYear()), // the view shows times in ISO 8601 UTC
      });
      expect(got).not.toHaveProperty('timezone');
      expect(got).not.toHaveProperty('enabled');

      // list: both; per_page 1 pages through them. Another timezone and enabled false show.
      const all = await session.ok<ListEnvelope<Cron>>('list_crons', { repo_id: repo.repoId });
      expect(all.items.map((cron) => cron.name).sort()).toEqual(['new-year', 'new-year-berlin']);
      const shownBerlin = all.items.find((cron) => cron.id === berlin.id)!;
      if (modern) expect(shownBerlin).toMatchObject({ timezone: 'Europe/Berlin', enabled: false });
      else {
        expect(shownBerlin).not.toHaveProperty('timezone');
        expect(shownBerlin).not.toHaveProperty('enabled');
      }
      expect(all.may_have_more).toBeUndefined(); // said only when there may be more
      const first = await session.ok<ListEnvelope<Cron>>('list_crons', {
        repo_id: repo.repoId,
        page: 1,
        per_page: 1,
      });
      const second = await session.ok<ListEnvelope<Cron>>('list_crons', {
        repo_id: repo.repoId,
        page: 2,
        per_page: 1,
      });
      const third = await session.ok<ListEnvelope<Cron>>('list_crons', {
        repo_id: repo.repoId,
        page: 3,
        per_page: 1,
      });
      expect([first.items.length, second.items.length, third.items.length]).toEqual([1, 1, 0]);
      // may_have_more is said only when true.
      expect([first.may_have_more, second.may_have_more, third.may_have_more]).toEqual([
        true,
        true,
        undefined,
      ]);
      expect([...first.items, ...second.items].map((cron) => cron.id).sort()).toEqual(
        [created.id, berlin.id].sort(),
      );

      // update only the name: schedule, timezone and enabled stay.
      await session.ok('update_cron', {
        repo_id: repo.repoId,
        cron_id: created.id,
        name: 'happy-new-year',
      });
      expect(await api.get<Cron>(cronPath(created.id))).toMatchObject({
        name: 'happy-new-year',
        schedule: '0 0 1 1 *',
        ...since315({ timezone: 'UTC', enabled: true }),
      });

      // update schedule and enabled: next_exec follows the new schedule.
      if (!modern) {
        const refused = await session.call('update_cron', {
          repo_id: repo.repoId,
          cron_id: created.id,
          schedule: '30 2 1 1 *',
          enabled: false,
        });
        expect(textOf(refused)).toContain(
          refusal('update_cron', 'enabled needs Woodpecker ≥ 3.15'),
        );
        expect((await api.get<Cron>(cronPath(created.id))).schedule).toBe('0 0 1 1 *');
      }
      await session.ok('update_cron', {
        repo_id: repo.repoId,
        cron_id: created.id,
        schedule: '30 2 1 1 *',
        ...since315({ enabled: false }),
      });
      expect(await api.get<Cron>(cronPath(created.id))).toMatchObject({
        name: 'happy-new-year',
        schedule: '30 2 1 1 *',
        ...since315({ enabled: false }),
        next_exec: nextNewYear() + 2 * 3600 + 30 * 60,
      });

      // A bad schedule is a clear tool error, and nothing changes.
      const badUpdate = await session.call('update_cron', {
        repo_id: repo.repoId,
        cron_id: created.id,
        schedule: 'every minute',
      });
      expect(badUpdate.isError).toBe(true);
      expect(textOf(badUpdate)).toMatch(/HTTP 400/);
      expect(textOf(badUpdate)).toMatch(/schedule/i);
      expect((await api.get<Cron>(cronPath(created.id))).schedule).toBe('30 2 1 1 *');

      // run_cron: a cron pipeline runs on the agent now; the schedule is untouched.
      const run = await session.ok<{ number: number; event: string; cron: string }>('run_cron', {
        repo_id: repo.repoId,
        cron_id: created.id,
      });
      // 3.11's pipelines have no cron field; they name the cron job as the sender.
      expect(run).toMatchObject({
        event: 'cron',
        ...(serverOlderThan('3.17.0') ? { sender: 'happy-new-year' } : { cron: 'happy-new-year' }),
      });
      const done = await waitForPipelineStatus(repo.repoId, run.number, ['success']);
      expect(done.event).toBe('cron');
      await waitForLogLine(repo.repoId, run.number, stepNamed(done, 'nightly').id, 'cron-ran');
      expect((await api.get<Cron>(cronPath(created.id))).schedule).toBe('30 2 1 1 *');

      // Nothing here asked a person so far.
      expect(session.dialogs).toEqual([]);

      // delete: asked; then gone, and the pipeline it started stays.
      const deleted = await session.ok<{ done: boolean }>('delete_cron', {
        repo_id: repo.repoId,
        cron_id: created.id,
      });
      expect(deleted.done).toBe(true);
      expect(session.dialogs).toHaveLength(1);
      expect(session.dialogs[0]).toContain(`cron job ${created.id} of repository ${repo.repoId}`);
      expect((await api.request('GET', cronPath(created.id))).status).toBe(404);
      expect(
        (await api.get<WoodpeckerPipeline>(`/api/repos/${repo.repoId}/pipelines/${run.number}`))
          .status,
      ).toBe('success');
      expect(
        ((await api.get<Cron[]>(`/api/repos/${repo.repoId}/cron`)) ?? []).map((cron) => cron.id),
      ).toEqual([berlin.id]);
    });
  });

  it('a bad schedule on create is a clear tool error and stores nothing', async () => {
    const repo = await createRepo();
    await withSession({ revision }, async (session) => {
      const result = await session.call('create_cron', {
        repo_id: repo.repoId,
        name: 'broken',
        schedule: 'every minute',
        enabled: true,
      });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain('create_cron failed');
      expect(text).toMatch(/HTTP 422/);
      expect(text).toMatch(/schedule/i);
      expect(text).toMatch(/five fields/);
    });
    expect((await adminApi().get<Cron[] | null>(`/api/repos/${repo.repoId}/cron`)) ?? []).toEqual(
      [],
    );
  });

  it('run_cron on a configuration whose when: excludes cron creates nothing and says so', async () => {
    const repo = await createRepo({
      files: {
        '.woodpecker.yaml': offlinePipelineYaml(
          [{ name: 'push-only', commands: ['echo push'] }],
          ['push'],
        ),
      },
    });
    await withSession({ revision }, async (session) => {
      const cron = await session.ok<Cron>('create_cron', {
        repo_id: repo.repoId,
        name: 'filtered',
        schedule: '0 0 1 1 *',
        enabled: true,
      });
      const run = await session.ok<{ filtered?: boolean; result?: unknown }>('run_cron', {
        repo_id: repo.repoId,
        cron_id: cron.id,
      });
      expect(run).toMatchObject({ filtered: true, result: null });
    });
    expect(
      (await adminApi().get<WoodpeckerPipeline[] | null>(`/api/repos/${repo.repoId}/pipelines`)) ??
        [],
    ).toEqual([]);
  });
});
