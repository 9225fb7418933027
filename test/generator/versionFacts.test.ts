// The version comparison on the real tools.yaml and the committed specs of 3.11.0, 3.17.0
// and the next release: what each release has comes from the specs, renamed path
// parameters are the same route, and a field a newer spec loses is refused with the line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../generator/manifest/loadManifest.js';
import { ManifestError } from '../../generator/manifestError.js';
import type { OpenApiDocument } from '../../generator/spec/specCheck.js';
import { compareVersions, type VersionedSpec } from '../../generator/spec/versionFacts.js';
import { realManifest, realSpec, repoRoot } from './fixturePaths.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const read = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const specs = () => ({
  old: read(join(repoRoot, 'specs/woodpecker-openapi-3.11.0.json')),
  pinned: read(realSpec),
  next: read(join(repoRoot, 'specs/woodpecker-openapi-next.json')),
});
const versioned = (all: ReturnType<typeof specs>): VersionedSpec[] =>
  [all.next, all.old, all.pinned].map((spec) => ({
    version: spec['info']['x-woodpecker-version'] as string,
    file: 'spec.json',
    spec: spec as OpenApiDocument,
  }));

const manifestText = readFileSync(realManifest, 'utf8');
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
  throw new Error('the comparison passed');
}

describe('version comparison', () => {
  it('derives since from the specs: the same route under other parameter names, and the fields 3.11 lacks', () => {
    const facts = compareVersions(loadManifest(realManifest), versioned(specs()));
    expect(facts.versions).toEqual(['3.11.0', '3.17.0', '3.18.0-dev+a4cb541']);
    // /pipelines/{number} in 3.11, /orgs/{id} for DELETE: the same routes.
    expect(facts.tools.get('get_pipeline')).toEqual({ params: {} });
    expect(facts.tools.get('delete_organization')).toEqual({ params: {} });
    expect(facts.tools.get('get_step_logs')).toEqual({ params: {} });
    // Written since narrows what the specs leave open (the source says 3.13 and 3.15).
    expect(facts.tools.get('update_secret')?.params).toEqual({ note: '3.13.0' });
    expect(facts.tools.get('create_cron')?.params).toEqual({
      timezone: '3.15.0',
      enabled: '3.15.0',
    });
    // Only the specs speak here: the oldest one that has the field.
    expect(facts.tools.get('get_user')?.params).toEqual({
      forge_id: '3.17.0',
      forge_remote_id: '3.17.0',
    });
    expect(facts.tools.get('create_forge')?.params).toEqual({ oauth_client_secret: '3.17.0' });
  });

  it('gives a tool the release its route appears in, and no parameter since that is not later', () => {
    const all = specs();
    delete all.old['paths']['/users/{login}']['get'];
    const facts = compareVersions(loadManifest(realManifest), versioned(all));
    expect(facts.tools.get('get_user')).toEqual({ since: '3.17.0', params: {} });
  });

  it('refuses a body field the next release no longer has, naming tool, field and line', () => {
    const all = specs();
    delete all.next['components']['schemas']['Secret']['properties']['note'];
    const message = refusal(() => compareVersions(loadManifest(realManifest), versioned(all)));
    const line =
      manifestText
        .split('\n')
        .findIndex(
          (text, index, lines) =>
            text.includes('body:') &&
            text.includes('note: note') &&
            lines.slice(0, index).some((l) => l.includes('name: create_secret')),
        ) + 1;
    expect(message).toContain(
      `tools.yaml:${line}: create_secret: calls[0].body.note: body field note of POST /repos/{repo_id}/secrets is in Woodpecker 3.17.0 but not in 3.18.0-dev+a4cb541`,
    );
  });

  it('refuses a route the next release no longer has', () => {
    const all = specs();
    delete all.next['paths']['/repos/{repo_id}/pipelines/{pipeline_number}/cancel'];
    expect(refusal(() => compareVersions(loadManifest(realManifest), versioned(all)))).toMatch(
      /tools\.yaml:\d+: cancel_pipeline: calls\[0\]\.path: POST \/repos\/\{repo_id\}\/pipelines\/\{pipeline_number\}\/cancel is in Woodpecker 3\.17\.0 but not in 3\.18\.0-dev\+a4cb541/,
    );
  });

  it('refuses a written since the specs contradict, and one on a field every release has', () => {
    const dir = mkdtempSync(join(tmpdir(), 'versions-'));
    scratch.push(dir);
    const early = join(dir, 'tools.yaml');
    writeFileSync(early, manifestText.replace(/since: 3\.13\.0/, 'since: 3.10.0'));
    expect(refusal(() => compareVersions(loadManifest(early), versioned(specs())))).toMatch(
      /create_secret: params\.note\.since: the specs say 3\.11\.0 lacks it and 3\.17\.0 has it; `since` must lie after 3\.11\.0 and no later than 3\.17\.0/,
    );
    const needless = join(dir, 'needless.yaml');
    writeFileSync(
      needless,
      manifestText
        .replace(/(name: Name of the secret[^\n]*\n)/, '$1')
        .replace(/(\n {6}images:\n {8}type: string_list\n)/, '$1        since: 3.12.0\n'),
    );
    expect(refusal(() => compareVersions(loadManifest(needless), versioned(specs())))).toMatch(
      /create_secret: params\.images\.since: every known spec \(3\.11\.0, 3\.17\.0, 3\.18\.0-dev\+a4cb541\) has this field; remove `since`/,
    );
  });
});
