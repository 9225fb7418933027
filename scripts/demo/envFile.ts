// The demo's env file holds the admin token of its Woodpecker, so it is written the way a
// file holding a secret is: never through a link someone planted at that path (the token
// would land wherever the link points), readable by this user only, and in one rename, so
// a reader never sees half a file.
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Why `path` cannot be the env file, or undefined when it can (absent, or a regular file). */
export function envFileProblem(path: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `${path} cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
  if (stat.isSymbolicLink())
    return `${path} is a symbolic link; the demo writes its admin token there and does not follow links. Remove the link or give another path with --demo-env`;
  if (stat.isDirectory())
    return `${path} is a directory; --demo-env needs a file path, e.g. --demo-env ${join(path, 'demo.env')}`;
  if (!stat.isFile()) return `${path} is not a regular file; give a file path with --demo-env`;
  return undefined;
}

/**
 * Writes `content` to `path` with mode 0600 without following a link at `path`: a new file
 * beside it (created exclusively, so not through a link either), then renamed over it. A
 * rename replaces a link planted after the check instead of writing through it.
 */
export function writeEnvFile(path: string, content: string): void {
  const problem = envFileProblem(path);
  if (problem) throw new Error(problem);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${(error as Error).message}`);
  }
}
