// The release download as the demo uses it, against a loopback server shaped like a
// Woodpecker GitHub release (<base>/<tag>/woodpecker-{server,agent}_<os>_<arch>.tar.gz and
// checksums.txt): a good release is unpacked and recorded with its digests; a digest that
// does not match, a 404, a download cut off midway, a checksums file without the archive
// and an archive whose binary is a link are each refused, naming the file, and leave
// nothing unpacked behind.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchRelease,
  parseChecksums,
  RELEASE_URL_VARIABLE,
  releaseAssets,
  RouteUnavailable,
} from '../harness/woodpecker-release.js';

const TAG = 'v3.17.0';
const scratch = mkdtempSync(join(tmpdir(), 'woodpecker-release-test-'));
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** A .tar.gz holding one file `name` at its root (a link to /bin/sh with `link`). */
function archiveOf(name: string, body: string, options: { link?: boolean } = {}): Buffer {
  const dir = mkdtempSync(join(scratch, 'payload-'));
  if (options.link) symlinkSync('/bin/sh', join(dir, name));
  else {
    writeFileSync(join(dir, name), body);
    chmodSync(join(dir, name), 0o755);
  }
  const out = join(dir, '..', `${name}-${Math.random().toString(36).slice(2)}.tar.gz`);
  expect(spawnSync('tar', ['-czf', out, '-C', dir, name]).status).toBe(0);
  return readFileSync(out);
}

interface Served {
  body: Buffer;
  /** Sends half the body, then drops the connection (the Content-Length promised all of it). */
  cutOff?: boolean;
}

let files = new Map<string, Served>();
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const file = files.get(request.url ?? '');
    if (!file) {
      response.writeHead(404).end('Not Found');
      return;
    }
    response.writeHead(200, { 'content-length': file.body.length });
    if (file.cutOff) {
      response.write(file.body.subarray(0, file.body.length >> 1), () => response.destroy());
      return;
    }
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}/releases/download`;
  process.env[RELEASE_URL_VARIABLE] = base;
});
afterAll(async () => {
  delete process.env[RELEASE_URL_VARIABLE];
  await new Promise((resolve) => server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  files = new Map();
});

const { server: serverAsset, agent: agentAsset } = releaseAssets('linux', 'x64');

/** Serves a release; `checksums` rewrites the checksums file's lines. */
function serveRelease(
  options: {
    server?: Buffer;
    agent?: Served | null;
    checksums?: (lines: string[]) => string[];
  } = {},
): { serverArchive: Buffer; agentArchive: Buffer } {
  const serverArchive =
    options.server ?? archiveOf('woodpecker-server', '#!/bin/sh\necho server\n');
  const agentArchive =
    options.agent?.body ?? archiveOf('woodpecker-agent', '#!/bin/sh\necho agent\n');
  let lines = [
    `${sha256(serverArchive)}  ${serverAsset}`,
    `${sha256(agentArchive)}  ${agentAsset}`,
    `${'0'.repeat(64)}  woodpecker-cli_linux_amd64.tar.gz`,
  ];
  if (options.checksums) lines = options.checksums(lines);
  const at = (name: string) => `/releases/download/${TAG}/${name}`;
  files.set(at('checksums.txt'), { body: Buffer.from(`${lines.join('\n')}\n`) });
  files.set(at(serverAsset), { body: serverArchive });
  if (options.agent !== null)
    files.set(at(agentAsset), { body: agentArchive, cutOff: options.agent?.cutOff ?? false });
  return { serverArchive, agentArchive };
}

async function fetchInto(): Promise<{ dir: string; result: Promise<unknown> }> {
  const dir = mkdtempSync(join(scratch, 'into-'));
  return {
    dir,
    result: fetchRelease({ tag: TAG, into: dir, platform: 'linux', arch: 'x64' }),
  };
}

/** The refusal's message; nothing (no binary, no partial download) is left behind. */
async function refusal(): Promise<string> {
  const { dir, result } = await fetchInto();
  const error = await result.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RouteUnavailable);
  expect(readdirSync(dir)).toEqual([]);
  return (error as Error).message;
}

describe('the official release route', () => {
  it("names the archives as Woodpecker's release pipeline does, and has none for a server it does not publish", () => {
    expect(releaseAssets('linux', 'x64')).toEqual({
      server: 'woodpecker-server_linux_amd64.tar.gz',
      agent: 'woodpecker-agent_linux_amd64.tar.gz',
    });
    expect(releaseAssets('linux', 'arm64').server).toBe('woodpecker-server_linux_arm64.tar.gz');
    // The release pipeline cross-compiles no macOS server (the agent, it does).
    expect(() => releaseAssets('darwin', 'arm64')).toThrow(/no server binary for darwin_arm64/);
  });

  it('reads checksums.txt as sha256sum writes it', () => {
    const digest = 'a'.repeat(64);
    expect(
      parseChecksums(`${digest}  woodpecker-server_linux_amd64.tar.gz\n${digest} *b.zip\nnoise\n`),
    ).toEqual(
      new Map([
        ['woodpecker-server_linux_amd64.tar.gz', digest],
        ['b.zip', digest],
      ]),
    );
  });

  it('unpacks a good release and records where it came from with both digests', async () => {
    const { serverArchive, agentArchive } = serveRelease();
    const { dir, result } = await fetchInto();
    const fetched = (await result) as { server: string; agent: string; source: string };
    expect(readFileSync(fetched.server, 'utf8')).toContain('echo server');
    expect(readFileSync(fetched.agent, 'utf8')).toContain('echo agent');
    expect(fetched.source).toBe(
      `release ${base}/${TAG} ${serverAsset} sha256=${sha256(serverArchive)} ${agentAsset} sha256=${sha256(agentArchive)}`,
    );
    expect(readdirSync(dir).sort()).toEqual(['woodpecker-agent', 'woodpecker-server']);
  });

  it('refuses an archive whose digest does not match checksums.txt, naming both digests', async () => {
    const tampered = archiveOf('woodpecker-server', '#!/bin/sh\necho tampered\n');
    const published = archiveOf('woodpecker-server', '#!/bin/sh\necho server\n');
    serveRelease({
      server: tampered,
      checksums: (lines) => [`${sha256(published)}  ${serverAsset}`, ...lines.slice(1)],
    });
    const message = await refusal();
    expect(message).toContain(`${serverAsset} does not match checksums.txt`);
    expect(message).toContain(sha256(tampered));
  });

  it('refuses a 404, naming the address', async () => {
    serveRelease({ agent: null });
    expect(await refusal()).toBe(`${base}/${TAG}/${agentAsset} answered HTTP 404`);
  });

  it('refuses a release without checksums.txt', async () => {
    expect(await refusal()).toBe(`${base}/${TAG}/checksums.txt answered HTTP 404`);
  });

  it('refuses a download cut off midway, saying how far it got', async () => {
    const agentArchive = archiveOf('woodpecker-agent', 'x'.repeat(200_000));
    serveRelease({ agent: { body: agentArchive, cutOff: true } });
    expect(await refusal()).toMatch(new RegExp(`${agentAsset} broke off after \\d+`));
  });

  it('refuses an archive checksums.txt does not list', async () => {
    serveRelease({ checksums: (lines) => lines.filter((line) => !line.includes(agentAsset)) });
    expect(await refusal()).toContain(`lists no digest for ${agentAsset}`);
  });

  it('refuses an archive whose binary is a link, not a file', async () => {
    serveRelease({ server: archiveOf('woodpecker-server', '', { link: true }) });
    expect(await refusal()).toContain('woodpecker-server in');
  });

  it('refuses a branch build: only release tags have release binaries', async () => {
    const dir = mkdtempSync(join(scratch, 'branch-'));
    mkdirSync(dir, { recursive: true });
    await expect(fetchRelease({ tag: 'main-a4cb541', into: dir })).rejects.toThrow(
      'main-a4cb541 is not a release tag',
    );
    expect(existsSync(join(dir, 'woodpecker-server'))).toBe(false);
  });
});
