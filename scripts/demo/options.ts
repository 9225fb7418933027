// The demo's command line. Anything it does not know is refused before anything starts.
import { resolve } from 'node:path';

export const USAGE = `Usage: npm run demo -- [options]

Starts a local Woodpecker (server, agent and a stand-in forge on loopback ports) with
sample repositories and pipelines, and prints client configurations pointing at it.
Ctrl-C stops it and removes everything it made.

Options:
  --port N          the port of the HTTP command it prints (default 3030)
  --demo-env PATH   the file the stdio configurations read the address and admin token
                    from (default ~/.cache/woodpecker-ci-mcp/demo.env; rewritten by every
                    demo, never through a link)
  --src DIR         build Woodpecker from the source archives in DIR
                    (woodpecker-<tag>.tar.gz, xormigrate-v*.tar.gz and SHA256SUMS)
  -h, --help        this text

Where Woodpecker comes from, first that works: the cache (~/.cache/woodpecker-ci-mcp);
Woodpecker's release binaries of the pinned version, checked against the release's
checksums (WOODPECKER_RELEASE_URL overrides the download address); its container images
through podman or docker; a build from source (needs Go and gcc; minutes).
`;

export interface DemoOptions {
  port: number;
  /** Absolute; undefined: the default in the cache directory. */
  envFile: string | undefined;
  srcDir: string | undefined;
}

export class UsageError extends Error {}

export function parseDemoOptions(argv: readonly string[]): DemoOptions | 'help' {
  const options: DemoOptions = { port: 3030, envFile: undefined, srcDir: undefined };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg];
    const value = (example: string): string => {
      const given = inline ?? argv[++index];
      if (given === undefined || given === '' || (inline === undefined && given.startsWith('-')))
        throw new UsageError(`${name} needs a value, e.g. ${name} ${example}`);
      return given;
    };
    switch (name) {
      case '-h':
      case '--help':
        return 'help';
      case '--port': {
        const port = Number(value('4000'));
        if (!Number.isInteger(port) || port < 1 || port > 65535)
          throw new UsageError('--port needs a port number from 1 to 65535, e.g. --port 4000');
        options.port = port;
        break;
      }
      case '--demo-env':
        options.envFile = resolve(value('./demo.env'));
        break;
      case '--src':
        options.srcDir = resolve(value('../shared/woodpecker-src'));
        break;
      default:
        throw new UsageError(`unknown option ${arg} (npm run demo -- --help lists the options)`);
    }
  }
  return options;
}
