// `npm test`: everything CI checks, in one command, ending with one `N passed, N failed` line.
//
//   1. generate:check, typecheck (with noUnusedLocals/Parameters), prettier --check and knip (unused files,
//      exports, dependencies): each counts as one test, and the run stops if one fails
//   2. vitest: unit and generator
//   3. integration and e2e against the pinned Woodpecker (in two runs: the files of
//      test/harness/release-independent.ts, and the rest); the MCP conformance suite against
//      the built server over --http (scripts/conformance.sh, under Node 22 from the npm
//      package node@22; one result per scenario); and the integration and e2e files again,
//      without the release-independent ones, against each other build in
//      test/harness/woodpecker-versions (the oldest supported release and the next one).
//      These runs mostly wait on Woodpecker, its agent and child processes, so two of them
//      run at once (TEST_LANES=1 runs them one after another); each has its own Woodpecker
//      stack, and each run's output is printed whole when it ends.
//   4. the deploy suite (vitest.deploy.config.ts): the Containerfile's image, replicas
//      behind HAProxy, the Kubernetes manifest under podman kube play. Without podman and
//      its companions it cannot run: the run says which suite and why, and in CI (CI=true)
//      that counts as a failure.
//
//   npm test                       all of it
//   npm test -- --pinned-only      steps 1 to 3 without the other builds (what most changes need)
//   npm test -- --release main-a4cb541   step 1, then that build's run of step 3 only: its
//                                  integration and e2e files without the release-independent
//                                  ones (no unit tests, no conformance suite)
//   npm test -- --deploy-only      steps 1 and 4
//
// Each vitest run prints its own summary line (test/summary-reporter.ts); this script adds
// them up, so a failure in any release fails the whole run. Every stage's line says how
// long it took (wall time), so a slow run says where its time went.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  RELEASE_INDEPENDENT,
  releaseIndependentFiles,
} from '../test/harness/release-independent.js';
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

/** Adds a run's tally to the total; a run that printed no summary (it crashed) counts as one failure. */
function tallied(label: string, from: number, status: number, summary?: Tally): void {
  const tally = summary ?? { passed: 0, failed: 1 };
  if (status !== 0 && tally.failed === 0) tally.failed = 1;
  total.passed += tally.passed;
  total.failed += tally.failed;
  lines.push(`${label}: ${tally.passed} passed, ${tally.failed} failed (${elapsed(from)})`);
}

function vitest(label: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const start = performance.now();
  const { status, summary } = run('npx', ['vitest', 'run', ...args], env);
  tallied(label, start, status, summary);
}

/** One run of stage 3: a command that ends with its own `N passed, N failed` line. */
interface Job {
  label: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** Runs a job with its output (stdout and stderr) held back and printed whole when it ends. */
function runJob(job: Job): Promise<{ status: number; summary?: Tally; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(job.command, job.args, {
      env: { ...process.env, ...job.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A command that cannot start (not installed) is that job's failure, not the whole run's end.
    child.on('error', (error) =>
      resolve({ status: 1, output: `${job.command}: ${error.message}\n` }),
    );
    child.on('close', (code, signal) => {
      const output = Buffer.concat(chunks).toString('utf8');
      const last = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
      resolve({
        status: code ?? (signal ? 1 : 0),
        output,
        ...(last ? { summary: { passed: Number(last[1]), failed: Number(last[2]) } } : {}),
      });
    });
  });
}

/**
 * Runs the groups, `lanes` at a time, each lane taking the next group in order when its last
 * ends (so list the longest first) and running a group's jobs one after another; the summary
 * lines keep the jobs' order, not the finishing order.
 */
async function runLanes(groups: Job[][], lanes: number): Promise<void> {
  const results = groups.map((group) => new Array<string>(group.length));
  let next = 0;
  const lane = async () => {
    while (next < groups.length) {
      const index = next++;
      for (const [position, job] of groups[index]!.entries()) {
        const start = performance.now();
        console.log(`started: ${job.label}`);
        const { status, summary, output } = await runJob(job);
        process.stdout.write(`\n===== ${job.label} =====\n${output}`);
        const before = lines.length;
        tallied(job.label, start, status, summary);
        results[index]![position] = lines.splice(before, 1)[0]!;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  lines.push(...results.flat());
}

// How many Woodpecker runs go at once, checked before anything runs: a typo should not cost
// the two minutes of checks and unit tests before it is noticed.
const lanesSetting = process.env.TEST_LANES ?? '2';
if (values['deploy-only'] !== true && !/^[1-9][0-9]?$/.test(lanesSetting)) {
  total.failed++;
  lines.push(
    `TEST_LANES: FAILED, it must be a whole number from 1 to 99 (got ${JSON.stringify(lanesSetting)}); 2 is the default`,
  );
  finish();
}
const lanes = Number(lanesSetting);

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
const excludeIndependent = RELEASE_INDEPENDENT.flatMap((file) => ['--exclude', file]);
const vitestJob = (label: string, args: string[], env?: NodeJS.ProcessEnv): Job => ({
  label,
  command: 'npx',
  args: ['vitest', 'run', '--project', 'integration', ...args],
  ...(env ? { env } : {}),
});
const groups: Job[][] = [];
if (values.release === undefined && !deployOnly) {
  // Unit and generator need no Woodpecker, and use the cores themselves: alone, first.
  vitest('unit + generator', ['--project', 'unit']);
  const independent = releaseIndependentFiles(new URL('../', import.meta.url));
  groups.push(
    // One group, one after the other: the tarball and demo tests and the conformance suite
    // each build dist/, which a run beside them would find half written.
    [
      vitestJob(
        `integration + e2e, Woodpecker ${pinned} (pinned), release-independent files`,
        independent,
      ),
      {
        label: 'MCP conformance suite, --http (one per scenario)',
        command: 'bash',
        args: ['scripts/conformance.sh'],
      },
    ],
    [vitestJob(`integration + e2e, Woodpecker ${pinned} (pinned), the rest`, excludeIndependent)],
  );
}
// The integration project again on another build, without the files that ran above already.
for (const tag of releases)
  groups.push([
    vitestJob(`integration + e2e, Woodpecker ${tag}`, excludeIndependent, {
      WOODPECKER_TEST_VERSION: tag,
    }),
  ]);
await runLanes(groups, lanes);
if (deployOnly || (values.release === undefined && values['pinned-only'] !== true)) deploySuite();
finish();
