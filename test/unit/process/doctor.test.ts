// doctor against a stand-in Woodpecker: what blocks comes first, the common slips get the
// one fix that repairs them, and the tool count is the one the client's list will have.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import { diagnose, runDoctor } from '../../../runtime/process/doctor.js';

let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const json = (body: unknown) =>
      response.setHeader('content-type', 'application/json').end(JSON.stringify(body));
    if (request.url === '/version') return json({ version: '3.17.0' });
    if (request.url === '/api/user') {
      if (request.headers.authorization === 'Bearer admin')
        return json({ login: 'root', admin: true });
      if (request.headers.authorization === 'Bearer user') return json({ login: 'alice' });
      return void response.writeHead(401).end();
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const listLine = (findings: { text: string }[]) =>
  findings.find((finding) => finding.text.startsWith("the client's tool list"))?.text ?? '';

describe('doctor', () => {
  it('counts the tools a non-admin account will be listed, not the whole selection', async () => {
    const findings = await diagnose({ WOODPECKER_URL: url, WOODPECKER_TOKEN: 'user' });
    const visible = tools.filter((tool) => !tool.adminOnly).length;
    expect(visible).toBeLessThan(tools.length);
    expect(listLine(findings)).toMatch(new RegExp(`^the client's tool list: ${visible} tools,`));
    expect(findings.map((finding) => finding.text).join('\n')).not.toMatch(/DENY_TOOLS/);
  });

  it('counts an admin’s list and the first list of dynamic mode', async () => {
    const admin = await diagnose({ WOODPECKER_URL: url, WOODPECKER_TOKEN: 'admin' });
    expect(listLine(admin)).toMatch(new RegExp(`: ${tools.length} tools,`));
    const dynamic = await diagnose({
      WOODPECKER_URL: url,
      WOODPECKER_TOKEN: 'admin',
      WOODPECKER_DYNAMIC_TOOLS: 'true',
    });
    const essential = tools.filter((tool) => tool.essential).length;
    expect(listLine(dynamic)).toMatch(new RegExp(`: ${essential + 2} tools,`));
  });

  it('names the scheme that works when https:// meets a plain-http Woodpecker', async () => {
    const findings = await diagnose({ WOODPECKER_URL: url.replace('http:', 'https:') });
    expect(findings).toContainEqual({
      level: 'BLOCKING',
      text: expect.stringContaining(`but ${url} does`),
      fix: `Set WOODPECKER_URL=${url}`,
    });
  });

  it('prints blocking findings first', async () => {
    const lines: string[] = [];
    const code = await runDoctor({ WOODPECKER_URL: url, WOODPECKER_TOKEN: 'revoked' }, (line) =>
      lines.push(line),
    );
    expect(code).toBe(1);
    const levels = lines.slice(1, -1).filter((line) => !line.startsWith(' '));
    expect(levels[0]).toMatch(/^BLOCKING Woodpecker refuses WOODPECKER_TOKEN/);
    expect(levels.findIndex((line) => line.startsWith('ok'))).toBeGreaterThan(0);
  });
});
