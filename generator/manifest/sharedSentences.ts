// Stage 1: Sentences many tools say the same way, declared once under `sentences:` in tools.yaml.
// A description writes `{{repo_id}}` where the sentence `repo_id` belongs; two sentences
// have a fixed role: `confirm_token` describes the parameter every guarded tool gets, and
// `asks_a_person` ends every guarded tool's description, its `{when}` replaced by the
// guard's condition ("always", "only when ..."). One place to word them, so the tool
// list stays short and the 26 guarded tools cannot drift apart.
import { ManifestError, type Problem } from '../manifestError.js';
import type { LoadedManifest } from './loadManifest.js';
import type { Manifest, ManifestTool } from './manifestTypes.js';

const PLACEHOLDER = /\{\{([a-z][a-z0-9_]*)\}\}/g;

/** The manifest with every `{{name}}` in tool and parameter descriptions replaced. */
export function expandSentences(loaded: LoadedManifest): LoadedManifest {
  const sentences = loaded.manifest.sentences ?? {};
  const problems: Problem[] = [];
  const expand = (
    text: string,
    tool: ManifestTool,
    index: number,
    path: (string | number)[],
  ): string =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const sentence = sentences[name];
      if (sentence !== undefined) return sentence.trim();
      problems.push({
        line: loaded.locator.lineOf(['tools', index, ...path]),
        tool: tool.name,
        field: path.join('.'),
        message: `names the sentence "${name}", which is not declared; add it under sentences: or correct the spelling (declared: ${Object.keys(sentences).join(', ') || 'none'})`,
      });
      return whole;
    });
  const tools = loaded.manifest.tools.map((tool, index) => ({
    ...tool,
    description: expand(tool.description, tool, index, ['description']),
    params: Object.fromEntries(
      Object.entries(tool.params).map(([name, param]) => [
        name,
        {
          ...param,
          description: expand(param.description, tool, index, ['params', name, 'description']),
        },
      ]),
    ),
  }));
  if (problems.length > 0) throw new ManifestError(loaded.file, problems);
  const manifest: Manifest = { ...loaded.manifest, tools };
  return { ...loaded, manifest };
}

/** The sentence that ends a guarded tool's description, or undefined when none is declared. */
export function askingSentence(manifest: Manifest, condition: string): string | undefined {
  const sentence = manifest.sentences?.asks_a_person;
  return sentence === undefined ? undefined : sentence.trim().replace('{when}', condition);
}
