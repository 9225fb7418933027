// Writes the software bill of materials of an installed production tree, as CycloneDX
// JSON (npm sbom), to the path given: the Containerfile runs it after `npm prune
// --omit=dev`, and the image carries the result at /app/sbom.cdx.json.
//
//   node deploy/sbom.mjs <out.json>        (in the folder with package.json and node_modules)
//
// Two things npm sbom does not do by itself here: with --omit=dev it refuses a tree whose
// development dependencies are pruned ("missing: ..."), and with --package-lock-only it
// leaves out every package a development tool also uses. So it runs on a copy of
// package.json without devDependencies (put back afterwards), which describes the pruned
// tree exactly; and the root component is named after the package, not the folder.
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node deploy/sbom.mjs <out.json>\n');
  process.exit(2);
}
const manifest = readFileSync('package.json', 'utf8');
const pkg = JSON.parse(manifest);
renameSync('package.json', 'package.json.sbom-orig');
let bom;
try {
  const { devDependencies: _dev, ...production } = pkg;
  writeFileSync('package.json', `${JSON.stringify(production, null, 2)}\n`);
  bom = JSON.parse(
    execFileSync('npm', ['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
} finally {
  renameSync('package.json.sbom-orig', 'package.json');
}
bom.metadata.component.name = pkg.name;
writeFileSync(out, `${JSON.stringify(bom, null, 2)}\n`);
process.stdout.write(`${out}: ${bom.components.length} components of ${pkg.name}@${pkg.version}\n`);
