// What an audit line names as a call's targets: the object the call touches, ids and
// names only; never a credential, never the gate's token, never an argument not given.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { AuditLog } from '../../../runtime/call/auditLog.js';
import type { ToolArgs } from '../../../runtime/core/tool.js';

const toolNamed = (name: string) => tools.find((tool) => tool.name === name)!;

function targetsOf(name: string, args: ToolArgs): unknown {
  const path = join(mkdtempSync(join(tmpdir(), 'audit-unit-')), 'audit.jsonl');
  const log = new AuditLog(path);
  log.record({ tool: toolNamed(name), args, outcome: 'done', status: 200, approval: undefined });
  log.close();
  return (JSON.parse(readFileSync(path, 'utf8')) as { targets: unknown }).targets;
}

describe('audit targets', () => {
  it.each([
    // Guarded: the guard's targets, in its order.
    [
      'delete_secret',
      { scope: 'repository', repo_id: 3, name: 'TOKEN', confirm_token: 'sealed' },
      { scope: 'repository', repo_id: 3, name: 'TOKEN' },
    ],
    [
      'update_secret',
      { scope: 'global', name: 'TOKEN', value: 'hunter2', confirm_token: 'sealed' },
      { scope: 'global', name: 'TOKEN' },
    ],
    ['move_repository', { repo_id: 4, to: 'alice' }, { repo_id: 4, to: 'alice' }],
    // Unguarded: the arguments that name the object, not its contents.
    [
      'create_cron',
      { repo_id: 5, name: 'nightly', schedule: '@daily', branch: 'main' },
      { repo_id: 5, name: 'nightly' },
    ],
    ['run_cron', { repo_id: 5, cron_id: 9 }, { repo_id: 5, cron_id: 9 }],
    ['trigger_pipeline', { repo_id: 6, branch: 'main' }, { repo_id: 6 }],
    ['resume_queue', {}, {}],
  ])('%s names %j as %j', (name, args, expected) => {
    expect(targetsOf(name, args)).toEqual(expected);
  });

  it('never writes a credential, even where it would be a target by its name', () => {
    const line = JSON.stringify(
      targetsOf('create_forge', {
        type: 'gitea',
        url: 'https://git.example.com',
        client: 'id',
        oauth_client_secret: 'shh-secret',
      }),
    );
    expect(line).not.toContain('shh-secret');
  });
});
