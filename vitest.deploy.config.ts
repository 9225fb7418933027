import { defineConfig } from 'vitest/config';

// The deploy suite (test/deploy): the Containerfile's image, replicas behind HAProxy, the
// Kubernetes manifest under podman. It needs podman, buildah, runc, debootstrap, catatonit
// and haproxy (.ci/run installs them), so it runs as its own step of `npm test`
// (scripts/test.ts), which says plainly when it could not run.
export default defineConfig({
  test: {
    name: 'deploy',
    include: ['test/deploy/**/*.test.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    globalSetup: ['test/harness/global-setup.ts', 'test/deploy/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
