// The command line and the checks that stop a server which would start useless: what a
// careless newcomer types (--port without --http, an allowed tool that is also denied)
// must stop with a message that says what to write instead.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tools as allTools } from '../../../generated/index.js';
import { helpText, parseCommandLine } from '../../../runtime/process/cli.js';
import { buildRuntime } from '../../../runtime/process/buildRuntime.js';
import { loadConfig } from '../../../runtime/process/config.js';
import {
  oldestWoodpeckerRelease,
  pinnedWoodpeckerRelease,
} from '../../../generated/woodpeckerReleases.js';
import { VARIABLES } from '../../../runtime/process/variables.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('parseCommandLine', () => {
  it('serves stdio by default and HTTP on 127.0.0.1:3030 with --http', () => {
    expect(parseCommandLine([])).toEqual({
      command: 'serve',
      http: false,
      port: 3030,
      host: '127.0.0.1',
    });
    expect(parseCommandLine(['--http', '--port', '4000'])).toEqual({
      command: 'serve',
      http: true,
      port: 4000,
      host: '127.0.0.1',
    });
  });
  it('knows --help, --version and doctor', () => {
    expect(parseCommandLine(['--help']).command).toBe('help');
    expect(parseCommandLine(['--version']).command).toBe('version');
    expect(parseCommandLine(['doctor']).command).toBe('doctor');
  });
  it.each([
    [['--port', '3030'], /--port applies only to the HTTP transport; add --http/],
    [['--host', '0.0.0.0'], /--host applies only to the HTTP transport; add --http/],
    [['--http', '--port'], /--port needs a port number from 0 to 65535/],
    [['--http', '--port', 'abc'], /--port needs a port number/],
    [['--verbose'], /Unknown argument "--verbose"\. Usage: woodpecker-ci-mcp/],
    [['doctor', '--fix'], /doctor takes no arguments/],
  ])('%j stops with what to write instead', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
  it('does not repeat an argument that is not shaped like an option (a pasted token)', () => {
    expect(() => parseCommandLine(['wp_SECRET123abcDEF'])).toThrow(
      /^Unknown argument that is not an option\./,
    );
  });
});

describe('--help', () => {
  it('lists the commands and every variable', () => {
    const text = helpText('1.2.3');
    for (const command of ['--http', 'doctor', '--version', '--help'])
      expect(text).toContain(command);
    for (const variable of VARIABLES) expect(text).toContain(variable.name);
  });
  it('names the same variables as config.ts reads and the README documents', () => {
    const readByConfig = new Set(
      [
        ...read('runtime/process/config.ts').matchAll(/\b((?:WOODPECKER|ELICITATION)[A-Z_]*)\b/g),
      ].map((match) => match[1]),
    );
    readByConfig.delete('WOODPECKER_'); // prose, not a variable
    const documented = new Set(
      [...read('README.md').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]),
    );
    const listed = VARIABLES.map((variable) => variable.name).sort();
    expect(listed).toEqual([...readByConfig].sort());
    expect(listed).toEqual([...documented].sort());
  });
});

describe('a selection that contradicts itself or leaves nothing stops the server', () => {
  const start = (env: Record<string, string>) => () =>
    buildRuntime(loadConfig({ WOODPECKER_URL: 'http://127.0.0.1:9', ...env }));
  it('READ_ONLY=true with an allowed write tool', () => {
    expect(
      start({ WOODPECKER_READ_ONLY: 'true', WOODPECKER_ALLOW_TOOLS: 'delete_secret' }),
    ).toThrow(
      'WOODPECKER_ALLOW_TOOLS names delete_secret, which can change things, and WOODPECKER_READ_ONLY=true removes every such tool. Remove delete_secret from the allow list, or unset WOODPECKER_READ_ONLY.',
    );
  });
  it('the same name allowed and denied', () => {
    expect(
      start({
        WOODPECKER_ALLOW_TOOLS: 'list_pipelines,delete_secret',
        WOODPECKER_DENY_TOOLS: 'delete_*',
      }),
    ).toThrow(
      'delete_secret is in both WOODPECKER_ALLOW_TOOLS and WOODPECKER_DENY_TOOLS, and deny wins, so it would not be served. Remove it from one of the two.',
    );
  });
  it('a selection with no tool left', () => {
    expect(start({ WOODPECKER_READ_ONLY: 'true', WOODPECKER_ALLOW_TOOLS: 'delete_*' })).toThrow(
      `The tool selection leaves no tools to serve (WOODPECKER_READ_ONLY=true with WOODPECKER_ALLOW_TOOLS removes all ${allTools.length}).`,
    );
  });
  it('an ordinary narrowing still starts', () => {
    expect(
      start({ WOODPECKER_ALLOW_TOOLS: 'list_*', WOODPECKER_DENY_TOOLS: 'list_users' })().tools
        .length,
    ).toBeGreaterThan(5);
  });
});

it('the releases the doctor names are the pinned spec and the harness table', () => {
  const spec = JSON.parse(read('woodpecker-openapi.json')) as {
    info: { 'x-woodpecker-version': string };
  };
  expect(pinnedWoodpeckerRelease).toBe(spec.info['x-woodpecker-version']);
  // test/harness/woodpecker-versions: "tag  version  role: …", one build a line.
  const builds = read('test/harness/woodpecker-versions')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/));
  const versionOf = (role: string) => builds.find((row) => row[2] === `${role}:`)?.[1];
  expect(versionOf('pinned')).toBe(pinnedWoodpeckerRelease);
  expect(versionOf('oldest')).toBe(oldestWoodpeckerRelease);
});
