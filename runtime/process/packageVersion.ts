// The package's own version, read from its package.json. A module of its own so that
// `--version` and `--help` answer without loading anything else.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  // runtime/process/ under tsx, dist/runtime/process/ when built: look upwards for our package.json.
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (parsed.name === 'woodpecker-ci-mcp' && parsed.version) return parsed.version;
    }
    directory = dirname(directory);
  }
  return '0.0.0';
}
