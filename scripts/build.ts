// `npm run build`: type-checks the package, then bundles the server into dist/ as Node
// runs it. One file per way in instead of 145 modules: loading our modules one by one took
// about a third of a cold start, as much as the MCP SDK itself. The split follows the
// dynamic imports, so each command still loads only what it needs: main.js (command line,
// configuration; all of `--version` and `--help`), the serving chunk, the HTTP transport
// and doctor. Dependencies stay in node_modules, loaded as installed.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds into `outDir` (dist/ for the package; the bench builds its own copy). The demo
 * skips the type check (`typeCheck: false`): it runs a checkout CI has already checked,
 * and tsc is nearly all of a build's time (13 to 18 s, against 0.2 s for esbuild, on a
 * loaded 2-core machine).
 */
export async function buildPackage(
  outDir = join(ROOT, 'dist'),
  { typeCheck = true }: { typeCheck?: boolean } = {},
): Promise<void> {
  if (typeCheck) {
    const tsc = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'tsc'),
      ['-p', 'tsconfig.build.json', '--noEmit'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (tsc.status !== 0) throw new Error(`tsc found errors:\n${tsc.stdout}${tsc.stderr}`);
  }
  rmSync(outDir, { recursive: true, force: true });
  // esbuild answers from a service process it keeps for the next build; stop it, so a
  // long-running caller (the demo) has no child left that a Ctrl-C to its group would kill
  // under it.
  await build({
    entryPoints: [join(ROOT, 'runtime', 'process', 'main.ts')],
    // bin/woodpecker-ci-mcp.js imports dist/runtime/process/main.js; the chunks sit beside
    // it, so packageVersion() finds package.json at the same depth as from the sources.
    outdir: join(outDir, 'runtime', 'process'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  }).finally(() => stop());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPackage();
