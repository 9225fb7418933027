// Parameters an older Woodpecker silently drops (a secret's note before 3.13): such a
// call would "succeed" and leave the caller believing the field was stored. Tools
// declare these with `since` in tools.yaml; this check reads GET /version once per
// process and refuses the call on an older server, naming the parameter and the release.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolArgs, ToolDefinition, WoodpeckerRequest } from '../tool.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';
import { errorResult } from './toolErrors.js';

type Send = (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>;

/** "3.11.0" → [3, 11, 0]; anything else (a development build such as "next-a4cb541") → undefined. */
export function releaseOf(version: unknown): readonly number[] | undefined {
  if (typeof version !== 'string') return undefined;
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function olderThan(release: readonly number[], wanted: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    const a = release[i] ?? 0;
    const b = wanted[i] ?? 0;
    if (a !== b) return a < b;
  }
  return false;
}

export class ServerVersion {
  private known: Promise<string | undefined> | undefined;

  /** A refusal when an argument needs a newer Woodpecker than the one answering; else undefined. */
  async check(tool: ToolDefinition, args: ToolArgs, send: Send): Promise<CallToolResult | undefined> {
    const since = Object.entries(tool.since ?? {}).filter(([param]) => args[param] !== undefined);
    if (since.length === 0) return undefined;
    const version = await this.version(send);
    const release = releaseOf(version);
    // An unknown or development version is taken as new enough: Woodpecker then decides.
    if (!release) return undefined;
    const missing = since.filter(([, wanted]) => olderThan(release, releaseOf(wanted) ?? [0, 0, 0]));
    if (missing.length === 0) return undefined;
    const needs = missing.map(([param, wanted]) => `${param} needs Woodpecker ${shortRelease(wanted)} or newer`).join('; ');
    return errorResult(
      `${tool.name}: ${needs}, and this server runs ${String(version)}, which would drop it without saying so. Nothing was sent. Call again without ${missing.map(([param]) => param).join(' and ')}.`,
    );
  }

  // GET /version is public and never changes while the server runs; a failed read is
  // retried next time instead of remembered.
  private version(send: Send): Promise<string | undefined> {
    this.known ??= send({ method: 'GET', path: '/version' }).then(
      (answer) => {
        const version = (answer.body as { version?: unknown } | undefined)?.version;
        return typeof version === 'string' ? version : undefined;
      },
      () => {
        this.known = undefined;
        return undefined;
      },
    );
    return this.known;
  }
}

/** "3.13.0" → "3.13", as release notes name it. */
function shortRelease(version: string): string {
  return version.replace(/\.0$/, '');
}
