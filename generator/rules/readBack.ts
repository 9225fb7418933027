// Stage 1b (compiled in stage 3): The read tools that show what a write did: named in the error of a write whose outcome
// is unknown (the connection broke after the request went out), so the model checks
// before it retries. A tool's `read_back:` in tools.yaml names them; without it they
// follow the catalogue's naming (delete_secret → get_secret, list_secrets; set_log_level
// → get_log_level), kept only where such a tool exists. Decided here, at build time and
// visible in each generated definition, so the runtime never guesses from a name.
import type { ManifestTool } from '../manifest/manifestTypes.js';

const CHANGING_VERBS =
  /^(create|update|delete|activate|repair|move|chown|approve|decline|cancel|restart|trigger|run|set)_/;

export function readBackOf(tool: ManifestTool, toolNames: ReadonlySet<string>): string[] {
  if (tool.read_back !== undefined) return [...tool.read_back];
  if (tool.annotations.readOnlyHint) return [];
  const noun = tool.name.replace(CHANGING_VERBS, '');
  if (noun === tool.name) return [];
  const plural = noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`;
  return [`get_${noun}`, `list_${plural}`].filter((name) => toolNames.has(name));
}

/**
 * Rules on a declared `reads_first:`: a handler's, naming read-only tools of this manifest
 * that have a Woodpecker call of their own (the request the handler sends first).
 */
export function checkReadsFirst(
  tool: ManifestTool,
  byName: ReadonlyMap<string, ManifestTool>,
  refuse: (segments: readonly (string | number)[], message: string) => void,
): void {
  if (tool.reads_first === undefined) return;
  if (tool.handler === undefined)
    refuse(['reads_first'], 'is for a tool with a handler; a plain call sends its calls alone');
  tool.reads_first.forEach((name, at) => {
    const named = byName.get(name);
    if (!named) refuse(['reads_first', at], `names ${name}, which is not a tool in this manifest`);
    else if (!named.annotations.readOnlyHint || (named.calls ?? []).length !== 1)
      refuse(['reads_first', at], `names ${name}; name a read-only tool with one call`);
  });
}

/** Rules on a declared `read_back:`: a write's, naming read-only tools of this manifest. */
export function checkReadBack(
  tool: ManifestTool,
  byName: ReadonlyMap<string, ManifestTool>,
  refuse: (segments: readonly (string | number)[], message: string) => void,
): void {
  if (tool.read_back === undefined) return;
  if (tool.annotations.readOnlyHint)
    refuse(
      ['read_back'],
      'is for tools that change something; a read-only tool has nothing to check',
    );
  tool.read_back.forEach((name, at) => {
    const named = byName.get(name);
    if (!named) refuse(['read_back', at], `names ${name}, which is not a tool in this manifest`);
    else if (!named.annotations.readOnlyHint)
      refuse(['read_back', at], `names ${name}, which is not read-only; name a get_ or list_ tool`);
  });
}
