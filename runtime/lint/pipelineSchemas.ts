// The pipeline schemas of the releases we test, as `npm run schema:pull` takes them out of
// Woodpecker's source archives (specs/pipeline-schema/<version>.json), and the one a
// server's version is judged by: the newest that is not newer than it. A release between
// two tested ones (3.14) is judged by the older (3.11), whose rules it has at least; a
// release after the newest, by the newest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PipelineSchema {
  /** The release it came from, as its GET /version says: "3.18.0-dev+a4cb541". */
  readonly version: string;
  readonly schema: Record<string, unknown>;
}

/** "3.18.0-dev+a4cb541" → [3, 18, 0]; a name without a release number → undefined. */
export function releaseNumbers(version: string | undefined): readonly number[] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version?.trim() ?? '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

export function compareRelease(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/**
 * How people name a release: "3.17.0" → "3.17"; a development build before a release,
 * "3.18.0-dev+a4cb541" → "3.18 (main at a4cb541, before 3.18.0)".
 */
export function releaseName(version: string): string {
  const dev = /^(\d+)\.(\d+)\.0-dev\+([0-9a-f]+)$/.exec(version);
  if (dev) return `${dev[1]}.${dev[2]} (main at ${dev[3]}, before ${dev[1]}.${dev[2]}.0)`;
  return version.replace(/^(\d+\.\d+)\.0$/, '$1');
}

let loaded: readonly PipelineSchema[] | undefined;

/** Tested releases' schemas, oldest first; read once, on the first lint. */
export function pipelineSchemas(): readonly PipelineSchema[] {
  if (loaded) return loaded;
  const directory = schemaDirectory();
  const schemas = readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const artefact = JSON.parse(readFileSync(join(directory, name), 'utf8')) as {
        'x-woodpecker-version'?: unknown;
        schema?: unknown;
      };
      const version = artefact['x-woodpecker-version'];
      if (typeof version !== 'string' || releaseNumbers(version) === undefined || !artefact.schema)
        throw new Error(`${join(directory, name)} is no pipeline schema; run npm run schema:pull`);
      return { version, schema: artefact.schema as Record<string, unknown> };
    })
    .sort((a, b) => compareRelease(releaseNumbers(a.version)!, releaseNumbers(b.version)!));
  if (schemas.length === 0) throw new Error(`${directory} holds no pipeline schema`);
  return (loaded = schemas);
}

/** The schema a server of this version is judged by; its version unknown: the newest. */
export function schemaFor(serverVersion: string | undefined): PipelineSchema {
  const schemas = pipelineSchemas();
  const release = releaseNumbers(serverVersion);
  const newest = schemas[schemas.length - 1]!;
  if (!release) return newest;
  const notNewer = schemas.filter(
    (entry) => compareRelease(releaseNumbers(entry.version)!, release) <= 0,
  );
  return notNewer[notNewer.length - 1] ?? schemas[0]!;
}

// runtime/lint/ from the sources, dist/runtime/process/ when bundled: look upwards.
function schemaDirectory(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    const candidate = join(directory, 'specs', 'pipeline-schema');
    if (existsSync(candidate)) return candidate;
    directory = dirname(directory);
  }
  throw new Error('specs/pipeline-schema/ is missing from this installation');
}
