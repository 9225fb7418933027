// Step logs read as they arrive: the array splitter against JSON.parse of the whole body
// (cut at every position), the streaming read's refusals (the same as send()'s), and the
// windows and search built while lines stream past against the whole-array versions.
import { describe, expect, it } from 'vitest';
import { JsonArrayElements } from '../../../runtime/handlers/reads/jsonArrayElements.js';
import { decodeLogEntries, windowOf, type LogLine } from '../../../runtime/handlers/reads/logs.js';
import { compileMatcher, searchLines } from '../../../runtime/handlers/search_logs.js';
import { tools } from '../../../generated/index.js';
import { ToolOutcomeError } from '../../../runtime/core/errors.js';
import type { HandlerContext } from '../../../runtime/call/handlerContext.js';
import { scanStepLog } from '../../../runtime/handlers/reads/pipelineReads.js';
import {
  WoodpeckerClient,
  WoodpeckerHttpError,
  WoodpeckerNotApiError,
  WoodpeckerResponseTooLargeError,
  WoodpeckerUnreachableError,
} from '../../../runtime/woodpecker/woodpeckerClient.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MOCK_ORIGIN, useMockWoodpecker } from '../mockWoodpecker.js';

const entry = (line: number, text: string, type = 0) => ({
  id: line + 100,
  step_id: 7,
  time: 0,
  line,
  type,
  data: Buffer.from(text).toString('base64'),
});

function elementsOf(pieces: string[]): unknown[] {
  const seen: unknown[] = [];
  const splitter = new JsonArrayElements((element) => void seen.push(element));
  for (const piece of pieces) splitter.push(piece);
  return seen;
}

describe('JsonArrayElements', () => {
  // Strings with quotes, escaped quotes, backslash runs and braces: what a naive splitter gets wrong.
  const tricky = [
    entry(0, 'plain'),
    { note: 'a "quoted" {brace} [bracket] \\ and \\\\', nested: { list: [1, { x: '}' }] } },
    entry(1, 'é – ✓'),
  ];
  const body = JSON.stringify(tricky);

  it('yields the elements JSON.parse finds, however the text is cut', () => {
    for (let cut = 0; cut <= body.length; cut++)
      expect(elementsOf([body.slice(0, cut), body.slice(cut)])).toEqual(tricky);
    expect(elementsOf([...body])).toEqual(tricky);
  });

  it('yields nothing for null or an empty array (a step with no log yet)', () => {
    expect(elementsOf(['null'])).toEqual([]);
    expect(elementsOf(['[', ']'])).toEqual([]);
  });

  it('stops when asked to', () => {
    const seen: unknown[] = [];
    const splitter = new JsonArrayElements((element) => seen.push(element) < 2);
    expect(splitter.push(body)).toBe(false);
    expect(seen).toHaveLength(2);
  });
});

describe('WoodpeckerClient.stream', () => {
  const ORIGIN = MOCK_ORIGIN;
  const woodpecker = useMockWoodpecker();
  const client = woodpecker.client;
  const collect = async (wp: WoodpeckerClient) => {
    let text = '';
    await wp.stream(
      { method: 'GET', path: '/api/log' },
      { token: 't' },
      (piece) => void (text += piece),
    );
    return text;
  };

  it('hands over the body as text', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/log', method: 'GET' })
      .reply(200, '[{"a":"✓"}]', { headers: { 'content-type': 'application/json' } });
    expect(await collect(client())).toBe('[{"a":"✓"}]');
  });

  it('refuses a web page, with or without its content type, as send() does', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/log', method: 'GET' })
      .reply(200, '<!doctype html><p>hi', { headers: { 'content-type': 'text/html' } });
    await expect(collect(client())).rejects.toBeInstanceOf(WoodpeckerNotApiError);
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/log', method: 'GET' })
      .reply(200, '  <html>', {});
    await expect(collect(client())).rejects.toBeInstanceOf(WoodpeckerNotApiError);
  });

  it("maps an error status to WoodpeckerHttpError with Woodpecker's text", async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/log', method: 'GET' })
      .reply(404, 'Step not found', {});
    await expect(collect(client())).rejects.toMatchObject({
      name: 'WoodpeckerHttpError',
      status: 404,
      detail: 'Step not found',
    });
    expect(WoodpeckerHttpError).toBeDefined();
  });

  it('stops reading past the body ceiling', async () => {
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/log', method: 'GET' })
      .reply(200, `[${'"x",'.repeat(10_000)}"x"]`, {});
    await expect(collect(client(1_000))).rejects.toBeInstanceOf(WoodpeckerResponseTooLargeError);
  });

  it('refuses a declared Content-Length over the ceiling before reading any of it', async () => {
    const body = `[${'"x",'.repeat(10_000)}"x"]`;
    woodpecker
      .agent()
      .get(ORIGIN)
      .intercept({ path: '/api/log', method: 'GET' })
      .reply(200, body, { headers: { 'content-length': String(body.length) } });
    let seen = 0;
    const read = client(1_000).stream(
      { method: 'GET', path: '/api/log' },
      { token: 't' },
      (piece) => void (seen += piece.length),
    );
    await expect(read).rejects.toBeInstanceOf(WoodpeckerResponseTooLargeError);
    expect(seen).toBe(0);
  });

  it('says a body that broke off while it arrived is unreachable, not a shorter log', async () => {
    // A real socket: the answer's head and part of its body, then the connection is cut.
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('[{"a":1},');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const wp = new WoodpeckerClient({
      baseUrl: `http://127.0.0.1:${port}`,
      insecureTls: false,
      timeoutMs: 5_000,
    });
    try {
      const error = (await collect(wp).catch(
        (caught: unknown) => caught,
      )) as WoodpeckerUnreachableError;
      expect(error).toBeInstanceOf(WoodpeckerUnreachableError);
      expect(error.reason).toBe('the connection broke while its answer (HTTP 200) arrived');
      expect(error.outcomeUnknown).toBe(false);
    } finally {
      await wp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('windows and search over streamed lines', () => {
  const lines: LogLine[] = decodeLogEntries(
    Array.from({ length: 50 }, (_, i) => entry(i, i % 7 === 3 ? `error ${i}` : `ok ${i}`)),
  );

  it('a tail or head window equals the slice of the whole log', () => {
    for (const limit of [0, 1, 7, 50, 80]) {
      const tail = windowOf(lines, limit, 'tail');
      expect(tail.lines).toEqual(lines.slice(Math.max(0, lines.length - limit)));
      expect(tail).toMatchObject({
        total_lines: 50,
        returned: Math.min(limit, 50),
        truncated: limit < 50,
      });
      expect(windowOf(lines, limit, 'head').lines).toEqual(lines.slice(0, limit));
    }
  });

  it('matches carry the lines before and after them, overlapping matches included', () => {
    const matches = searchLines(
      lines,
      compileMatcher('error', false, false),
      { id: 1, name: 's' },
      8,
      { matches: 100 },
    );
    expect(matches.map((match) => match.line)).toEqual([3, 10, 17, 24, 31, 38, 45]);
    for (const match of matches) {
      expect(match.before.map((line) => line.line)).toEqual(
        lines.slice(Math.max(0, match.line - 8), match.line).map((line) => line.line),
      );
      expect(match.after.map((line) => line.line)).toEqual(
        lines.slice(match.line + 1, match.line + 9).map((line) => line.line),
      );
    }
  });
});

describe('scanStepLog', () => {
  const getStepLogs = tools.find((tool) => tool.name === 'get_step_logs')!;
  // A handler context whose Woodpecker answers with `pieces`, one onText call each.
  const contextAnswering = (pieces: string[]) =>
    ({
      toolNamed: () => getStepLogs,
      stream: async (_request: unknown, onText: (text: string) => boolean | void) => {
        for (const piece of pieces) if (onText(piece) === false) return;
      },
    }) as unknown as HandlerContext;
  const body = JSON.stringify([entry(0, 'one'), entry(1, 'two'), entry(2, 'three')]);
  const scan = async (pieces: string[], stopAfter = Infinity) => {
    const seen: string[] = [];
    await scanStepLog(
      contextAnswering(pieces),
      1,
      1,
      7,
      (line) => seen.push(line.text) < stopAfter,
    );
    return seen;
  };

  it('visits every output line of a whole answer, and stops when asked without complaint', async () => {
    expect(await scan([body.slice(0, 40), body.slice(40)])).toEqual(['one', 'two', 'three']);
    expect(await scan([body], 1)).toEqual(['one']);
    expect(await scan(['null'])).toEqual([]);
  });

  it('refuses an answer cut short, rather than reading it as a shorter log', async () => {
    await expect(scan([body.slice(0, body.length - 1)])).rejects.toThrow(
      /broke off before its end/,
    );
    await expect(scan([body.slice(0, 60)])).rejects.toBeInstanceOf(ToolOutcomeError);
  });

  it('refuses an answer that is not valid JSON', async () => {
    await expect(scan(['[{"line":0,"data":}]'])).rejects.toThrow(/is not valid JSON/);
  });
});
