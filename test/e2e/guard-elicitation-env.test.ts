// ELICITATION, on the real process: `tsx runtime/process/main.ts` over stdio, as an MCP client
// host would start it. false prints one line at startup and takes the token path even
// for a client that can show dialogs; anything but true/false stops the server.
import { spawn } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { guardedTool, Targets } from './guardedTools.js';
import { textOf } from './mcpSession.js';
import {
  harnessWoodpecker,
  serverEnv,
  SOURCE_SERVER,
  startStdioServer,
  type StdioServer,
} from './stdioServer.js';

const NOTICE =
  'woodpecker-ci-mcp: ELICITATION=false — guarded tools fall back to the two-call token';

function startStdio(elicitation: string | undefined): Promise<StdioServer> {
  return startStdioServer({
    env: {
      ...harnessWoodpecker(),
      ...(elicitation === undefined ? {} : { ELICITATION: elicitation }),
    },
    name: 'guard-elicitation-env',
    canElicit: true,
  });
}

/** Runs the server with a bad value and waits (bounded) for it to exit. */
function runToExit(elicitation: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(SOURCE_SERVER.command, SOURCE_SERVER.args, {
      cwd: SOURCE_SERVER.cwd,
      env: serverEnv({ ...harnessWoodpecker(), ELICITATION: elicitation }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `server with ELICITATION=${elicitation} still running after 20 s; stderr: ${stderr}`,
        ),
      );
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const call = async (server: StdioServer, name: string, args: Record<string, unknown>) =>
  (await server.client.callTool({ name, arguments: args })) as CallToolResult;

describe('ELICITATION on a real stdio process', () => {
  it('false: one startup line, and a client that can show dialogs still gets the two-call token', async () => {
    const targets = new Targets();
    const server = await startStdio('false');
    try {
      const target = await targets.create(guardedTool('delete_agent'));
      const first = await call(server, 'delete_agent', target.args);
      const token = (first.structuredContent as { confirm_token?: unknown } | undefined)
        ?.confirm_token;
      expect(typeof token, textOf(first)).toBe('string');
      expect(textOf(first)).toContain('woodpecker-ci-mcp did not ask a person');
      expect(textOf(first)).toContain(
        'The token proves only that the call was made twice with the same arguments.',
      );
      expect(await target.changed()).toBe(false);

      const second = await call(server, 'delete_agent', { ...target.args, confirm_token: token });
      expect(second.isError, textOf(second)).toBeFalsy();
      expect(await target.changed()).toBe(true);
      expect(server.dialogs, 'the server pushed a dialog with ELICITATION=false').toHaveLength(0);

      const lines = server.stderr().split('\n');
      expect(
        lines.filter((line) => line === NOTICE),
        server.stderr(),
      ).toHaveLength(1);
      expect(lines.filter((line) => line.includes('ELICITATION'))).toEqual([NOTICE]);
    } finally {
      await server.close();
      await targets.cleanupAll();
    }
  });

  it.each([[undefined], ['true']])(
    'ELICITATION=%s: no startup line, and the dialog is pushed',
    async (value) => {
      const targets = new Targets();
      const server = await startStdio(value);
      try {
        const target = await targets.create(guardedTool('delete_agent'));
        const result = await call(server, 'delete_agent', target.args);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(server.dialogs).toHaveLength(1);
        expect(server.dialogs[0]).toContain(
          `This will delete agent ${String(target.args.agent_id)}.`,
        );
        expect(await target.changed()).toBe(true);
        expect(server.stderr()).not.toContain('ELICITATION');
      } finally {
        await server.close();
        await targets.cleanupAll();
      }
    },
  );

  it.each([['1'], ['off'], ['yes'], ['False'], ['']])(
    'ELICITATION=%j stops the server with exit code 1 naming true and false',
    async (value) => {
      const { code, stderr } = await runToExit(value);
      expect(code, stderr).toBe(1);
      expect(stderr).toMatch(/ELICITATION/);
      expect(stderr).toMatch(/\btrue\b/);
      expect(stderr).toMatch(/\bfalse\b/);
      expect(stderr).not.toContain(NOTICE);
    },
  );
});
