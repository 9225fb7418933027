// `npm test`: everything CI checks, in one command, ending with one `N passed, N failed` line.
//
//   1. generate:check, typecheck (with noUnusedLocals/Parameters), prettier --check and knip (unused files,
//      exports, dependencies): each counts as one test, and the run stops if one fails
//   2. vitest: unit and generator, then integration and e2e against the pinned Woodpecker
//   3. the MCP conformance suite against the built server over --http (scripts/conformance.sh,
//      under Node 22 from the npm package node@22; one result per scenario)
//   4. the integration and e2e suites again against each other build in
//      test/harness/woodpecker-versions (the oldest supported release and the next one),
//      without the files of test/harness/release-independent.ts
//   5. the deploy suite (vitest.deploy.config.ts): the Containerfile's image, replicas
//      behind HAProxy, the Kubernetes manifest under podman kube play. Without podman and
//      its companions it cannot run: the run says which suite and why, and in CI (CI=true)
//      that counts as a failure.
//
//   npm test                       all of it
//   npm test -- --pinned-only      steps 1 to 3 (what most changes need)
//   npm test -- --release main-a4cb541   steps 1 and 4 for that build only
//   npm test -- --deploy-only      steps 1 and 5
//
// Each vitest run prints its own summary line (test/summary-reporter.ts); this script adds
// them up, so a failure in any release fails the whole run. Every stage's line says how
// long it took (wall time), so a slow run says where its time went.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RELEASE_INDEPENDENT } from '../test/harness/release-independent.js';
import { knownWoodpeckerBuilds, pinnedWoodpeckerTag } from '../test/harness/woodpecker-binaries.js';

const { values } = parseArgs({
  options: {
    'pinned-only': { type: 'boolean' },
    'deploy-only': { type: 'boolean' },
    release: { type: 'string', multiple: true },
  },
});

interface Tally {
  passed: number;
  failed: number;
}
const total: Tally = { passed: 0, failed: 0 };
const lines: string[] = [];
const started = performance.now();

/** Wall time since `from` (performance.now()), as people read it: 8.2 s, 3 min 05 s. */
function elapsed(from: number): string {
  const seconds = (performance.now() - from) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

function finish(): never {
  console.log('');
  for (const line of lines) console.log(line);
  console.log(`all stages: ${elapsed(started)}`);
  console.log(`\n${total.passed} passed, ${total.failed} failed`);
  process.exit(total.failed > 0 ? 1 : 0);
}

/** Runs a command with its output shown; returns the status and the last summary line it printed. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number; summary?: Tally } {
  const result = spawnSync(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  const matches = [...(result.stdout ?? '').matchAll(/^(\d+) passed, (\d+) failed$/gm)];
  const last = matches.at(-1);
  return {
    status: result.status ?? 1,
    ...(last ? { summary: { passed: Number(last[1]), failed: Number(last[2]) } } : {}),
  };
}

function check(label: string, script: string): void {
  const start = performance.now();
  const { status } = run('npm', ['run', '--silent', script]);
  if (status === 0) {
    total.passed++;
    lines.push(`${label}: ok (${elapsed(start)})`);
    return;
  }
  total.failed++;
  lines.push(`${label}: FAILED (npm run ${script}) (${elapsed(start)})`);
  finish();
}

function vitest(label: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const start = performance.now();
  const { status, summary } = run('npx', ['vitest', 'run', ...args], env);
  // A run that printed no summary (it crashed) counts as one failure.
  const tally = summary ?? { passed: 0, failed: 1 };
  if (status !== 0 && tally.failed === 0) tally.failed = 1;
  total.passed += tally.passed;
  total.failed += tally.failed;
  lines.push(`${label}: ${tally.passed} passed, ${tally.failed} failed (${elapsed(start)})`);
}

/** A script that ends with its own `N passed, N failed` line; a run without one counts as one failure. */
function counted(label: string, command: string, args: string[]): void {
  const start = performance.now();
  const { status, summary } = run(command, args);
  const tally = summary ?? { passed: 0, failed: 1 };
  if (status !== 0 && tally.failed === 0) tally.failed = 1;
  total.passed += tally.passed;
  total.failed += tally.failed;
  lines.push(`${label}: ${tally.passed} passed, ${tally.failed} failed (${elapsed(start)})`);
}

check('generate:check', 'generate:check');
check('typecheck', 'typecheck');
check('formatting (prettier, .prettierrc.json)', 'format:check');
check('unused files, exports and dependencies (knip)', 'lint:unused');

/** Commands the deploy suite runs (Debian packages of the same names; .ci/run installs them). */
const DEPLOY_COMMANDS = ['podman', 'runc', 'catatonit', 'debootstrap', 'haproxy'];

function onPath(command: string): boolean {
  const directories = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`.split(':');
  return directories.some((directory) => directory !== '' && existsSync(`${directory}/${command}`));
}

function deploySuite(): void {
  const label = 'deploy suite (container image, HAProxy replicas, Kubernetes manifest)';
  const missing = DEPLOY_COMMANDS.filter((command) => !onPath(command));
  if (missing.length > 0) {
    const why = `${label}: NOT RUN, ${missing.join(', ')} not installed (bash .ci/run installs them: apt-get install ${missing.join(' ')})`;
    console.log(`\n${why}`);
    // CI must run it; on a developer's machine the line above is the whole verdict.
    if (process.env.CI === 'true') {
      total.failed++;
      lines.push(`${why}: counted as failed (CI=true)`);
    } else {
      lines.push(why);
    }
    return;
  }
  vitest(label, ['--config', 'vitest.deploy.config.ts']);
}

const pinned = pinnedWoodpeckerTag();
const deployOnly = values['deploy-only'] === true;
const releases = deployOnly
  ? []
  : (values.release ??
    (values['pinned-only']
      ? []
      : knownWoodpeckerBuilds()
          .map((build) => build.tag)
          .filter((tag) => tag !== pinned)));
if (values.release === undefined && !deployOnly) {
  // Two runs, so that each says how long it took: unit and generator need no Woodpecker.
  vitest('unit + generator', ['--project', 'unit']);
  vitest(`integration + e2e, Woodpecker ${pinned} (pinned)`, ['--project', 'integration']);
  counted('MCP conformance suite, --http (one per scenario)', 'bash', ['scripts/conformance.sh']);
}
for (const tag of releases) {
  // The integration project again on another build, without the files that ran above already.
  vitest(
    `integration + e2e, Woodpecker ${tag}`,
    ['--project', 'integration', ...RELEASE_INDEPENDENT.flatMap((file) => ['--exclude', file])],
    { WOODPECKER_TEST_VERSION: tag },
  );
}
if (deployOnly || (values.release === undefined && values['pinned-only'] !== true)) deploySuite();
finish();
