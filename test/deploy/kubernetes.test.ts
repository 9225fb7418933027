// deploy/kubernetes.yaml: first what it promises (read from the file), then the file run
// by `podman kube play` with the token and seal key from a Secret, and MCP spoken to it.
//
// It is played twice. First as written, three replicas each in its own pod network, and
// checked from inside each pod (this machine sends test traffic over loopback only, and a
// pod's network is not the host's). Then to talk MCP to it against the test Woodpecker:
// the pod joins the host's network (hostNetwork) on a free port, and so holds one replica,
// since replicas on one network would all want the same port. Both copies change the image
// (the one the suite built) and the Woodpecker URL; podman publishes a named container
// port on every host interface, so the copies drop `ports` and probe the port by number.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { adminApi, createRepo, harnessInfo, uniqueName } from '../harness/fixtures.js';
import { freeLoopbackPort } from '../harness/free-port.js';
import { waitUntil } from '../harness/wait-until.js';
import { callTool2026, loginOf } from '../e2e/rawMcpHttp.js';
import { IMAGE, podman, ROOT, waitForStatus } from './podman.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string; optional?: boolean } };
}
interface ContainerSpec {
  image: string;
  args: string[];
  ports?: { name: string; containerPort: number }[];
  env: EnvVar[];
  livenessProbe: { httpGet: { path: string; port: string | number } };
  readinessProbe: { httpGet: { path: string; port: string | number } };
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: {
    readOnlyRootFilesystem: boolean;
    allowPrivilegeEscalation: boolean;
    capabilities: { drop: string[] };
  };
}
interface Deployment {
  kind: 'Deployment';
  spec: {
    replicas: number;
    template: {
      spec: {
        hostNetwork?: boolean;
        securityContext: { runAsNonRoot: boolean; runAsUser: number };
        containers: ContainerSpec[];
      };
    };
  };
}

const MANIFEST = join(ROOT, 'deploy/kubernetes.yaml');
const SECRET = 'woodpecker-ci-mcp';
const SEAL_KEY = `kubernetes-test-seal-key-${uniqueName('k')}-of-enough-bytes`;

function readManifest(): {
  docs: Record<string, unknown>[];
  deployment: Deployment;
  container: ContainerSpec;
} {
  const docs = parseAllDocuments(readFileSync(MANIFEST, 'utf8')).map(
    (doc) => doc.toJSON() as Record<string, unknown>,
  );
  const deployment = docs.find((doc) => doc.kind === 'Deployment') as unknown as Deployment;
  return { docs, deployment, container: deployment.spec.template.spec.containers[0]! };
}

/** The Secret as podman keeps a kube Secret: a JSON object of base64 values under the Secret's name. */
async function createSecret(dir: string, data: Record<string, string>): Promise<void> {
  // (podman 4.3 stores a Secret given in the played file as YAML it cannot read back.)
  const file = join(dir, 'secret.json');
  writeFileSync(
    file,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
      ),
    ),
    { mode: 0o600 },
  );
  await podman(['secret', 'rm', SECRET]).catch(() => undefined);
  await podman(['secret', 'create', SECRET, file]);
  rmSync(file);
}

/** Writes the manifest with the changes every played copy needs, plus `change`; returns its path. */
function writePlayedCopy(
  dir: string,
  port: number,
  woodpeckerUrl: string,
  change: (deployment: Deployment, container: ContainerSpec) => void,
): string {
  const { docs, deployment, container } = readManifest();
  container.image = IMAGE;
  delete container.ports;
  container.livenessProbe.httpGet.port = port;
  container.readinessProbe.httpGet.port = port;
  for (const entry of container.env)
    if (entry.name === 'WOODPECKER_URL') entry.value = woodpeckerUrl;
  change(deployment, container);
  const path = join(dir, 'kubernetes.yaml');
  writeFileSync(path, docs.map((doc) => stringify(doc)).join('---\n'));
  return path;
}

describe('deploy/kubernetes.yaml', () => {
  it('declares three replicas, the Secret, probes on /healthz, resources and a locked-down security context', () => {
    const { deployment, container } = readManifest();
    expect(deployment.spec.replicas).toBe(3);
    const fromSecret = Object.fromEntries(
      container.env
        .filter((entry) => entry.valueFrom)
        .map((entry) => [entry.name, entry.valueFrom!.secretKeyRef]),
    );
    expect(fromSecret).toEqual({
      WOODPECKER_MCP_SEAL_KEY: { name: SECRET, key: 'seal-key' },
      WOODPECKER_TOKEN: { name: SECRET, key: 'woodpecker-token', optional: true },
    });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.resources.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(container.resources.limits).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    // docs/deploy.md, Sizing: one answer costs about 12 times its size in memory, so the
    // ceiling on one answer must leave room for two at once under the memory limit.
    const ceiling = Number(
      container.env.find((entry) => entry.name === 'WOODPECKER_MCP_MAX_RESPONSE_BYTES')?.value,
    );
    const limit = /^(\d+)Mi$/.exec(container.resources.limits['memory'] ?? '');
    expect(ceiling, 'WOODPECKER_MCP_MAX_RESPONSE_BYTES is set').toBeGreaterThan(0);
    expect(limit, 'the memory limit is written in Mi').not.toBeNull();
    expect(2 * 12 * ceiling).toBeLessThanOrEqual(Number(limit![1]) * 1024 * 1024);
    expect(deployment.spec.template.spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 10001,
    });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  describe('played as written: three replicas, each in its own pod network', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-play-'));
    let played: string;
    const pods = [0, 1, 2].map((index) => `woodpecker-ci-mcp-pod-${index}-woodpecker-ci-mcp`);

    beforeAll(async () => {
      // The pods' own loopback: nothing listens there, and nothing is asked of it.
      played = writePlayedCopy(dir, 3030, 'http://127.0.0.1:9', () => undefined);
      await createSecret(dir, { 'seal-key': SEAL_KEY });
      await podman(['kube', 'play', played]);
    });
    afterAll(async () => {
      await podman(['kube', 'down', played]).catch(() => undefined);
      await podman(['secret', 'rm', SECRET]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs three replicas, each serving /healthz on port 3030 of its pod, each with the one seal key', async () => {
      const probe =
        "fetch('http://127.0.0.1:3030/healthz').then((r) => r.text()).then((t) => process.stdout.write(t), () => process.exit(1))";
      for (const pod of pods) {
        // Asked from inside the pod: its network is its own. The server takes a moment to listen.
        const health = await waitUntil(
          `${pod} to answer /healthz`,
          () => podman(['exec', pod, 'node', '-e', probe]),
          { timeoutMs: 30_000, intervalMs: 500 },
        );
        expect(JSON.parse(health)).toEqual({ status: 'ok' });
        expect(await podman(['exec', pod, 'printenv', 'WOODPECKER_MCP_SEAL_KEY'])).toBe(SEAL_KEY);
      }
    });
  });

  describe('played on the host network, talking MCP', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-play-'));
    let played: string;
    let port: number;
    const containerName = 'woodpecker-ci-mcp-pod-0-woodpecker-ci-mcp';

    beforeAll(async () => {
      port = await freeLoopbackPort();
      played = writePlayedCopy(dir, port, harnessInfo().url, (deployment, container) => {
        deployment.spec.replicas = 1;
        deployment.spec.template.spec.hostNetwork = true;
        container.args = ['--http', '--host', '127.0.0.1', '--port', String(port)];
        for (const entry of container.env)
          if (entry.name === 'WOODPECKER_MCP_ALLOWED_HOSTS') entry.value = `127.0.0.1:${port}`;
      });
      await createSecret(dir, {
        'seal-key': SEAL_KEY,
        'woodpecker-token': harnessInfo().userToken,
      });
      await podman(['kube', 'play', played]);
      await waitForStatus(`http://127.0.0.1:${port}/healthz`, 200);
    });
    afterAll(async () => {
      await podman(['kube', 'down', played]).catch(() => undefined);
      await podman(['secret', 'rm', SECRET]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs as uid 10001 on a read-only root filesystem, within the memory limit, with the seal key from the Secret', async () => {
      const inspected = JSON.parse(await podman(['inspect', containerName])) as [
        { Config: { User: string }; HostConfig: { ReadonlyRootfs: boolean; Memory: number } },
      ];
      expect(inspected[0].HostConfig.ReadonlyRootfs).toBe(true);
      expect(inspected[0].HostConfig.Memory).toBe(384 * 1024 * 1024);
      expect(await podman(['exec', containerName, 'id', '-u'])).toBe('10001');
      expect(await podman(['exec', containerName, 'printenv', 'WOODPECKER_MCP_SEAL_KEY'])).toBe(
        SEAL_KEY,
      );
      await expect(podman(['exec', containerName, 'touch', '/tmp/written'])).rejects.toThrow(
        /Read-only file system/,
      );
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ok', woodpecker: 'reachable' });
    });

    it('speaks MCP: acts as the Secret token without a bearer, as a bearer token when sent one', async () => {
      const url = `http://127.0.0.1:${port}/mcp`;
      expect(loginOf(await callTool2026(url, 'get_current_user'))).toBe(harnessInfo().userLogin);
      expect(
        loginOf(
          await callTool2026(url, 'get_current_user', {
            authorization: `Bearer ${harnessInfo().adminToken}`,
          }),
        ),
      ).toBe(harnessInfo().adminLogin);
    });

    it('asks a person before a deletion, through a 2025 session', async () => {
      const repo = await createRepo({ owner: 'user' });
      const name = uniqueName('KUBE_SECRET').toUpperCase().replace(/-/g, '_');
      await adminApi().post(`/api/repos/${repo.repoId}/secrets`, {
        name,
        value: 'in-a-pod',
        events: ['push'],
      });
      const dialogs: string[] = [];
      const client = new Client(
        { name: 'deploy-kube-test', version: '1' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        dialogs.push(String((request.params as { message?: unknown }).message));
        return { action: 'accept', content: { approve: true } };
      });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
      );
      try {
        const result = await client.callTool({
          name: 'delete_secret',
          arguments: { scope: 'repository', repo_id: repo.repoId, name },
        });
        expect(result.isError).toBeFalsy();
        expect(dialogs).toHaveLength(1);
        expect(dialogs[0]).toContain('delete secret');
        expect(
          (await adminApi().request('GET', `/api/repos/${repo.repoId}/secrets/${name}`)).status,
        ).toBe(404);
      } finally {
        await client.close();
      }
    });
  });
});
