// The image as users build and run it (the Containerfile's own CMD): a non-root user,
// --http on every interface of the container, Host and Origin names from the environment,
// health apart from Woodpecker's, and a clean stop on SIGTERM. Reached through a published
// port, so the server really listens beyond the container's loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../harness/free-port.js';
import { callTool2025, initialize2025, jsonRpcOf, rawRequest } from '../e2e/rawMcpHttp.js';
import { IMAGE, podman, runContainer, waitForStatus, type Container } from './podman.js';

const TOKEN = 'image-test-token-that-must-never-be-printed';
const ORIGIN = 'https://ci-dashboard.example';

describe('the container image', () => {
  let container: Container;
  let base: string;

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    base = `http://127.0.0.1:${port}`;
    container = await runContainer({
      podmanArgs: ['-p', `127.0.0.1:${port}:3030`],
      env: {
        // Nothing listens there from inside the container: Woodpecker is down for this server.
        WOODPECKER_URL: 'http://127.0.0.1:9',
        WOODPECKER_TOKEN: TOKEN,
        WOODPECKER_MCP_ALLOWED_HOSTS: `127.0.0.1:${port}`,
        WOODPECKER_MCP_ALLOWED_ORIGINS: ORIGIN,
      },
    });
    await waitForStatus(`${base}/healthz`, 200);
  });
  afterAll(async () => {
    await container?.remove();
  });

  it('runs as a numeric non-root user and its root filesystem is not writable to it', async () => {
    expect(await podman(['inspect', '-f', '{{.Config.User}}', IMAGE])).toBe('10001:10001');
    expect(await podman(['exec', container.name, 'id', '-u'])).toBe('10001');
    await expect(podman(['exec', container.name, 'touch', '/app/dist/written'])).rejects.toThrow(
      /Permission denied/,
    );
  });

  it('ships its entry point, dist/ and production dependencies only', async () => {
    const ls = (path: string) =>
      podman(['exec', container.name, 'ls', '-A', path]).then((out) => out.split('\n'));
    expect(await ls('/app')).toEqual([
      'bin',
      'dist',
      'node_modules',
      'package.json',
      'sbom.cdx.json',
      'specs',
    ]);
    // specs/ holds the pipeline schemas lint_pipeline_config judges by, nothing else.
    expect(await ls('/app/specs')).toEqual(['pipeline-schema']);
    // bin/ holds the one stable entry point (package.json "bin"), nothing else.
    expect(await ls('/app/bin')).toEqual(['woodpecker-ci-mcp.js']);
    const modules = await ls('/app/node_modules');
    expect(modules).toEqual(expect.arrayContaining(['@modelcontextprotocol', 'undici', 'ajv']));
    for (const devOnly of ['typescript', 'vitest', 'tsx', 'prettier'])
      expect(modules).not.toContain(devOnly);
  });

  it('carries the CycloneDX SBOM of exactly the packages it ships', async () => {
    const bom = JSON.parse(await podman(['exec', container.name, 'cat', '/app/sbom.cdx.json'])) as {
      bomFormat: string;
      metadata: { component: { name: string } };
      components: { name: string }[];
    };
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.metadata.component.name).toBe('woodpecker-ci-mcp');
    const shipped = (
      await podman([
        'exec',
        container.name,
        'node',
        '-e',
        "const fs=require('fs');const p='/app/node_modules';console.log(fs.readdirSync(p).flatMap(n=>n.startsWith('@')?fs.readdirSync(p+'/'+n).map(m=>n+'/'+m):[n]).filter(n=>!n.startsWith('.')).join('\\n'))",
      ])
    ).split('\n');
    expect(bom.components.map((component) => component.name).sort()).toEqual(shipped.sort());
  });

  it('reports itself up while Woodpecker is down, and Woodpecker separately', async () => {
    const live = await fetch(`${base}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'ok', woodpecker: 'unreachable' });
  });

  it('serves MCP to the Host and Origin named in its environment, and refuses others', async () => {
    const url = `${base}/mcp`;
    const served = await initialize2025(url, { origin: ORIGIN });
    expect(served.status).toBe(200);
    expect(jsonRpcOf(served).result).toMatchObject({ serverInfo: { name: 'woodpecker-ci-mcp' } });
    const rebound = await initialize2025(url, { host: `attacker.example:${new URL(base).port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain('WOODPECKER_MCP_ALLOWED_HOSTS');
    const page = await initialize2025(url, { origin: 'https://attacker.example' });
    expect(page.status).toBe(403);
    expect(page.text).toContain('WOODPECKER_MCP_ALLOWED_ORIGINS');
    expect((await rawRequest(`${base}/elsewhere`)).status).toBe(404);
  });

  it('checks a pipeline config with the schemas it ships, Woodpecker down or not', async () => {
    const url = `${base}/mcp`;
    const session = await initialize2025(url, { origin: ORIGIN });
    expect(session.sessionId).toBeDefined();
    // A step without an image and a key the schema does not allow: two findings.
    const config = 'steps:\n  build:\n    commands: [make]\n    colour: blue\n';
    const answer = jsonRpcOf(
      await callTool2025(
        url,
        session.sessionId!,
        'lint_pipeline_config',
        { origin: ORIGIN },
        {
          config,
        },
      ),
    ) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } };
    expect(answer.result?.isError, JSON.stringify(answer)).not.toBe(true);
    const data = answer.result?.structuredContent as {
      valid: boolean;
      judged_by: string;
      errors?: { line: number; message: string }[];
    };
    expect(JSON.stringify(answer)).not.toContain('missing from this installation');
    expect(data.valid).toBe(false);
    expect(data.judged_by).toMatch(/^Woodpecker 3\.18/);
    expect(data.errors?.length).toBeGreaterThan(0);
    expect(data.errors?.every((error) => error.line >= 2)).toBe(true);
  });

  it('stops at once on SIGTERM with exit code 0, and never printed its token', async () => {
    const started = Date.now();
    expect(await container.stop(20)).toBe(0);
    // Well inside podman's grace time: the server exited by itself, it was not killed.
    expect(Date.now() - started).toBeLessThan(10_000);
    const logs = await container.logs();
    expect(logs).toContain('serving MCP over HTTP at http://0.0.0.0:3030/mcp');
    expect(logs).not.toContain(TOKEN);
  });
});
