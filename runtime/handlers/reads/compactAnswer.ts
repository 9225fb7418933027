// Insight answers leave out what says nothing (no value, nothing listed, nothing more),
// so a reader and a model pay only for facts. The declarative views of the output step
// do the same for the REST tools; these answers are built here and arrive already lean.
type Raw = Record<string, unknown>;

/** Drops what says nothing: undefined, empty strings, arrays and objects, zero counts named more_*. */
export function compact(value: Raw): Raw {
  const out: Raw = {};
  for (const [key, entry] of Object.entries(value)) {
    const kept = compactValue(entry);
    if (kept === undefined || kept === '' || kept === null) continue;
    if (Array.isArray(kept) && kept.length === 0) continue;
    if (kept && typeof kept === 'object' && !Array.isArray(kept) && Object.keys(kept).length === 0)
      continue;
    if (key.startsWith('more_') && kept === 0) continue;
    out[key] = kept;
  }
  return out;
}

function compactValue(entry: unknown): unknown {
  if (Array.isArray(entry)) return entry.map(compactValue);
  if (entry && typeof entry === 'object') return compact(entry as Raw);
  return entry;
}
