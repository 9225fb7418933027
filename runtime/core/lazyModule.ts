// Loads a CommonJS dependency the first time it is needed instead of at startup. undici,
// Ajv and RE2 together were a third of a cold start before the first tools/list, which
// needs none of them; the first call that does pays for its own (once per process).
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
