// Stage 4 (every emitter): Generated output goes through prettier with the repository's own options
// (.prettierrc.json, the same file `npm run format:check` applies to hand-written code),
// read here explicitly rather than resolved from the output's location, so the bytes
// depend only on the inputs and that one file.
import { readFileSync } from 'node:fs';
import { format, type Options } from 'prettier';

const OPTIONS: Options = JSON.parse(
  readFileSync(new URL('../.prettierrc.json', import.meta.url), 'utf8'),
) as Options;

export function formatTypeScript(source: string): Promise<string> {
  return format(source, { ...OPTIONS, parser: 'typescript' });
}

export function formatMarkdown(source: string): Promise<string> {
  return format(source, { ...OPTIONS, parser: 'markdown', proseWrap: 'preserve' });
}
