// Every client snippet in the docs is parsed as its client would parse it (JSON, TOML,
// a shell command) and checked for the keys that client expects: a VS Code file with
// `mcpServers`, a Codex file in JSON or an HTTP entry without its Bearer header would
// each leave a newcomer with a server that never starts.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from '../../runtime/process/variables.js';

interface Snippet {
  readonly file: string;
  readonly heading: string;
  readonly language: string;
  readonly text: string;
}

function snippetsOf(file: string): Snippet[] {
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const snippets: Snippet[] = [];
  let heading = '';
  let open: { language: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        snippets.push({ file, heading, language: open.language, text: open.lines.join('\n') });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { language: line.slice(3).trim(), lines: [] };
    else if (/^#{2,3} /.test(line)) heading = line.replace(/^#+ /, '');
  }
  return snippets;
}

// Python's standard tomllib is the TOML 1.0 reference here: no TOML parser is a dependency.
function parseToml(text: string): Record<string, unknown> {
  return JSON.parse(
    execFileSync(
      'python3',
      ['-c', 'import json,sys,tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'],
      { input: text, encoding: 'utf8' },
    ),
  ) as Record<string, unknown>;
}

const KNOWN_VARIABLES = new Set(VARIABLES.map((variable) => variable.name));
// What works today, from a clone: the package is not on npm, so an `npx` snippet would
// fail (and `npx -y` would run whatever someone publishes under that name).
const SERVER_COMMANDS = [['node', '/path/to/woodpecker-ci-mcp/bin/woodpecker-ci-mcp.js']];

type Entry = Record<string, unknown>;

function expectStdioEntry(where: string, entry: Entry): void {
  expect(
    [entry.command, ...((entry.args as unknown[]) ?? [])],
    `${where}: starts this server`,
  ).toSatisfy((command: unknown[]) =>
    SERVER_COMMANDS.some((known) => JSON.stringify(known) === JSON.stringify(command)),
  );
  expect(Array.isArray(entry.args), `${where}: args is a list`).toBe(true);
  const env = entry.env as Record<string, unknown> | undefined;
  expect(env, `${where}: env`).toBeTypeOf('object');
  for (const [name, value] of Object.entries(env ?? {})) {
    expect(KNOWN_VARIABLES.has(name), `${where}: ${name} is a variable the server reads`).toBe(
      true,
    );
    expect(typeof value, `${where}: ${name} is a string`).toBe('string');
  }
  expect(env?.WOODPECKER_URL, `${where}: sets WOODPECKER_URL`).toBeTypeOf('string');
}

function expectHttpEntry(where: string, entry: Entry): void {
  expect(entry.url, `${where}: url`).toMatch(/^http:\/\/127\.0\.0\.1:3030\/mcp$/);
  const headers = entry.headers as Record<string, unknown> | undefined;
  if (headers)
    expect(headers.Authorization, `${where}: Authorization header`).toMatch(
      /^Bearer (\S+|<your token>)$/,
    );
  else expect(entry.bearer_token_env_var, `${where}: a token source`).toBe('WOODPECKER_TOKEN');
}

function checkJson(snippet: Snippet): string {
  const where = `${snippet.file} "${snippet.heading}"`;
  const parsed = JSON.parse(snippet.text) as {
    servers?: Record<string, Entry>;
    mcpServers?: Record<string, Entry>;
    inputs?: Array<{ id: string; password?: boolean }>;
  };
  if (parsed.servers) {
    // VS Code: `servers`, every entry typed; ${input:id} must name a declared input.
    expect(parsed.mcpServers, `${where}: VS Code reads servers, not mcpServers`).toBeUndefined();
    for (const [name, entry] of Object.entries(parsed.servers)) {
      expect(['stdio', 'http'], `${where} ${name}: type`).toContain(entry.type);
      if (entry.type === 'stdio') expectStdioEntry(`${where} ${name}`, entry);
      else expectHttpEntry(`${where} ${name}`, entry);
    }
    const declared = new Set((parsed.inputs ?? []).map((input) => input.id));
    for (const match of snippet.text.matchAll(/\$\{input:([^}]+)\}/g))
      expect(declared.has(match[1]!), `${where}: input ${match[1]} declared`).toBe(true);
    for (const input of parsed.inputs ?? [])
      expect(input.password, `${where}: the token prompt hides what is typed`).toBe(true);
    return 'vscode';
  }
  expect(parsed.mcpServers, `${where}: mcpServers`).toBeTypeOf('object');
  for (const [name, entry] of Object.entries(parsed.mcpServers!)) {
    if (entry.url !== undefined) expectHttpEntry(`${where} ${name}`, entry);
    else expectStdioEntry(`${where} ${name}`, entry);
  }
  return /claude code/i.test(snippet.heading)
    ? 'claude-code'
    : /cursor/i.test(snippet.heading) || /Cursor/.test(snippet.text)
      ? 'cursor'
      : 'mcpServers';
}

function checkToml(snippet: Snippet): string {
  const where = `${snippet.file} "${snippet.heading}"`;
  const parsed = parseToml(snippet.text) as { mcp_servers?: Record<string, Entry> };
  expect(parsed.mcp_servers, `${where}: Codex reads [mcp_servers.<name>]`).toBeTypeOf('object');
  for (const [name, entry] of Object.entries(parsed.mcp_servers!)) {
    // Codex refuses a token written inline; it must come from an environment variable.
    expect(entry.bearer_token, `${where} ${name}: no inline bearer_token`).toBeUndefined();
    if (entry.url !== undefined) expectHttpEntry(`${where} ${name}`, entry);
    else expectStdioEntry(`${where} ${name}`, entry);
  }
  return 'codex';
}

function checkShell(snippet: Snippet): string | undefined {
  const where = `${snippet.file} "${snippet.heading}"`;
  for (const line of snippet.text
    .split('\n')
    .filter((candidate) => candidate.startsWith('claude mcp add'))) {
    if (line.includes('--transport http')) {
      expect(line, `${where}: URL and Bearer header`).toMatch(
        / woodpecker http:\/\/127\.0\.0\.1:3030\/mcp --header "Authorization: Bearer [^"]+"$/,
      );
    } else {
      // Options before the name, the server's command after `--`.
      expect(line, `${where}: claude mcp add <name> [--env K=V]... -- <command>`).toMatch(
        /^claude mcp add woodpecker( --env WOODPECKER_[A-Z_]+=\S+)+ -- node \/path\/to\/woodpecker-ci-mcp\/bin\/woodpecker-ci-mcp\.js$/,
      );
    }
    return line.includes('--transport http') ? 'claude-code-http' : 'claude-code';
  }
  return undefined;
}

describe('client setup snippets', () => {
  const snippets = [...snippetsOf('docs/clients.md'), ...snippetsOf('README.md')];
  const seen = new Set<string>();

  it.each(
    snippets
      .filter((snippet) => snippet.language === 'json')
      .map((snippet) => [`${snippet.file} "${snippet.heading}"`, snippet] as const),
  )('%s (JSON)', (_, snippet) => {
    seen.add(checkJson(snippet));
  });
  it.each(
    snippets
      .filter((snippet) => snippet.language === 'toml')
      .map((snippet) => [`${snippet.file} "${snippet.heading}"`, snippet] as const),
  )('%s (TOML)', (_, snippet) => {
    seen.add(checkToml(snippet));
  });
  it.each(
    snippets
      .filter((snippet) => snippet.language === 'sh')
      .map((snippet) => [`${snippet.file} "${snippet.heading}"`, snippet] as const),
  )('%s (shell)', (_, snippet) => {
    const client = checkShell(snippet);
    if (client) seen.add(client);
  });

  it('cover Claude Desktop, Claude Code, VS Code, Cursor, Codex and HTTP with a Bearer header', () => {
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        'claude-code',
        'claude-code-http',
        'codex',
        'cursor',
        'mcpServers',
        'vscode',
      ]),
    );
    const headings = snippets.map((snippet) => snippet.heading).join('\n');
    for (const client of [
      'Claude Desktop',
      'Claude Code',
      'VS Code',
      'Cursor',
      'Codex',
      'Over HTTP',
    ])
      expect(headings).toContain(client);
  });
});
