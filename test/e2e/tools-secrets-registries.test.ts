// End-to-end: the secrets and registries tools at all three levels (repository,
// organization, global), through a real MCP client against the harness's Woodpecker.
// Every effect is checked with the admin's own API calls; values and passwords must never
// come back in any tool answer or dialog.
import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminApi,
  createRepo,
  harnessInfo,
  serverOlderThan,
  stepNamed,
  uniqueName,
  waitForLogLine,
  waitForPipelineStatus,
} from '../harness/fixtures.js';
import type { TestRepo, WoodpeckerPipeline } from '../harness/fixtures.js';
import { REVISIONS, textOf, withSession } from './mcpSession.js';
import type { ListEnvelope } from '../../runtime/output/answer.js';
import type { McpSession } from './mcpSession.js';

type Scope = 'repository' | 'organization' | 'global';
const SCOPES: readonly Scope[] = ['repository', 'organization', 'global'];

interface SecretBody {
  name: string;
  events: string[];
  images: string[] | null;
  note: string;
  value?: string;
}
interface RegistryBody {
  address: string;
  username: string;
  password?: string;
}

let adminOrgId = 0;

beforeAll(async () => {
  // The admin's personal namespace: the stand-in forge has no organisations, but
  // Woodpecker keeps one org per user, and repositories of that user belong to it.
  const probe = await createRepo();
  adminOrgId = (await adminApi().get<{ org_id: number }>(`/api/repos/${probe.repoId}`)).org_id;
  expect(adminOrgId).toBeGreaterThan(0);
});

/** The tool arguments that pick the level, and the API path prefix for the same level. */
function level(scope: Scope, repo: TestRepo): { args: Record<string, unknown>; prefix: string } {
  switch (scope) {
    case 'repository':
      return { args: { scope, repo_id: repo.repoId }, prefix: `/api/repos/${repo.repoId}` };
    case 'organization':
      return { args: { scope, org_id: adminOrgId }, prefix: `/api/orgs/${adminOrgId}` };
    case 'global':
      return { args: { scope }, prefix: '/api' };
  }
}

/** A credential-like value that is easy to search for and cannot occur by chance. */
function credential(label: string): string {
  return `${label}-${randomBytes(12).toString('hex')}`;
}

function secretName(): string {
  return `E2E_${uniqueName('s').replace(/-/g, '_').toUpperCase()}`;
}

/** Records every answer of a session so a test can check that a credential never leaked. */
function recorder(session: McpSession) {
  const answers: CallToolResult[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = await session.call(name, args);
    answers.push(result);
    return result;
  };
  const ok = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = await call(name, args);
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    return result.structuredContent as T;
  };
  const expectNeverShown = (...credentials: string[]): void => {
    const everything = JSON.stringify({ answers, dialogs: session.dialogs });
    for (const value of credentials) expect(everything).not.toContain(value);
  };
  return { call, ok, answers, expectNeverShown };
}

/** Walks every page with per_page 1 and returns the names/addresses seen, in order. */
async function walkPages<T>(
  ok: <R>(name: string, args: Record<string, unknown>) => Promise<R>,
  tool: string,
  args: Record<string, unknown>,
  key: (item: T) => string,
): Promise<string[]> {
  const seen: string[] = [];
  for (let page = 1; page <= 200; page += 1) {
    const list = await ok<ListEnvelope<T>>(tool, { ...args, page, per_page: 1 });
    expect(list.items.length).toBeLessThanOrEqual(1);
    // A full page is the only sign of more; an empty one ends the walk. The envelope
    // speaks only then (page 1 of a complete list needs no page number).
    expect(list.may_have_more === true).toBe(list.items.length === 1);
    if (list.may_have_more) expect([list.page, list.per_page]).toEqual([page, 1]);
    else expect(list.page).toBe(page === 1 ? undefined : page);
    seen.push(...list.items.map(key));
    if (!list.may_have_more) return seen;
  }
  throw new Error(`${tool} still had more after 200 pages`);
}

/** A pipeline whose one step says whether the secret it receives equals `expected`. */
function secretCheckYaml(name: string, expected: string): string {
  return stringify({
    when: [{ event: ['manual'] }],
    skip_clone: true,
    steps: [
      {
        name: 'check',
        image: 'sh',
        environment: { GIVEN: { from_secret: name } },
        // $$ escapes Woodpecker's own substitution, so the shell sees $GIVEN.
        commands: [
          `if [ "$$GIVEN" = "${expected}" ]; then echo secret-matches; else echo secret-differs; fi`,
        ],
      },
    ],
  });
}

describe.each(REVISIONS)('secrets on %s', (revision) => {
  it.each(SCOPES)(
    '%s scope: create, get, list with paging, update (note at once, value/events/images with a dialog), delete',
    async (scope) => {
      const name = secretName();
      const firstValue = credential('first-value');
      const secondValue = credential('second-value');
      // The repository's pipeline reads the secret; it is created first so every level applies.
      const repo = await createRepo({
        files: { '.woodpecker.yaml': secretCheckYaml(name, secondValue) },
      });
      const { args, prefix } = level(scope, repo);
      const api = adminApi();

      // Secrets have a note from Woodpecker 3.13 on; an older server would drop it silently,
      // so there the tools refuse it with the release it needs and the rest works without.
      const notes = !serverOlderThan('3.13.0');
      const note = (text: string) => (notes ? { note: text } : {});

      await withSession({ revision }, async (session) => {
        const tools = recorder(session);

        if (!notes) {
          const refused = await tools.call('create_secret', {
            ...args,
            name,
            value: firstValue,
            events: ['push'],
            note: 'created by e2e',
          });
          expect(refused.isError).toBe(true);
          expect(textOf(refused)).toContain(
            `create_secret: note needs Woodpecker ≥ 3.13; this server is ${harnessInfo().version}`,
          );
          expect((await api.request('GET', `${prefix}/secrets/${name}`)).status).toBe(404);
        }

        // create: events are required; the value is never in the answer.
        const created = await tools.ok<SecretBody>('create_secret', {
          ...args,
          name,
          value: firstValue,
          events: ['push', 'manual'],
          images: ['alpine'],
          ...note('created by e2e'),
        });
        // Woodpecker stores events sorted.
        expect(created).toMatchObject({
          name,
          events: ['manual', 'push'],
          images: ['alpine'],
          ...note('created by e2e'),
        });
        expect(created).not.toHaveProperty('value');
        const stored = await api.get<SecretBody>(`${prefix}/secrets/${name}`);
        expect(stored).toMatchObject({
          name,
          events: ['manual', 'push'],
          images: ['alpine'],
          ...note('created by e2e'),
        });

        // A second create with the same name is refused by Woodpecker, as the description says.
        const duplicate = await tools.call('create_secret', {
          ...args,
          name,
          value: firstValue,
          events: ['push'],
        });
        expect(duplicate.isError).toBe(true);

        // get
        const got = await tools.ok<SecretBody>('get_secret', { ...args, name });
        expect(got).toMatchObject({
          name,
          events: ['manual', 'push'],
          images: ['alpine'],
          ...note('created by e2e'),
        });

        // list: the secret is there; per_page 1 pages through with may_have_more.
        const all = await tools.ok<ListEnvelope<SecretBody>>('list_secrets', { ...args });
        expect(all.items.map((item) => item.name)).toContain(name);
        const apiNames = ((await api.get<SecretBody[] | null>(`${prefix}/secrets`)) ?? []).map(
          (item) => item.name,
        );
        expect(all.items.map((item) => item.name).sort()).toEqual(apiNames.sort());
        const walked = await walkPages<SecretBody>(
          tools.ok,
          'list_secrets',
          args,
          (item) => item.name,
        );
        expect(walked).toContain(name);
        expect(walked.length).toBe(new Set(walked).size);

        // update, harmless direction: a new note and narrower events apply without a dialog.
        const dialogsBefore = session.dialogs.length;
        if (!notes) {
          const refused = await tools.call('update_secret', {
            ...args,
            name,
            note: 'note changed',
            events: ['manual'],
          });
          expect(textOf(refused)).toContain(
            `update_secret: note needs Woodpecker ≥ 3.13; this server is ${harnessInfo().version}`,
          );
          expect((await api.get<SecretBody>(`${prefix}/secrets/${name}`)).events).toEqual([
            'manual',
            'push',
          ]);
        }
        await tools.ok('update_secret', {
          ...args,
          name,
          ...note('note changed'),
          events: ['manual'],
        });
        expect(session.dialogs).toHaveLength(dialogsBefore);
        expect(await api.get<SecretBody>(`${prefix}/secrets/${name}`)).toMatchObject({
          name,
          ...note('note changed'),
          events: ['manual'],
          images: ['alpine'],
        });

        // update with a new value: a person is asked; the value stays out of the dialog.
        await tools.ok('update_secret', { ...args, name, value: secondValue });
        expect(session.dialogs).toHaveLength(dialogsBefore + 1);
        expect(session.dialogs.at(-1)).toContain(`at ${scope} level`);
        expect(await api.get<SecretBody>(`${prefix}/secrets/${name}`)).toMatchObject({
          ...note('note changed'),
          events: ['manual'],
          images: ['alpine'],
        });

        // update that empties images: asked again; every step receives it from then on.
        await tools.ok('update_secret', { ...args, name, images: [] });
        expect(session.dialogs).toHaveLength(dialogsBefore + 2);
        const widened = await api.get<SecretBody>(`${prefix}/secrets/${name}`);
        expect(widened.images ?? []).toEqual([]);

        // The new value really is what a pipeline of the repository receives now.
        const pipeline = await api.post<WoodpeckerPipeline>(`/api/repos/${repo.repoId}/pipelines`, {
          branch: 'main',
        });
        const done = await waitForPipelineStatus(repo.repoId, pipeline.number, ['success']);
        const lines = await waitForLogLine(
          repo.repoId,
          pipeline.number,
          stepNamed(done, 'check').id,
          'secret-matches',
        );
        expect(lines).not.toContain('secret-differs');

        // update that adds pull_request to the events: asked.
        await tools.ok('update_secret', { ...args, name, events: ['manual', 'pull_request'] });
        expect(session.dialogs).toHaveLength(dialogsBefore + 3);
        expect((await api.get<SecretBody>(`${prefix}/secrets/${name}`)).events.sort()).toEqual([
          'manual',
          'pull_request',
        ]);

        // delete: always asked, naming the secret by its id; then the secret is gone.
        const { id: secretId } = await api.get<{ id: number }>(`${prefix}/secrets/${name}`);
        const deleted = await tools.ok<{ done: boolean }>('delete_secret', { ...args, name });
        expect(deleted.done).toBe(true);
        expect(session.dialogs).toHaveLength(dialogsBefore + 4);
        expect(session.dialogs.at(-1)).toContain(`delete secret ${secretId} at ${scope} level`);
        expect((await api.request('GET', `${prefix}/secrets/${name}`)).status).toBe(404);
        const gone = await tools.call('get_secret', { ...args, name });
        expect(gone.isError).toBe(true);
        expect(textOf(gone)).toContain('404');

        tools.expectNeverShown(firstValue, secondValue);
      });
    },
  );

  it('create_secret without events is refused before anything is stored', async () => {
    const name = secretName();
    await withSession({ revision }, async (session) => {
      const result = await session.call('create_secret', {
        scope: 'global',
        name,
        value: credential('v'),
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('events');
    });
    expect((await adminApi().request('GET', `/api/secrets/${name}`)).status).toBe(404);
  });
});

describe.each(REVISIONS)('registries on %s', (revision) => {
  it.each(SCOPES)(
    '%s scope: create, get, list with paging, update (username at once, password with a dialog), delete',
    async (scope) => {
      const repo = await createRepo();
      const { args, prefix } = level(scope, repo);
      const api = adminApi();
      const address = `${uniqueName('registry')}.example.com:5000`;
      const firstPassword = credential('first-password');
      const secondPassword = credential('second-password');

      await withSession({ revision }, async (session) => {
        const tools = recorder(session);

        const created = await tools.ok<RegistryBody>('create_registry', {
          ...args,
          address,
          username: 'robot',
          password: firstPassword,
        });
        expect(created).toMatchObject({ address, username: 'robot' });
        const stored = await api.get<RegistryBody>(`${prefix}/registries/${address}`);
        expect(stored).toMatchObject({ address, username: 'robot' });

        const got = await tools.ok<RegistryBody>('get_registry', { ...args, address });
        expect(got).toMatchObject({ address, username: 'robot' });

        const all = await tools.ok<ListEnvelope<RegistryBody>>('list_registries', { ...args });
        expect(all.items.map((item) => item.address)).toContain(address);
        const walked = await walkPages<RegistryBody>(
          tools.ok,
          'list_registries',
          args,
          (item) => item.address,
        );
        expect(walked).toContain(address);
        const apiAddresses = (
          (await api.get<RegistryBody[] | null>(`${prefix}/registries`)) ?? []
        ).map((item) => item.address);
        expect(walked.sort()).toEqual(apiAddresses.sort());

        // A new username alone applies at once.
        const dialogsBefore = session.dialogs.length;
        // Woodpecker answers a registry PATCH with the body it was sent, not the stored row.
        const renamed = await tools.ok<RegistryBody>('update_registry', {
          ...args,
          address,
          username: 'robot-2',
        });
        expect(renamed).toMatchObject({ username: 'robot-2' });
        expect(session.dialogs).toHaveLength(dialogsBefore);
        expect(await api.get<RegistryBody>(`${prefix}/registries/${address}`)).toMatchObject({
          username: 'robot-2',
        });

        // A new password asks first; the username stays.
        await tools.ok('update_registry', { ...args, address, password: secondPassword });
        expect(session.dialogs).toHaveLength(dialogsBefore + 1);
        const { id: registryId } = await api.get<{ id: number }>(`${prefix}/registries/${address}`);
        expect(session.dialogs.at(-1)).toContain(
          `password of registry login ${registryId} at ${scope} level`,
        );
        expect(await api.get<RegistryBody>(`${prefix}/registries/${address}`)).toMatchObject({
          address,
          username: 'robot-2',
        });

        await tools.ok('delete_registry', { ...args, address });
        expect(session.dialogs).toHaveLength(dialogsBefore + 2);
        expect((await api.request('GET', `${prefix}/registries/${address}`)).status).toBe(404);
        const listedAfter = (
          (await api.get<RegistryBody[] | null>(`${prefix}/registries`)) ?? []
        ).map((item) => item.address);
        expect(listedAfter).not.toContain(address);

        tools.expectNeverShown(firstPassword, secondPassword);
      });
    },
  );
});
