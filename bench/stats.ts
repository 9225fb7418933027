// Small statistics for the bench: medians and percentiles of samples in milliseconds, and
// interleaved runs so that a burst of load from a neighbour hits subject and baseline alike.
import { performance } from 'node:perf_hooks';

export function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 0.5);

export interface Timed {
  readonly subject: number[];
  readonly baseline: number[];
}

/** Runs subject and baseline alternately `rounds` times and returns every sample. */
export async function interleave(
  rounds: number,
  subject: () => unknown,
  baseline: () => unknown,
): Promise<Timed> {
  const timed: Timed = { subject: [], baseline: [] };
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    const order =
      round % 2 === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
    for (const which of order) {
      const started = performance.now();
      await (which === 'subject' ? subject() : baseline());
      timed[which].push(performance.now() - started);
    }
  }
  return timed;
}

export const ms = (value: number): string =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
