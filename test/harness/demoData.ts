// Sample data for `npm run demo`: something for every kind of tool to look at, made through
// the same forge stand-in and Woodpecker API the tests use. Real pipelines run on the
// local agent: one green; a repository whose push passed and whose next push fails with a
// log worth searching (so get_pipeline_failure's since_green has a last success and a
// change to show); one fork pull request blocked until someone approves it; plus a cron
// and a secret.
import {
  adminApi,
  createRepo,
  offlinePipelineYaml,
  pullRequestWebhook,
  pushCommit,
  pushWebhook,
  setRepoFiles,
  stepNamed,
  waitForLogLine,
  waitForPipelineStatus,
  type TestRepo,
} from './fixtures.js';

export interface DemoData {
  readonly green: { readonly repo: TestRepo; readonly number: number };
  readonly failing: { readonly repo: TestRepo; readonly number: number };
  /** The failing repository's push before, which passed. */
  readonly lastGreen: number;
  readonly awaitingApproval: { readonly repo: TestRepo; readonly number: number };
  readonly cronName: string;
  readonly secretName: string;
}

const PASSING_STEPS = [
  {
    name: 'install',
    commands: ['echo resolving 41 packages', 'echo installed 41 packages in 1.1s'],
  },
  { name: 'test', commands: ['echo running 2 test suites', 'echo 2 passed'] },
];

const FAILING_STEPS = [
  {
    name: 'install',
    commands: ['echo resolving 42 packages', 'echo installed 42 packages in 1.2s'],
  },
  {
    name: 'test',
    commands: [
      'echo running 3 test suites',
      'echo PASS api/users.test',
      'echo FAIL db/migrations.test',
      'echo "Error: connect ECONNREFUSED 127.0.0.1:5432 (is the database service running?)"',
      'echo 1 failed, 2 passed',
      'exit 1',
    ],
  },
];

export async function fillDemo(): Promise<DemoData> {
  const api = adminApi();
  const greenRepo = await createRepo({
    name: 'website',
    files: {
      '.woodpecker.yaml': offlinePipelineYaml([
        { name: 'build', commands: ['echo building the site', 'echo 12 pages written'] },
        { name: 'check-links', commands: ['echo 0 broken links'] },
      ]),
    },
  });
  const failingRepo = await createRepo({
    name: 'backend',
    files: { '.woodpecker.yaml': offlinePipelineYaml(PASSING_STEPS) },
  });
  // Passed, then a push that added a database test broke it: what since_green is for.
  const lastGreen = await pushAndWait(
    failingRepo,
    'Add the users API',
    ['api/users.ts'],
    'success',
  );
  const approvalRepo = await createRepo({
    name: 'docs',
    files: {
      '.woodpecker.yaml': offlinePipelineYaml([
        { name: 'render', commands: ['echo rendering docs'] },
      ]),
    },
  });
  await api.patch(`/api/repos/${approvalRepo.repoId}`, { require_approval: 'forks' });

  const green = await api.post<{ number: number }>(`/api/repos/${greenRepo.repoId}/pipelines`, {
    branch: 'main',
  });
  await setRepoFiles(failingRepo, { '.woodpecker.yaml': offlinePipelineYaml(FAILING_STEPS) });
  const failing = {
    number: await pushAndWait(
      failingRepo,
      'Run the migrations against Postgres in tests',
      ['db/migrations.test.ts', '.woodpecker.yaml'],
      undefined,
    ),
  };
  const pull = await pullRequestWebhook(approvalRepo, {
    number: 7,
    fromFork: true,
    title: 'Fix a typo in the install guide',
    headBranch: 'typo-fix',
  });
  const blocked = pull.body as { number?: number; status?: string };
  if (pull.status !== 200 || blocked.status !== 'blocked' || typeof blocked.number !== 'number') {
    throw new Error(
      `the fork pull request did not wait for approval: ${pull.status} ${JSON.stringify(pull.body).slice(0, 200)}`,
    );
  }

  const cronName = 'nightly';
  await api.post(`/api/repos/${greenRepo.repoId}/cron`, {
    name: cronName,
    branch: 'main',
    schedule: '@daily',
  });
  const secretName = 'DEPLOY_TOKEN';
  await api.post(`/api/repos/${greenRepo.repoId}/secrets`, {
    name: secretName,
    value: 'demo-value-not-a-real-secret',
    events: ['push', 'manual'],
  });

  await waitForPipelineStatus(greenRepo.repoId, green.number, ['success']);
  const failed = await waitForPipelineStatus(failingRepo.repoId, failing.number, ['failure']);
  // Woodpecker may store a step's last log lines after its final status: wait until the
  // line a newcomer would search for is there, so the demo never shows an empty tail.
  await waitForLogLine(
    failingRepo.repoId,
    failing.number,
    stepNamed(failed, 'test').id,
    '1 failed, 2 passed',
  );
  return {
    green: { repo: greenRepo, number: green.number },
    failing: { repo: failingRepo, number: failing.number },
    lastGreen,
    awaitingApproval: { repo: approvalRepo, number: blocked.number },
    cronName,
    secretName,
  };
}

/** Pushes a commit to main; returns its pipeline's number, after it reached `status` if given. */
async function pushAndWait(
  repo: TestRepo,
  message: string,
  changedFiles: string[],
  status: 'success' | undefined,
): Promise<number> {
  const sha = await pushCommit(repo, 'main');
  const delivered = await pushWebhook(repo, { branch: 'main', sha, message, changedFiles });
  const number = (delivered.body as { number?: unknown } | undefined)?.number;
  if (delivered.status !== 200 || typeof number !== 'number')
    throw new Error(`the push to ${repo.fullName} started no pipeline: ${delivered.status}`);
  if (status) await waitForPipelineStatus(repo.repoId, number, [status]);
  return number;
}
