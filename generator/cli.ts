// Entry point (all stages, in generate.ts's order).
// npm run generate        → writes generated/, docs/tools.md, test/__toolsnaps__/
// npm run generate:check  → regenerates in memory and fails if the committed files differ
// Options (for tests and fixtures): --manifest <file> --spec <file> --out <root>
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate, inputsBeside } from './generate.js';
import { ManifestError } from './manifestError.js';
import { compareWithDisk, hasDrift, writeOutput } from './outputFiles.js';
import { SpecError } from './spec/specCheck.js';

export async function main(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        check: { type: 'boolean', default: false },
        manifest: { type: 'string', default: 'tools.yaml' },
        spec: { type: 'string', default: 'woodpecker-openapi.json' },
        out: { type: 'string', default: '.' },
        // Both default to places beside the manifest, so a fixture manifest elsewhere has none.
        versions: { type: 'string' },
        'upgrading-doc': { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(
      `generate: ${(error as Error).message}\nusage: tsx generator/cli.ts [--check] [--manifest tools.yaml] [--spec woodpecker-openapi.json] [--out .] [--versions specs] [--upgrading-doc docs/upgrading.md]\n`,
    );
    return 2;
  }
  try {
    const beside = inputsBeside(values.manifest, values.versions);
    const { files, tools } = await generate({
      manifestPath: values.manifest,
      specPath: values.spec,
      ...beside,
      ...(values['upgrading-doc'] === undefined
        ? {}
        : { upgradingDocPath: values['upgrading-doc'] }),
    });
    const root = resolve(values.out);
    if (values.check) {
      const drift = compareWithDisk(root, files);
      if (!hasDrift(drift)) {
        process.stdout.write(
          `generate:check: ${files.size} files up to date (${tools.length} tools)\n`,
        );
        return 0;
      }
      const lines = [
        ...drift.changed.map((path) => `  changed: ${path}`),
        ...drift.missing.map((path) => `  missing: ${path}`),
        ...drift.extra.map((path) => `  not generated any more: ${path}`),
      ];
      process.stderr.write(
        `generate:check: the committed files differ from what ${values.manifest} + ${values.spec} produce:\n${lines.join('\n')}\nRun \`npm run generate\` and commit the result.\n`,
      );
      return 1;
    }
    writeOutput(root, files);
    process.stdout.write(`generate: wrote ${files.size} files for ${tools.length} tools\n`);
    return 0;
  } catch (error) {
    if (error instanceof ManifestError) {
      process.stderr.write(
        `${error.message}\n${error.problems.length} problem(s); nothing was written.\n`,
      );
      return 1;
    }
    if (error instanceof SpecError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

// Run when started as a program (tsx generator/cli.ts), not when imported by a test.
if (
  process.argv[1] !== undefined &&
  resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)
) {
  process.exitCode = await main(process.argv.slice(2));
}
