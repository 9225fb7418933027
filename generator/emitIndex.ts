// Stage 4b: generated/index.ts (every tool, sorted by name) and generated/README.md.
import { formatMarkdown, formatTypeScript } from './format.js';
import { headerLine, markdownHeader, tsHeader, type Inputs } from './header.js';
import type { ToolModel } from './model.js';

export function emitIndex(tools: readonly ToolModel[], inputs: Inputs): Promise<string> {
  const imports = tools.map(
    (tool) => `import { ${tool.constName} } from './tools/${tool.name}.js';`,
  );
  const text = [
    tsHeader(inputs),
    `import type { ToolDefinition } from '../runtime/core/tool.js';`,
    ...imports,
    '',
    `/** Every tool of ${inputs.manifest}, sorted by name. */`,
    `export const tools: readonly ToolDefinition[] = [${tools.map((tool) => tool.constName).join(', ')}];`,
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
