// The whole pipeline, stage by stage: load + validate → rules → spec check → model →
// emit. It returns the files it would write (relative path → content) and touches
// nothing, so `--check` and the tests can use exactly what `npm run generate` writes.
import { basename } from 'node:path';
import { emitApiTypes } from './emitApiTypes.js';
import { emitDocs } from './emitDocs.js';
import { emitIndex, emitReadme } from './emitIndex.js';
import { emitSnapshot } from './emitSnapshots.js';
import { emitToolFile } from './emitTools.js';
import type { Inputs } from './header.js';
import { loadManifest } from './loadManifest.js';
import { checkManifestRules } from './manifestRules.js';
import { expandSentences } from './sharedSentences.js';
import { buildModel, type ToolModel } from './model.js';
import { checkAgainstSpec, loadSpec } from './specCheck.js';

export interface GenerateOptions {
  readonly manifestPath: string;
  readonly specPath: string;
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
  const inputs: Inputs = { manifest: basename(options.manifestPath), spec: basename(options.specPath) };
  const facts = checkAgainstSpec(loaded, spec, inputs.spec);
  const tools = buildModel(loaded.manifest, facts);

  const files = new Map<string, string>();
  files.set('generated/woodpecker-api.ts', await emitApiTypes(spec, inputs));
  for (const tool of tools) {
    files.set(`generated/tools/${tool.name}.ts`, await emitToolFile(tool, inputs));
    files.set(`test/__toolsnaps__/${tool.name}.snap.json`, emitSnapshot(tool, inputs));
  }
  files.set('generated/index.ts', await emitIndex(tools, inputs));
  files.set('generated/README.md', await emitReadme(tools, inputs));
  files.set('docs/tools.md', await emitDocs(tools, inputs));
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), tools };
}
