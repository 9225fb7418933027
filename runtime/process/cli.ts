// The command line: which command runs (serve, doctor) and the transport options. Every
// mistake is a ConfigError that says what to write instead; an option that would be
// ignored (--port without --http) is a mistake too, or the server listens where nobody looks.
import { ConfigError } from './config.js';
import { VARIABLES } from './variables.js';

export interface ServeCommand {
  readonly command: 'serve';
  readonly http: boolean;
  readonly port: number;
  readonly host: string;
}

export type CliCommand =
  | ServeCommand
  | { readonly command: 'doctor' }
  | { readonly command: 'help' }
  | { readonly command: 'version' };

const USAGE =
  'Usage: woodpecker-ci-mcp [--http [--port N] [--host H]] | doctor | --help | --version';

export function parseCommandLine(argv: readonly string[]): CliCommand {
  if (argv.includes('--help') || argv.includes('-h')) return { command: 'help' };
  if (argv.includes('--version') || argv.includes('-v')) return { command: 'version' };
  if (argv[0] === 'doctor') {
    if (argv.length > 1)
      throw new ConfigError(
        `doctor takes no arguments (got ${describeArg(argv[1])}); it reads the same environment as the server. ${USAGE}`,
      );
    return { command: 'doctor' };
  }
  let http = false;
  let port: number | undefined;
  let host: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--http') http = true;
    else if (arg === '--port') port = parsePort(argv[++index]);
    else if (arg === '--host') host = argv[++index] ?? '';
    else throw new ConfigError(`Unknown argument ${describeArg(arg)}. ${USAGE}`);
  }
  if (!http && (port !== undefined || host !== undefined)) {
    throw new ConfigError(
      `${port !== undefined ? '--port' : '--host'} applies only to the HTTP transport; add --http (woodpecker-ci-mcp --http --port 3030), or leave it out to serve stdio.`,
    );
  }
  if (host === '') throw new ConfigError('--host needs an address, for example --host 127.0.0.1');
  return { command: 'serve', http, port: port ?? 3030, host: host ?? '127.0.0.1' };
}

function parsePort(raw: string | undefined): number {
  const port = Number(raw);
  if (raw === undefined || raw === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('--port needs a port number from 0 to 65535, for example --port 3030.');
  }
  return port;
}

// An argument is repeated only when it looks like an option or a word; anything else (a
// token pasted onto the command line) is not echoed to a log.
function describeArg(arg: string | undefined): string {
  return arg !== undefined && /^-{0,2}[a-z][a-z-]{0,30}$/.test(arg)
    ? `"${arg}"`
    : 'that is not an option';
}

export function helpText(version: string): string {
  const width = Math.max(...VARIABLES.map((variable) => variable.name.length));
  return [
    `woodpecker-ci-mcp ${version}: an MCP server for Woodpecker CI`,
    '',
    'Commands:',
    '  woodpecker-ci-mcp                       serve MCP over stdio (what MCP clients start)',
    '  woodpecker-ci-mcp --http [--port 3030] [--host 127.0.0.1]',
    '                                          serve Streamable HTTP at http://HOST:PORT/mcp',
    '  woodpecker-ci-mcp doctor                check the configuration against Woodpecker and say how to fix it',
    '  woodpecker-ci-mcp --version             print the version',
    '  woodpecker-ci-mcp --help                this text',
    '',
    'Configuration comes from these environment variables:',
    ...VARIABLES.map((variable) => `  ${variable.name.padEnd(width)}  ${variable.meaning}`),
    '',
    'Booleans are exactly true or false. Docs: README.md and docs/configuration.md in the package.',
    '',
  ].join('\n');
}
