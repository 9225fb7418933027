// `npm run image` (deploy/build-image.sh): builds the Containerfile and writes the image's
// CycloneDX SBOM as a file beside it (issue 35, item 8), named after the tag, with a
// stand-in `podman` first on PATH (the deploy suite builds the real one). A copy that is
// not a CycloneDX document leaves no file, and docs/deploy.md says what the SBOM covers.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'deploy', 'build-image.sh');
const scratch = mkdtempSync(join(tmpdir(), 'image-build-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const version = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

const BOM = JSON.stringify({
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  metadata: { component: { name: 'woodpecker-ci-mcp', version } },
  components: [{ name: 'undici', version: '7.0.0', purl: 'pkg:npm/undici@7.0.0' }],
});

/** A `podman` that logs its calls and answers `run … cat /app/sbom.cdx.json` with `sbom`. */
function standInPodman(name: string, sbom: string): { bin: string; log: string } {
  const bin = join(scratch, name, 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(bin, 'calls.log');
  writeFileSync(join(bin, 'sbom'), sbom);
  writeFileSync(
    join(bin, 'podman'),
    [
      '#!/usr/bin/env bash',
      `echo "$*" >> ${log}`,
      'case "$1" in',
      '  build) echo "STEP 1/20: FROM node"; exit 0 ;;',
      `  run) cat ${join(bin, 'sbom')} ;;`,
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'podman'), 0o755);
  return { bin, log };
}

function build(bin: string, out: string, args: string[] = []) {
  return spawnSync('bash', [SCRIPT, '--out', out, ...args], {
    cwd: scratch,
    env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, CONTAINER_RUNTIME: '' },
    encoding: 'utf8',
  });
}

describe('npm run image: the image and its SBOM beside it', () => {
  it('builds the Containerfile and writes the SBOM next to the image, named after its tag', () => {
    const { bin, log } = standInPodman('good', BOM);
    const out = mkdtempSync(join(scratch, 'out-'));
    const ran = build(bin, out);
    expect(ran.status, ran.stderr).toBe(0);
    expect(readdirSync(out)).toEqual([`woodpecker-ci-mcp-${version}.cdx.json`]);
    expect(
      JSON.parse(readFileSync(join(out, `woodpecker-ci-mcp-${version}.cdx.json`), 'utf8')),
    ).toEqual(JSON.parse(BOM));
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls[0]).toBe(`build -t woodpecker-ci-mcp:${version} -f Containerfile .`);
    // The file is the one inside the image, read without starting the server or a network.
    expect(calls[1]).toBe(
      `run --rm --network none --entrypoint cat woodpecker-ci-mcp:${version} /app/sbom.cdx.json`,
    );
    expect(ran.stdout).toContain(`woodpecker-ci-mcp-${version}.cdx.json`);
  });

  it('takes another tag and passes build arguments on', () => {
    const { bin, log } = standInPodman('tagged', BOM);
    const out = mkdtempSync(join(scratch, 'out-'));
    const ran = build(bin, out, [
      '--tag',
      'registry.example.com/team/woodpecker-ci-mcp:1.2',
      '--',
      '--build-arg',
      'NODE_IMAGE=node:22-slim',
    ]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(['woodpecker-ci-mcp-1.2.cdx.json']);
    expect(readFileSync(log, 'utf8').split('\n')[0]).toContain(
      'build -t registry.example.com/team/woodpecker-ci-mcp:1.2 -f Containerfile --build-arg NODE_IMAGE=node:22-slim',
    );
  });

  it('an SBOM that is not CycloneDX JSON fails the build and leaves no file', () => {
    const { bin } = standInPodman('broken', 'Error: no such file /app/sbom.cdx.json');
    const out = mkdtempSync(join(scratch, 'out-'));
    const ran = build(bin, out);
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toMatch(/not a CycloneDX document/);
    expect(readdirSync(out)).toEqual([]);
  });

  it('docs/deploy.md says what the SBOM lists and what it does not', () => {
    const deploy = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8').replace(/\s+/g, ' ');
    expect(deploy).toContain('npm run image');
    expect(deploy).not.toContain('exactly what it ships');
    expect(deploy).toMatch(/not Node itself/);
    expect(deploy).toMatch(/nor the base image's Debian packages/);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.image).toBe(
      'bash deploy/build-image.sh',
    );
  });
});
