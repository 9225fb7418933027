// scripts/inspector-cli.sh's first use, with a stand-in `npm` first on PATH (the real one
// would download 296 MB): before the silent install it says what it downloads, how much
// and where; after it, how long it took; stdout stays the Inspector's alone, since
// callers parse it. test/e2e/inspector-cli.test.ts holds the size to the real install.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/inspector-cli.sh', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'inspector-cli-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function standInNpm(): string {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  // `npm install --prefix DIR ...`: puts a `node` and an `mcp-inspector` there that say they ran.
  writeFileSync(
    join(bin, 'npm'),
    [
      '#!/usr/bin/env bash',
      'while (($#)); do [[ "$1" == --prefix ]] && prefix="$2"; shift; done',
      'mkdir -p "$prefix/node_modules/.bin"',
      'printf \'#!/bin/sh\\necho "inspector ran: $*"\\n\' > "$prefix/node_modules/.bin/node"',
      'printf "#!/bin/sh\\n" > "$prefix/node_modules/.bin/mcp-inspector"',
      'chmod +x "$prefix/node_modules/.bin/node" "$prefix/node_modules/.bin/mcp-inspector"',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'npm'), 0o755);
  return `${bin}:${process.env.PATH}`;
}

const run = (env: Record<string, string>) =>
  spawnSync('bash', [SCRIPT, '--method', 'tools/list'], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

describe('inspector-cli.sh', () => {
  it('says on stderr that its first use downloads Node 22 and the Inspector (about 296 MB), then how long it took', () => {
    const env = { PATH: standInNpm(), WOODPECKER_CACHE_DIR: join(scratch, 'cache') };
    const first = run(env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /first use: downloading Node 22\.\d+\.\d+ and the MCP Inspector [\d.]+ from npm into \S+inspector-[\d.]+ \(about 296 MB, once/,
    );
    expect(first.stderr).toMatch(/installed in \d+ s/);
    expect(first.stdout).toMatch(/^inspector ran: .*--cli --method tools\/list\n$/);
    // Installed: the next run says nothing of downloads.
    const second = run(env);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain('inspector ran');
  });
});
