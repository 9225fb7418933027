// The stdio transport serveStdio runs on, with what the SDK's own leaves out (issue 33):
// a line that is not JSON is answered with -32700 (the SDK skips it, and the client waits
// for an answer that never comes), a request the SDK would answer with a validation dump
// gets one sentence (wireChecks.ts), and a 2025-era connection's answers are worded as
// 2025-11-25 says. Lines are read here and handed on whole; the SDK parses them again.
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { errorAnswer, legacyAnswer, wireError } from '../mcp/wireChecks.js';

const PARSE_ERROR = -32700;

export function stdioWire(
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): StdioServerTransport {
  const lines = new PassThrough();
  const transport = new StdioServerTransport(lines, stdout as never);
  let legacy = false;
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => send(legacy ? legacyAnswer(message) : message);
  const answer = (message: JSONRPCMessage) => void send(message).catch(() => undefined);
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const take = (line: string) => {
    const text = line.replace(/\r$/, '');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      answer(
        errorAnswer(undefined, {
          code: PARSE_ERROR,
          message: 'Parse error: this line is not JSON. Send one JSON-RPC message per line.',
        }),
      );
      return;
    }
    if ((parsed as { method?: unknown } | null)?.method === 'initialize') legacy = true;
    const wrong = wireError(parsed);
    if (wrong) answer(errorAnswer(parsed, wrong));
    else lines.write(`${text}\n`);
  };
  stdin.on('data', (chunk: Buffer | string) => {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      take(pending.slice(0, end));
      pending = pending.slice(end + 1);
    }
    // A line longer than the SDK takes: handed on as it is, the SDK refuses it and closes.
    if (pending.length > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      lines.write(pending);
      pending = '';
    }
  });
  stdin.once('end', () => {
    take(pending + decoder.end());
    lines.end();
  });
  stdin.once('close', () => lines.end());
  return transport;
}
