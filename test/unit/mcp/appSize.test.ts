// The views' sizes in docs/performance.md are measured here: the page as served and
// ext-apps' App class with its dependencies, in bytes and o200k tokens. Both are
// deterministic, so a changed page that leaves the docs behind fails this test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { appHtml } from '../../../runtime/mcp/apps.js';
import { PIPELINE_SCRIPT, PIPELINE_STYLE } from '../../../runtime/apps/pipelinePage.js';

const docs = readFileSync(new URL('../../../docs/performance.md', import.meta.url), 'utf8');

/** The bytes and tokens the docs give in the table row that starts with `label`. */
function documented(label: string): { bytes: number; tokens: number } {
  const row = docs.split('\n').find((line) => line.startsWith(`| ${label}`));
  if (!row) throw new Error(`docs/performance.md has no row starting "| ${label}"`);
  const [bytes, tokens] = row
    .split('|')
    .slice(2, 4)
    .map((cell) => Number(cell.trim().replace(/,/g, '')));
  return { bytes: bytes!, tokens: tokens! };
}

const measured = (text: string) => ({
  bytes: Buffer.byteLength(text),
  tokens: encode(text).length,
});

describe('the views as docs/performance.md measures them', () => {
  it('gives the pipeline page as served', () => {
    const html = appHtml(
      { title: 'Pipeline view', description: '', style: PIPELINE_STYLE, script: PIPELINE_SCRIPT },
      'https://ci.example.com',
    );
    expect(measured(html)).toEqual(documented('pipeline view with the approval review'));
  });

  it("gives ext-apps' App class with its dependencies", () => {
    const require = createRequire(import.meta.url);
    const app = require.resolve('@modelcontextprotocol/ext-apps/app-with-deps');
    const text = readFileSync(join(dirname(app), 'app-with-deps.js'), 'utf8');
    expect(measured(text)).toEqual(documented("ext-apps' `App` class"));
  });
});
