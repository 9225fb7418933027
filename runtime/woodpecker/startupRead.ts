// The two GETs a first tools/list waits for, sent at start-up with Node's own http client:
// /version (the list leaves out what an older Woodpecker lacks) and /api/user for the
// configured token (a non-admin's list leaves out admin-only tools). They go out first
// thing, while the MCP SDK is still loading, and without undici: loading undici alone
// cost a cold start more than both requests. Tool calls keep using WoodpeckerClient.
import type { IncomingMessage } from 'node:http';
import type { WoodpeckerResponse } from './woodpeckerClient.js';
import { CURRENT_USER_PATH } from './currentUser.js';

/** How long start-up waits for these answers before serving without them. */
export const STARTUP_READ_MS = 3_000;

/** Both answers are a few hundred bytes; anything much longer is not that answer. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface StartupReadOptions {
  readonly baseUrl: string;
  readonly insecureTls: boolean;
  readonly timeoutMs: number;
}

/** What start-up has already asked Woodpecker; each settles once. */
export interface StartupReads {
  readonly version: Promise<WoodpeckerResponse>;
  /** /api/user with the configured WOODPECKER_TOKEN. */
  readonly user: Promise<WoodpeckerResponse> | undefined;
}

/**
 * Sends both reads now. A rejection is handled where the answer is used; until then it
 * must not count as an unhandled one.
 */
export function startStartupReads(
  options: StartupReadOptions,
  token: string | undefined,
): StartupReads {
  const version = readJson(options, '/version', undefined);
  const user = token === undefined ? undefined : readJson(options, CURRENT_USER_PATH, token);
  version.catch(() => undefined);
  user?.catch(() => undefined);
  return { version, user };
}

/** Resolves with the decoded JSON answer of a 2xx; rejects on anything else. */
export async function readJson(
  options: StartupReadOptions,
  path: string,
  token: string | undefined,
): Promise<WoodpeckerResponse> {
  // Joined as WoodpeckerClient joins every path (a Woodpecker under a sub-path keeps it).
  const url = new URL(`${options.baseUrl}${path}`);
  const https = url.protocol === 'https:';
  const { request } = https ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'GET',
        headers: {
          accept: 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        timeout: options.timeoutMs,
        ...(https && options.insecureTls ? { rejectUnauthorized: false } : {}),
      },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) outgoing.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        answer.on('error', reject);
        answer.on('end', () => {
          const status = answer.statusCode ?? 0;
          if (status < 200 || status >= 300) return reject(new Error(`HTTP ${status}`));
          try {
            resolve({
              status,
              headers: {},
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
            });
          } catch {
            reject(new Error('not JSON'));
          }
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', reject);
    outgoing.end();
  });
}
