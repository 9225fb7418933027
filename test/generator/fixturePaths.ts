// Where the generator tests find their inputs.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const goldenDir = fileURLToPath(new URL('./fixtures/golden/', import.meta.url));
export const goldenManifest = join(goldenDir, 'tools.yaml');
export const goldenSpec = join(goldenDir, 'woodpecker-openapi.json');
export const goldenExpected = join(goldenDir, 'expected');
export const realManifest = join(repoRoot, 'tools.yaml');
export const realSpec = join(repoRoot, 'woodpecker-openapi.json');
