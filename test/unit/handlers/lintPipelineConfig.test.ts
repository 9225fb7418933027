// lint_pipeline_config through the executor, as a client calls it: its one Woodpecker
// request is GET /version, the text it checks goes nowhere, and the release that judged
// it is named. (The size bound is the input schema's, checked by the MCP layer: e2e.)
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { useMockWoodpecker, MOCK_ORIGIN } from '../mockWoodpecker.js';
import { mockExecutor, TOKEN_PATH_CALL, toolsByName } from '../call/mockExecutor.js';

const woodpecker = useMockWoodpecker();
const SECRET_LOOKING = 'lint-canary-7f3a91';
const CONFIG = `steps:\n  build:\n    image: golang\n    commands: [echo ${SECRET_LOOKING}]\n    matri: x\n`;

interface Sent {
  method: string;
  path: string;
  body: string;
}

/** Answers every request (so none fails for lack of an interceptor) and records it. */
function recordAll(version: string | undefined): Sent[] {
  const sent: Sent[] = [];
  woodpecker
    .agent()
    .get(MOCK_ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((options) => {
      sent.push({
        method: String(options.method),
        path: String(options.path),
        body: String(options.body ?? ''),
      });
      return version === undefined
        ? { statusCode: 502, data: 'bad gateway' }
        : {
            statusCode: 200,
            data: JSON.stringify({
              version,
              source: 'https://github.com/woodpecker-ci/woodpecker',
            }),
            responseOptions: { headers: { 'content-type': 'application/json' } },
          };
    })
    .persist();
  return sent;
}

async function lint(config: string): Promise<CallToolResult> {
  return (await mockExecutor(woodpecker.client()).run(
    toolsByName.get('lint_pipeline_config')!,
    { config },
    TOKEN_PATH_CALL,
  )) as CallToolResult;
}

describe('lint_pipeline_config', () => {
  it('sends Woodpecker one request, GET /version, and never the text it checks', async () => {
    const sent = recordAll('3.17.0');
    const result = await lint(CONFIG);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /version']);
    expect(JSON.stringify(sent)).not.toContain(SECRET_LOOKING);
    const data = result.structuredContent as {
      valid: boolean;
      judged_by: string;
      errors: { line: number; column: number; field: string; message: string }[];
    };
    expect(data.valid).toBe(false);
    expect(data.judged_by).toBe('Woodpecker 3.17');
    expect(data.errors).toEqual([
      expect.objectContaining({ line: 5, column: 5, field: 'steps.build.matri' }),
    ]);
  });

  it('names 3.18 for the development build before it, and the nearest tested release for others', async () => {
    recordAll('3.18.0-dev+a4cb541');
    const next = (await lint(CONFIG)).structuredContent as { judged_by: string };
    expect(next.judged_by).toBe('Woodpecker 3.18 (main at a4cb541, before 3.18.0)');
  });

  it('words a release after the newest tested in one aside', async () => {
    recordAll('3.19.0');
    const later = (await lint(CONFIG)).structuredContent as { judged_by: string };
    expect(later.judged_by).toBe(
      "Woodpecker 3.18 (main at a4cb541, before 3.18.0; the tested release nearest this server's 3.19.0)",
    );
  });

  it('judges a release between tested ones by the older one and says so', async () => {
    recordAll('3.14.2');
    const data = (await lint(CONFIG)).structuredContent as { judged_by: string };
    expect(data.judged_by).toBe(
      "Woodpecker 3.11 (the tested release nearest this server's 3.14.2)",
    );
  });

  it('still checks the text when /version fails, by the newest tested release', async () => {
    const sent = recordAll(undefined);
    const result = await lint(CONFIG);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // One aside, not two sets of brackets side by side.
    expect((result.structuredContent as { judged_by: string }).judged_by).toBe(
      "Woodpecker 3.18 (main at a4cb541, before 3.18.0; the newest tested, as this server's version did not answer)",
    );
    expect(sent.map((request) => request.path)).toEqual(['/version']);
  });

  it('answers an alias bomb with a finding instead of expanding it', async () => {
    recordAll('3.17.0');
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 8 }, (_, i) => {
        const name = String.fromCharCode(98 + i);
        const previous = String.fromCharCode(97 + i);
        return `${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`;
      }),
      'steps: { build: { image: golang, commands: *i } }',
    ].join('\n');
    const result = await lint(bomb);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const data = result.structuredContent as { errors: { rule: string; message: string }[] };
    expect(data.errors).toEqual([
      expect.objectContaining({ rule: 'yaml', message: expect.stringMatching(/aliases/) }),
    ]);
  });
});
