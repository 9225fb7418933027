// Woodpecker's official release binaries, so a first demo needs no compiler. What a
// release holds was read from Woodpecker's release configuration in its GitHub repository
// at tag v3.17.0 (.woodpecker/binaries.yaml and the Makefile's release targets). The
// shared source archives (../shared/woodpecker-src) hold the Go module only and have
// neither file, so the names cannot be checked against them here. As read there: the
// server is cross-compiled for linux amd64/arm64/riscv64, freebsd amd64 and windows amd64,
// each archived as woodpecker-server_<os>_<arch>.tar.gz (windows as a .zip, not used
// here); the agent (every backend, local included) for more platforms, as
// woodpecker-agent_<os>_<arch>.tar.gz (windows a .zip again); each archive holds the one
// binary at its root; a checksums target writes checksums.txt (sha256sum lines) over all
// of them, and the release uploads everything to the GitHub release of the tag. Nothing
// is trusted before its digest matches checksums.txt.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createWriteStream, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where the release assets are fetched from; tests point it at a loopback server. */
export const RELEASE_URL_VARIABLE = 'WOODPECKER_RELEASE_URL';
const DEFAULT_RELEASE_URL = 'https://github.com/woodpecker-ci/woodpecker/releases/download';
const CHECKSUMS_FILE = 'checksums.txt';

// <os>_<arch> pairs with a .tar.gz in the release (binaries.yaml's server platforms and the
// Makefile's agent targets at v3.17.0, windows left out: its archives are .zip files).
const SERVER_PLATFORMS = ['linux_amd64', 'linux_arm64', 'linux_riscv64', 'freebsd_amd64'];
const AGENT_PLATFORMS = [
  ...['linux_amd64', 'linux_arm64', 'linux_riscv64', 'linux_arm'],
  ...['darwin_amd64', 'darwin_arm64', 'freebsd_amd64', 'freebsd_arm64'],
  ...['openbsd_amd64', 'openbsd_arm64'],
];
const GO_ARCH: Record<string, string> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'arm',
  riscv64: 'riscv64',
};

/** Fails a route with the reason a person reads; the caller tries the next route. */
export class RouteUnavailable extends Error {}

export interface ReleaseAssets {
  server: string;
  agent: string;
}

/** The two archive names for this machine, or why the release has none. */
export function releaseAssets(
  platform: string = process.platform,
  arch: string = process.arch,
): ReleaseAssets {
  const target = `${platform}_${GO_ARCH[arch] ?? arch}`;
  if (!SERVER_PLATFORMS.includes(target) || !AGENT_PLATFORMS.includes(target))
    throw new RouteUnavailable(
      `Woodpecker publishes no server binary for ${target} (only ${SERVER_PLATFORMS.join(', ')})`,
    );
  return {
    server: `woodpecker-server_${target}.tar.gz`,
    agent: `woodpecker-agent_${target}.tar.gz`,
  };
}

/** checksums.txt as `sha256sum` writes it: "<64 hex>  <name>" (or " *<name>"), one a line. */
export function parseChecksums(text: string): Map<string, string> {
  const digests = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](\S+)$/i.exec(line.trim());
    if (match) digests.set(match[2]!, match[1]!.toLowerCase());
  }
  return digests;
}

export interface FetchReleaseOptions {
  /** A release tag, e.g. "v3.17.0". */
  tag: string;
  /** An empty directory the binaries are unpacked into. */
  into: string;
  signal?: AbortSignal;
  /** One line of progress for a person (no newline). */
  say?: (line: string) => void;
  platform?: string;
  arch?: string;
}

export interface FetchedRelease {
  server: string;
  agent: string;
  /** The SOURCE line the cache records: where from, and each archive's digest. */
  source: string;
}

// Generous for a 30 MB archive on a slow line, yet a stalled transfer does not hang a demo.
const STALL_MS = 30_000;
const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;
const MAX_CHECKSUMS_BYTES = 1024 * 1024;

export function releaseBaseUrl(): string {
  return (process.env[RELEASE_URL_VARIABLE] || DEFAULT_RELEASE_URL).replace(/\/+$/, '');
}

/**
 * Downloads the server and agent archives of `tag` for this machine, checks each against
 * the release's checksums.txt and unpacks the binary it holds into `into`. Any failure
 * (no such release, a 404, a digest that does not match, a cut-off download, an archive
 * without the binary) throws RouteUnavailable naming the file and what was wrong.
 */
export async function fetchRelease(options: FetchReleaseOptions): Promise<FetchedRelease> {
  if (!/^v\d+\.\d+\.\d+$/.test(options.tag))
    throw new RouteUnavailable(`${options.tag} is not a release tag`);
  const assets = releaseAssets(options.platform, options.arch);
  const base = `${releaseBaseUrl()}/${options.tag}`;
  const say = options.say ?? (() => undefined);
  const work = mkdtempSync(join(options.into, '.download-'));
  try {
    const checksumsPath = join(work, CHECKSUMS_FILE);
    await download(`${base}/${CHECKSUMS_FILE}`, checksumsPath, MAX_CHECKSUMS_BYTES, options);
    const digests = parseChecksums(readFileSync(checksumsPath, 'utf8'));
    const digestOf: Record<string, string> = {};
    for (const [binary, asset] of [
      ['woodpecker-server', assets.server],
      ['woodpecker-agent', assets.agent],
    ] as const) {
      const want = digests.get(asset);
      if (!want)
        throw new RouteUnavailable(`${base}/${CHECKSUMS_FILE} lists no digest for ${asset}`);
      const archive = join(work, asset);
      const started = Date.now();
      say(`downloading ${asset} from ${base}`);
      const { bytes, sha256 } = await download(`${base}/${asset}`, archive, MAX_ARCHIVE_BYTES, {
        ...options,
        say,
      });
      if (sha256 !== want)
        throw new RouteUnavailable(
          `${asset} does not match ${CHECKSUMS_FILE} (expected ${want}, got ${sha256}); not used`,
        );
      say(
        `${asset}: ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s, sha256 matches ${CHECKSUMS_FILE}`,
      );
      await unpackOne(archive, binary, options.into, options.signal);
      digestOf[asset] = sha256;
    }
    return {
      server: join(options.into, 'woodpecker-server'),
      agent: join(options.into, 'woodpecker-agent'),
      source: `release ${base} ${Object.entries(digestOf)
        .map(([asset, digest]) => `${asset} sha256=${digest}`)
        .join(' ')}`,
    };
  } catch (error) {
    for (const binary of ['woodpecker-server', 'woodpecker-agent'])
      rmSync(join(options.into, binary), { force: true });
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** GETs `url` into `path`, hashing on the way; a 404, a stall or a short body throws. */
async function download(
  url: string,
  path: string,
  maxBytes: number,
  options: Pick<FetchReleaseOptions, 'signal' | 'say'>,
): Promise<{ bytes: number; sha256: string }> {
  const stall = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stall.signal]) : stall.signal;
  let timer = setTimeout(() => stall.abort(), STALL_MS);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(), STALL_MS);
  };
  try {
    const response = await fetch(url, { signal, redirect: 'follow' }).catch((error: unknown) => {
      throw new RouteUnavailable(`cannot reach ${url}: ${causeOf(error)}`);
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new RouteUnavailable(`${url} answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes)
      throw new RouteUnavailable(`${url} is ${declared} bytes, more than the ${maxBytes} expected`);
    const hash = createHash('sha256');
    let bytes = 0;
    let lastSaid = Date.now();
    const counted = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).map(
      (chunk: Buffer) => {
        alive();
        bytes += chunk.length;
        if (bytes > maxBytes) throw new RouteUnavailable(`${url} sent more than ${maxBytes} bytes`);
        hash.update(chunk);
        if (Date.now() - lastSaid > 10_000) {
          lastSaid = Date.now();
          options.say?.(`  ${(bytes / 1e6).toFixed(1)} MB so far`);
        }
        return chunk;
      },
    );
    await pipeline(counted, createWriteStream(path, { mode: 0o600 })).catch((error: unknown) => {
      if (error instanceof RouteUnavailable) throw error;
      if (stall.signal.aborted)
        throw new RouteUnavailable(`${url} sent nothing for ${STALL_MS / 1000} s`);
      if (options.signal?.aborted) throw error;
      throw new RouteUnavailable(`${url} broke off after ${bytes} bytes: ${causeOf(error)}`);
    });
    if (Number.isFinite(declared) && bytes !== declared)
      throw new RouteUnavailable(`${url} broke off after ${bytes} of ${declared} bytes`);
    return { bytes, sha256: hash.digest('hex') };
  } finally {
    clearTimeout(timer);
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Unpacks the single member `name` from a verified archive into `dir` and checks it is a
 * regular file (not a link pointing elsewhere), executable.
 */
async function unpackOne(
  archive: string,
  name: string,
  dir: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const tar = spawn('tar', ['-xzf', archive, '-C', dir, '--no-same-owner', name], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(signal ? { signal } : {}),
  });
  let stderr = '';
  tar.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    tar.once('error', reject);
    tar.once('close', resolve);
  });
  if (code !== 0)
    throw new RouteUnavailable(
      `${archive} holds no ${name} (tar: ${stderr.trim().split('\n')[0]})`,
    );
  const unpacked = lstatSync(join(dir, name));
  if (!unpacked.isFile() || (unpacked.mode & 0o111) === 0)
    throw new RouteUnavailable(`${name} in ${archive} is not an executable file`);
}
