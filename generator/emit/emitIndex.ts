// Stage 4b: generated/index.ts (every tool, sorted by name) and generated/README.md.
import { formatMarkdown, formatTypeScript } from '../format.js';
import { headerLine, markdownHeader, tsHeader, type Inputs } from '../header.js';
import type { ToolModel } from '../model.js';

export function emitIndex(tools: readonly ToolModel[], inputs: Inputs): Promise<string> {
  const imports = tools.map(
    (tool) => `import { ${tool.constName}, type ${tool.argsType} } from './tools/${tool.name}.js';`,
  );
  // Typed lookups by name: the runtime's `toolNamed('get_pipeline')` and resource reads
  // take a ToolName and that tool's arguments type, so a misspelt tool or argument fails
  // in `tsc` instead of at the first call.
  const argsByName = tools.map((tool) => `readonly ${tool.name}: ${tool.argsType};`);
  const text = [
    tsHeader(inputs),
    `import type { ToolDefinition } from '../runtime/core/tool.js';`,
    ...imports,
    '',
    `/** Every tool of ${inputs.manifest}, sorted by name. */`,
    `export const tools: readonly ToolDefinition[] = [${tools.map((tool) => tool.constName).join(', ')}];`,
    '',
    `/** Each tool's arguments type, by the tool's name. */`,
    `export interface ToolArgsByName {\n${argsByName.join('\n')}\n}`,
    '',
    `/** The name of a tool of ${inputs.manifest}. */`,
    'export type ToolName = keyof ToolArgsByName;',
    '',
  ].join('\n');
  return formatTypeScript(text);
}

export function emitReadme(
  tools: readonly ToolModel[],
  inputs: Inputs,
  hasViews: boolean,
): Promise<string> {
  const viewsLine = hasViews
    ? '\n- `views.ts`: the named views of the manifest (`views:`), each written once; tools refer to them.'
    : '';
  const text = `${markdownHeader(inputs)}# generated/ — DO NOT EDIT

${headerLine(inputs)}

Everything in this directory is written by \`npm run generate\` from \`${inputs.manifest}\`
(the policy: every tool, its annotations and its guard) and \`${inputs.spec}\` (Woodpecker's
API). \`npm run generate\` deletes this directory and writes it again; \`npm run generate:check\`
fails when the committed files differ from what the inputs produce.

To change a tool, edit \`${inputs.manifest}\`, run \`npm run generate\`, and commit the manifest,
this directory, \`docs/tools.md\` and \`test/__toolsnaps__/\` together.

- \`woodpecker-api.ts\`: openapi-typescript's types of the spec.
- \`tools/<tool>.ts\`: one module per tool (${tools.length} tools): its arguments type, its request builder, its definition.
- \`index.ts\`: \`tools\`, every definition sorted by name.${viewsLine}
`;
  return formatMarkdown(text);
}
