// The container-image route, with a stand-in `podman` first on PATH (no engine or
// registry is reachable here): the binaries are copied out of a created container of each
// official image, the container is removed again, and a runtime whose pull fails, or no
// runtime at all, is a reason to try the next route, not an error.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fetchFromImages } from '../harness/woodpecker-images.js';
import { RouteUnavailable } from '../harness/woodpecker-release.js';

const scratch = mkdtempSync(join(tmpdir(), 'woodpecker-images-test-'));
const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A `podman` that logs its calls; `pull` fails with failPull, takes pullSeconds with it. */
function standInPodman(
  name: string,
  options: { failPull?: boolean; pullSeconds?: number } = {},
): string {
  const bin = join(scratch, name);
  mkdirSync(bin, { recursive: true });
  const log = join(bin, 'calls.log');
  writeFileSync(
    join(bin, 'podman'),
    [
      '#!/usr/bin/env bash',
      `echo "$*" >> ${log}`,
      'case "$1" in',
      '  info) exit 0 ;;',
      options.failPull
        ? '  pull) echo "Error: pinging container registry registry-1.docker.io: no such host" >&2; exit 125 ;;'
        : options.pullSeconds
          ? `  pull) echo "Copying blob sha256:77aa" >&2; sleep ${options.pullSeconds}; exit 0 ;;`
          : '  pull) exit 0 ;;',
      '  image) echo sha256:0123abcd ;;',
      '  create) image="${2##*/}"; echo "container-for-${image%%:*}" ;;',
      '  cp) printf "#!/bin/sh\\necho copied %s\\n" "${2#*:}" > "$3"; chmod +x "$3" ;;',
      '  rm) ;;',
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'podman'), 0o755);
  // Only the stand-in and the basics: no real podman or docker is found.
  process.env.PATH = `${bin}:/usr/bin:/bin`;
  return log;
}

describe.runIf(process.platform === 'linux')('the container-image route', () => {
  it('copies both binaries out of created containers of the official images, and removes the containers', async () => {
    const log = standInPodman('good');
    const into = mkdtempSync(join(scratch, 'into-'));
    const fetched = await fetchFromImages({ tag: 'v3.17.0', into });
    expect(readFileSync(fetched.server, 'utf8')).toContain('copied /bin/woodpecker-server');
    expect(readFileSync(fetched.agent, 'utf8')).toContain('copied /bin/woodpecker-agent');
    expect(fetched.source).toBe(
      'image podman docker.io/woodpeckerci/woodpecker-server:v3.17.0 id=sha256:0123abcd docker.io/woodpeckerci/woodpecker-agent:v3.17.0 id=sha256:0123abcd',
    );
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toContain('pull docker.io/woodpeckerci/woodpecker-server:v3.17.0');
    expect(calls).toContain('rm container-for-woodpecker-server');
    expect(calls).toContain('rm container-for-woodpecker-agent');
    // Nothing was started.
    expect(calls.filter((call) => /^(run|start)\b/.test(call))).toEqual([]);
  });

  it('a failed pull is a reason for the next route, naming the image and the error', async () => {
    standInPodman('offline', { failPull: true });
    const into = mkdtempSync(join(scratch, 'into-'));
    const error = await fetchFromImages({ tag: 'v3.17.0', into }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RouteUnavailable);
    expect((error as Error).message).toBe(
      'podman pull docker.io/woodpeckerci/woodpecker-server:v3.17.0 failed: Error: pinging container registry registry-1.docker.io: no such host',
    );
    expect(readdirSync(into)).toEqual([]);
  });

  it('a slow pull never goes quiet: a line every interval with the image, the time so far and its last output', async () => {
    standInPodman('slow', { pullSeconds: 3 });
    const lines: string[] = [];
    process.env.WOODPECKER_BUILD_PROGRESS_SECONDS = '1';
    try {
      await fetchFromImages({
        tag: 'v3.17.0',
        into: mkdtempSync(join(scratch, 'into-')),
        say: (line) => lines.push(line),
      });
    } finally {
      delete process.env.WOODPECKER_BUILD_PROGRESS_SECONDS;
    }
    const still = lines.filter((line) =>
      line.startsWith('still pulling docker.io/woodpeckerci/woodpecker-server:v3.17.0 ('),
    );
    expect(still.length, lines.join('\n')).toBeGreaterThanOrEqual(2);
    expect(still[0]).toMatch(/\(\d+ s so far; podman: Copying blob sha256:77aa\)$/);
    expect(
      lines.some((line) =>
        line.startsWith('still pulling docker.io/woodpeckerci/woodpecker-agent:v3.17.0 ('),
      ),
    ).toBe(true);
  });

  it('prints progress at least every 30 s by default', async () => {
    const { progressSeconds } = await import('../harness/woodpecker-images.js');
    delete process.env.WOODPECKER_BUILD_PROGRESS_SECONDS;
    expect(progressSeconds()).toBeLessThanOrEqual(30);
    process.env.WOODPECKER_BUILD_PROGRESS_SECONDS = 'soon';
    expect(progressSeconds()).toBeLessThanOrEqual(30);
    delete process.env.WOODPECKER_BUILD_PROGRESS_SECONDS;
  });

  it('without podman or docker, says so', async () => {
    process.env.PATH = join(scratch, 'nothing-here');
    await expect(
      fetchFromImages({ tag: 'v3.17.0', into: mkdtempSync(join(scratch, 'into-')) }),
    ).rejects.toThrow('neither podman nor docker is installed');
  });
});
