// What a person reads, from the real manifest: ids they can check against a web UI page
// built from WOODPECKER_URL, and no placeholder for an id the call does not use.
import { describe, expect, it } from 'vitest';
import { dialogText } from '../../../runtime/gate/gate.js';
import type { GuardSpec, ToolArgs } from '../../../runtime/core/tool.js';
import { deleteSecret } from '../../../generated/tools/delete_secret.js';
import { createSecret } from '../../../generated/tools/create_secret.js';
import { deletePipeline } from '../../../generated/tools/delete_pipeline.js';
import { updateRegistry } from '../../../generated/tools/update_registry.js';

const base = 'https://ci.example.com';
const text = (guard: GuardSpec | undefined, args: ToolArgs, current?: unknown): string =>
  dialogText(guard as GuardSpec, args, ['always asks'], current, undefined, base);

describe('dialog text', () => {
  it('delete_secret names the secret and links its repository secrets page, with no "–"', () => {
    const shown = text(
      deleteSecret.guard as GuardSpec,
      { scope: 'repository', repo_id: 1, name: 'deploy' },
      { id: 2, name: 'deploy', events: ['push'], images: [] },
    );
    expect(shown).toBe(
      [
        'This will delete secret 2 at repository level. It goes to pipelines of these events: push; image filters: 0 (0: every step).',
        'Pipelines that use it no longer receive it, and its value cannot be recovered.',
        'Check it in Woodpecker: the secrets of repository 1, https://ci.example.com/repos/1/settings/secrets',
      ].join('\n\n'),
    );
    expect(shown).not.toContain('–');
  });

  it('an organization secret links the organization page, not a repository', () => {
    const shown = text(
      deleteSecret.guard as GuardSpec,
      { scope: 'organization', org_id: 4, repo_id: 9, name: 'x' },
      { id: 2, events: ['tag'], images: null },
    );
    expect(shown).toContain(
      'Check it in Woodpecker: the secrets of organization 4, https://ci.example.com/orgs/4/settings/secrets',
    );
    expect(shown).not.toMatch(/repository 9|–/);
  });

  it('create_secret at global level links the admin page and shows no empty id', () => {
    const shown = text(createSecret.guard as GuardSpec, {
      scope: 'global',
      name: 'deploy_token',
      value: 'never shown',
      events: ['push'],
    });
    expect(shown).toContain('https://ci.example.com/admin/secrets');
    expect(shown).not.toMatch(/–|never shown|deploy_token/);
  });

  it('update_registry links the registries page of its level', () => {
    const shown = text(
      updateRegistry.guard as GuardSpec,
      { scope: 'repository', repo_id: 3, address: 'ghcr.io', password: 'hunter2' },
      { id: 5 },
    );
    expect(shown).toContain('https://ci.example.com/repos/3/settings/registries');
    expect(shown).not.toMatch(/–|hunter2|ghcr/);
  });

  it('delete_pipeline links the pipeline page by repository id and number', () => {
    const shown = text(deletePipeline.guard as GuardSpec, { repo_id: 21, number: 42 });
    expect(shown).toContain(
      'Check it in Woodpecker: pipeline 42 of repository 21, https://ci.example.com/repos/21/pipeline/42',
    );
  });
});
