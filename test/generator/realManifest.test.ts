// The committed surface of the real tools.yaml (read from the snapshots, which
// generate:check keeps in step with the manifest): the catalogue's counts and exactly
// the catalogue's 23 guarded tools plus the three that widen reach the catalogue left
// open (create_forge always; create_secret and create_registry when they shadow).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './fixturePaths.js';

interface Snapshot {
  name: string;
  annotations: Record<string, unknown>;
  guard: 'never' | { condition: string; targets: string[] };
  inputSchema: { properties: Record<string, unknown> };
}

const dir = join(repoRoot, 'test/__toolsnaps__');
const snapshots: Snapshot[] = readdirSync(dir)
  .filter((file) => file.endsWith('.snap.json'))
  .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot);

// spec/tools.md, "Guarded tools: exactly these 23", plus create_forge, create_registry
// and create_secret (docs/asking-a-person.md says why).
const GUARDED = [
  'approve_pipeline',
  'chown_repository',
  'create_forge',
  'create_registry',
  'create_secret',
  'create_user',
  'delete_agent',
  'delete_cron',
  'delete_forge',
  'delete_organization',
  'delete_pipeline',
  'delete_pipeline_logs',
  'delete_registry',
  'delete_repository',
  'delete_secret',
  'delete_step_logs',
  'delete_user',
  'move_repository',
  'pause_queue',
  'repair_repository',
  'set_log_level',
  'update_forge',
  'update_registry',
  'update_repository',
  'update_secret',
  'update_user',
];

describe('the real tool surface', () => {
  it('has 77 tools, one snapshot each, named after the file', () => {
    expect(snapshots).toHaveLength(77);
    for (const file of readdirSync(dir)) {
      const snapshot = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot;
      expect(file).toBe(`${snapshot.name}.snap.json`);
    }
  });

  it('has 40 read-only tools (34 + search_logs, get_pipeline_failure, wait_for_pipeline, resolve_link, compare_pipelines, lint_pipeline_config)', () => {
    const readOnly = snapshots
      .filter((s) => s.annotations['readOnlyHint'] === true)
      .map((s) => s.name);
    expect(readOnly).toHaveLength(40);
    expect(readOnly).toEqual(
      expect.arrayContaining([
        'search_logs',
        'get_pipeline_failure',
        'wait_for_pipeline',
        'resolve_link',
        'compare_pipelines',
        'lint_pipeline_config',
      ]),
    );
  });

  it("guards exactly the 26 tools: the catalogue's 23, create_forge, create_secret and create_registry", () => {
    const guarded = snapshots
      .filter((s) => s.guard !== 'never')
      .map((s) => s.name)
      .sort();
    expect(guarded).toEqual(GUARDED);
  });

  it('states all four annotations as booleans on every tool', () => {
    for (const snapshot of snapshots) {
      expect(Object.keys(snapshot.annotations).sort(), snapshot.name).toEqual([
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
        'readOnlyHint',
      ]);
      for (const value of Object.values(snapshot.annotations))
        expect(typeof value, snapshot.name).toBe('boolean');
    }
  });

  it('gives every guarded tool confirm_token and idempotentHint: true, and no other tool confirm_token', () => {
    for (const snapshot of snapshots) {
      const guarded = snapshot.guard !== 'never';
      expect('confirm_token' in snapshot.inputSchema.properties, snapshot.name).toBe(guarded);
      if (guarded) expect(snapshot.annotations['idempotentHint'], snapshot.name).toBe(true);
    }
  });

  it('asks always only where the catalogue says always', () => {
    const conditional = [
      'repair_repository',
      'update_user',
      'create_user',
      'update_repository',
      'update_secret',
      'update_registry',
      'set_log_level',
      'create_secret',
      'create_registry',
    ];
    for (const snapshot of snapshots) {
      if (snapshot.guard === 'never') continue;
      if (conditional.includes(snapshot.name))
        expect(snapshot.guard.condition, snapshot.name).toMatch(/^only when /);
      else expect(snapshot.guard.condition, snapshot.name).toBe('always');
    }
  });
});
