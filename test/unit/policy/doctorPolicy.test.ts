// doctor shows the operator's rules in force, and blocks on a policy file the server
// would refuse at startup.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../runtime/process/doctor.js';

describe('doctor and the operator policy', () => {
  it('lists every rule in force, with its line', async () => {
    const findings = await diagnose({ WOODPECKER_MCP_POLICY: 'docs/examples/policy.yaml' });
    const policy = findings.find((finding) => finding.text.startsWith('WOODPECKER_MCP_POLICY'));
    expect(policy?.level).toBe('ok');
    expect(policy?.text).toContain('4 rule(s) in force from docs/examples/policy.yaml');
    expect(policy?.text).toMatch(/protect-main \(line 5\): ask on tools trigger_pipeline/);
    expect(policy?.text).toMatch(
      /ten-builds-an-hour \(line \d+\): limit 10 builds per repository per 1h on groups pipelines, crons/,
    );
  });

  it('blocks on a file the server would refuse, naming file and line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'policy-')), 'policy.yaml');
    writeFileSync(
      file,
      'rules:\n  - name: open\n    tools: [delete_repository]\n    effect: allow\n',
    );
    const findings = await diagnose({ WOODPECKER_MCP_POLICY: file });
    const policy = findings.find((finding) => finding.text.includes('WOODPECKER_MCP_POLICY'));
    expect(policy?.level).toBe('BLOCKING');
    expect(policy?.text).toContain(`${file}:4: rules[0].effect: must be ask, deny or limit`);
  });
});
