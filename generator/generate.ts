// The whole pipeline, stage by stage, each stage a folder: 1 manifest/ (load +
// validate) → 1b rules/ (what a schema cannot say) → 2 spec/ (against Woodpecker's
// OpenAPI) → 3 model.ts → 4 emit/ → 5 outputFiles.ts (write, or compare for --check). This
// file returns the files it would write (relative path → content) and touches nothing, so
// `--check` and the tests use exactly what `npm run generate` writes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { emitApiTypes } from './emit/emitApiTypes.js';
import { emitDocs } from './emit/emitDocs.js';
import { emitIndex, emitReadme } from './emit/emitIndex.js';
import { emitSnapshot } from './emit/emitSnapshots.js';
import { emitToolFile } from './emit/emitTools.js';
import type { Inputs } from './header.js';
import { loadManifest } from './manifest/loadManifest.js';
import { checkManifestRules } from './rules/manifestRules.js';
import { expandSentences } from './manifest/sharedSentences.js';
import { buildModel, type ToolModel } from './model.js';
import { checkAgainstSpec, dialogVocabularies, loadSpec } from './spec/specCheck.js';
import { checkViews, compileViews } from './spec/views.js';
import { emitViews, viewNames } from './emit/emitViews.js';
import { checkCurrentValues } from './spec/currentValues.js';
import { answerExamples } from './emit/answerExamples.js';
import { formatTypeScript } from './format.js';
import { emitReleases, emitVersionTable } from './emit/emitVersionTable.js';
import { compareVersions, loadVersionedSpec } from './spec/versionFacts.js';

export interface GenerateOptions {
  readonly manifestPath: string;
  readonly specPath: string;
  /** Specs of the other supported Woodpecker releases (specs/*.json); none: only the pin. */
  readonly versionSpecPaths?: readonly string[];
  /** docs/upgrading.md, whose version table is regenerated between its markers; absent: skipped. */
  readonly upgradingDocPath?: string;
  /** Real answers captured from the harness (test/answers/captured.json); absent: no examples. */
  readonly capturedAnswersPath?: string;
}

/**
 * The inputs that live beside a manifest: the other releases' specs (every .json in
 * specs/) and docs/upgrading.md, whose version table is generated. A fixture manifest in
 * a directory without them gets neither.
 */
export function inputsBeside(
  manifestPath: string,
  specsDirectory = join(dirname(manifestPath), 'specs'),
): Pick<GenerateOptions, 'versionSpecPaths' | 'upgradingDocPath'> {
  const upgradingDoc = join(dirname(manifestPath), 'docs', 'upgrading.md');
  const versionSpecPaths = existsSync(specsDirectory)
    ? readdirSync(specsDirectory)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(specsDirectory, name))
    : [];
  const captured = join(dirname(manifestPath), 'test', 'answers', 'captured.json');
  return {
    versionSpecPaths,
    ...(existsSync(upgradingDoc) ? { upgradingDocPath: upgradingDoc } : {}),
    ...(existsSync(captured) ? { capturedAnswersPath: captured } : {}),
  };
}

/** The places generation owns; `npm run generate` deletes them before writing. */
export const OWNED_DIRECTORIES = ['generated', 'test/__toolsnaps__'] as const;
export const OWNED_FILES = ['docs/tools.md'] as const;

export interface Generated {
  readonly files: ReadonlyMap<string, string>;
  readonly tools: readonly ToolModel[];
}

export async function generate(options: GenerateOptions): Promise<Generated> {
  const loaded = expandSentences(loadManifest(options.manifestPath));
  checkManifestRules(loaded);
  const spec = loadSpec(options.specPath);
  const inputs: Inputs = {
    manifest: basename(options.manifestPath),
    spec: basename(options.specPath),
  };
  const facts = checkAgainstSpec(loaded, spec, inputs.spec);
  checkViews(loaded, spec, inputs.spec);
  checkCurrentValues(loaded, spec, inputs.spec);
  // Only with other releases' specs is there anything to compare (fixtures have the pin alone).
  const others = options.versionSpecPaths ?? [];
  const pinned = others.length === 0 ? undefined : loadVersionedSpec(options.specPath);
  const versions =
    pinned === undefined
      ? undefined
      : compareVersions(loaded, [pinned, ...others.map(loadVersionedSpec)]);
  const compiledViews = compileViews(loaded.manifest);
  const tools = buildModel(
    loaded.manifest,
    facts,
    versions,
    compiledViews,
    dialogVocabularies(loaded.manifest.tools, spec),
  );
  const views = viewNames(compiledViews, tools);

  const files = new Map<string, string>();
  files.set('generated/woodpecker-api.ts', await emitApiTypes(spec, inputs));
  for (const tool of tools) {
    files.set(`generated/tools/${tool.name}.ts`, await emitToolFile(tool, inputs, views));
    files.set(`test/__toolsnaps__/${tool.name}.snap.json`, emitSnapshot(tool, inputs));
  }
  if (versions && pinned)
    files.set(
      'generated/woodpeckerReleases.ts',
      await formatTypeScript(emitReleases(versions.versions, pinned.version)),
    );
  if (views.size > 0) files.set('generated/views.ts', await emitViews(views, inputs));
  files.set('generated/index.ts', await emitIndex(tools, inputs));
  files.set('generated/README.md', await emitReadme(tools, inputs, views.size > 0));
  const examples =
    options.capturedAnswersPath === undefined
      ? new Map()
      : await answerExamples(options.capturedAnswersPath, tools);
  files.set('docs/tools.md', await emitDocs(tools, inputs, examples));
  if (versions && options.upgradingDocPath !== undefined)
    files.set(
      'docs/upgrading.md',
      emitVersionTable(readFileSync(options.upgradingDocPath, 'utf8'), tools, versions.versions),
    );
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), tools };
}
