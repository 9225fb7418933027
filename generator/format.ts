// Generated output goes through prettier with the fixed options below (no config file is
// read), so the bytes depend only on the inputs.
import { format } from 'prettier';

const OPTIONS = { printWidth: 100, singleQuote: true, trailingComma: 'all', endOfLine: 'lf' } as const;

export function formatTypeScript(source: string): Promise<string> {
  return format(source, { ...OPTIONS, parser: 'typescript' });
}

export function formatMarkdown(source: string): Promise<string> {
  return format(source, { ...OPTIONS, parser: 'markdown', proseWrap: 'preserve' });
}
