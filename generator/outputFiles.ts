// Stage 5: Writing the generated files, and comparing them with what is on disk (`--check`).
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { OWNED_DIRECTORIES, OWNED_FILES } from './generate.js';

/** Deletes everything generation owns under `root`, then writes `files` there. */
export function writeOutput(root: string, files: ReadonlyMap<string, string>): void {
  for (const directory of OWNED_DIRECTORIES)
    rmSync(join(root, directory), { recursive: true, force: true });
  for (const file of OWNED_FILES) rmSync(join(root, file), { force: true });
  for (const [path, content] of files) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** Every file generation owns that exists under `root`, relative to it. */
export function ownedFilesOnDisk(root: string): string[] {
  const found: string[] = [];
  const walk = (directory: string): void => {
    if (!existsSync(directory)) return;
    for (const entry of readdirSync(directory)) {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(root, path).split('\\').join('/'));
    }
  };
  for (const directory of OWNED_DIRECTORIES) walk(join(root, directory));
  for (const file of OWNED_FILES) if (existsSync(join(root, file))) found.push(file);
  return found.sort();
}

export interface Drift {
  readonly missing: readonly string[];
  readonly extra: readonly string[];
  readonly changed: readonly string[];
}

export function compareWithDisk(root: string, files: ReadonlyMap<string, string>): Drift {
  const onDisk = new Set(ownedFilesOnDisk(root));
  // A file outside the owned places (docs/upgrading.md, whose version table is generated)
  // counts as present when it exists; it is never "extra".
  const present = (path: string): boolean => onDisk.has(path) || existsSync(join(root, path));
  const missing = [...files.keys()].filter((path) => !present(path));
  const extra = [...onDisk].filter((path) => !files.has(path));
  const changed = [...files]
    .filter(
      ([path, content]) => present(path) && readFileSync(join(root, path), 'utf8') !== content,
    )
    .map(([path]) => path);
  return { missing, extra, changed };
}

export function hasDrift(drift: Drift): boolean {
  return drift.missing.length + drift.extra.length + drift.changed.length > 0;
}
