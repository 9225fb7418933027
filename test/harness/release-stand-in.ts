// A loopback stand-in for Woodpecker's GitHub release of a tag, for the demo's tests and
// the bench: this machine's binaries of that tag packed as the release packs them (the
// one binary at the root of woodpecker-{server,agent}_<os>_<arch>.tar.gz) with a
// checksums.txt as `sha256sum` writes it, served at <url>/<tag>/<asset>. Point
// WOODPECKER_RELEASE_URL at `url`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { releaseAssets } from './woodpecker-release.js';
import type { WoodpeckerBinaries } from './woodpecker-binaries.js';

export interface ReleaseStandIn {
  /** The download base, without the tag. */
  readonly url: string;
  /** Requests answered so far. */
  requests(): number;
  /** true: every file is sent 64 KiB every 200 ms (a download to stop midway). */
  slow(on: boolean): void;
  close(): Promise<void>;
}

export async function serveRelease(binaries: WoodpeckerBinaries): Promise<ReleaseStandIn> {
  const files = new Map<string, Buffer>();
  const assets = releaseAssets();
  const work = mkdtempSync(join(tmpdir(), 'release-stand-in-'));
  const lines: string[] = [];
  try {
    for (const [binary, asset] of [
      [binaries.server, assets.server],
      [binaries.agent, assets.agent],
    ] as const) {
      const out = join(work, asset);
      // gzip -1: packing 100 MB of binaries at the default level takes longer than the demo.
      const packed = spawnSync('tar', [
        '-I',
        'gzip -1',
        '-cf',
        out,
        '-C',
        dirname(binary),
        basename(binary),
      ]);
      if (packed.status !== 0) throw new Error(`tar failed: ${packed.stderr.toString()}`);
      const body = readFileSync(out);
      files.set(`/${binaries.tag}/${asset}`, body);
      lines.push(`${createHash('sha256').update(body).digest('hex')}  ${asset}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  files.set(`/${binaries.tag}/checksums.txt`, Buffer.from(`${lines.join('\n')}\n`));

  let requests = 0;
  let slow = false;
  const server = createServer((request, response) => {
    requests++;
    const body = files.get(request.url ?? '');
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-length': body.length });
    if (!slow) return void response.end(body);
    let at = 0;
    const tick = setInterval(() => {
      if (response.destroyed) return clearInterval(tick);
      response.write(body.subarray(at, (at += 65_536)));
      if (at >= body.length) {
        clearInterval(tick);
        response.end();
      }
    }, 200);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: () => requests,
    slow: (on) => (slow = on),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
