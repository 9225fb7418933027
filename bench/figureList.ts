// The bench's figures and which of them a run measures (`--only`, `--check`, `--quick`),
// apart from bench/run.ts so that a test can read them without running the bench.

export const FIGURES = [
  'micro',
  'per-call',
  'cold-start',
  'logs',
  'throughput',
  'guarded',
  'tokens',
  'answers',
  'go-sdk',
  'first-run',
] as const;
export type Figure = (typeof FIGURES)[number];

/**
 * What `--check` runs: the figures with goals that need no long log pipeline. The first
 * run (issue 35's 60 s) is one: a change to the demo, the harness or the dependencies is
 * checked against it.
 */
const CHECKED: readonly Figure[] = ['cold-start', 'tokens', 'first-run'];

export function figuresToRun(argv: readonly string[]): { only: Set<Figure>; quick: boolean } {
  const onlyIndex = argv.indexOf('--only');
  const only =
    onlyIndex !== -1
      ? (argv[onlyIndex + 1] ?? '').split(',')
      : argv.includes('--check')
        ? [...CHECKED]
        : [...FIGURES];
  for (const name of only)
    if (!FIGURES.includes(name as Figure))
      throw new Error(`unknown figure "${name}"; the figures are ${FIGURES.join(', ')}`);
  return { only: new Set(only as Figure[]), quick: argv.includes('--quick') };
}
