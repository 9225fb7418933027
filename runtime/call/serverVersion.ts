// What the Woodpecker answering us can do. The generator compares the specs of every
// supported release (specs/) and records, per tool, the oldest release with its routes
// (`availableSince`) and, per parameter, the oldest that honours it (`since`). An older
// server would answer 404 for a missing route and silently drop a missing field, so the
// call "succeeds" and does less than it said: here it is refused instead, naming the
// release it needs and the one answering.
//
// GET /version is read once per process. In multi-user HTTP mode every Bearer reaches the
// same WOODPECKER_URL, so one server version serves them all.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { knownWoodpeckerReleases } from '../../generated/woodpeckerReleases.js';
import type { ToolArgs, ToolDefinition, WoodpeckerRequest } from '../core/tool.js';
import type { WoodpeckerResponse } from '../woodpecker/woodpeckerClient.js';
import { errorResult } from '../core/errors.js';

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

/** "3.13.0" → "3.13", as release notes name it. */
function shortRelease(version: string): string {
  return version.replace(/^(\d+\.\d+)\.0$/, '$1');
}

export interface ServerVersionOptions {
  /** Where the one line about a release newer than every known spec goes. */
  readonly warn?: (line: string) => void;
  /** The releases the catalogue was compared with (generated); tests pass their own. */
  readonly known?: readonly string[];
}

export class ServerVersion {
  private known: Promise<string | undefined> | undefined;
  private settled: { version: string | undefined } | undefined;
  private warned = false;

  constructor(private readonly options: ServerVersionOptions = {}) {}

  /**
   * Reads /version now (at startup), so that the tool list can leave out what the server
   * lacks. A failure is not remembered: the next call tries again.
   */
  learn(send: Send): Promise<string | undefined> {
    return this.version(send);
  }

  /** Whether a tool's routes exist on the server; true while the version is not known. */
  offers(tool: ToolDefinition): boolean {
    const release = releaseOf(this.settled?.version);
    return (
      !release ||
      tool.availableSince === undefined ||
      !olderThan(release, releaseOf(tool.availableSince) ?? [0, 0, 0])
    );
  }

  /** A refusal when the tool or an argument needs a newer Woodpecker than the one answering; else undefined. */
  async check(
    tool: ToolDefinition,
    args: ToolArgs,
    send: Send,
  ): Promise<CallToolResult | undefined> {
    const implied = tool.impliedBeforeSince ?? {};
    // An argument equal to what older releases do anyway asks for nothing they lack.
    const since = Object.entries(tool.since ?? {}).filter(
      ([param]) => args[param] !== undefined && args[param] !== implied[param],
    );
    if (since.length === 0 && tool.availableSince === undefined) return undefined;
    const version = await this.version(send);
    const release = releaseOf(version);
    // A development build cannot be ordered: it is taken as the newest, and Woodpecker decides.
    if (!release || version === undefined) return undefined;
    const older = (wanted: string) => olderThan(release, releaseOf(wanted) ?? [0, 0, 0]);

    if (tool.availableSince !== undefined && older(tool.availableSince)) {
      return errorResult(
        `${tool.name}: needs Woodpecker ≥ ${shortRelease(tool.availableSince)}; this server is ${version}. It has no such route, so nothing was sent; upgrade Woodpecker to use this tool.`,
      );
    }
    const missing = since.filter(([, wanted]) => older(wanted));
    if (missing.length === 0) return undefined;
    const needs = missing
      .map(([param, wanted]) => `${param} needs Woodpecker ≥ ${shortRelease(wanted)}`)
      .join('; ');
    const fixes = missing.map(([param]) =>
      param in implied
        ? `with ${param}: ${JSON.stringify(implied[param])} (what it does anyway)`
        : `without ${param}`,
    );
    return errorResult(
      `${tool.name}: ${needs}; this server is ${version}, which would drop it without saying so. Nothing was sent. Call again ${fixes.join(' and ')}.`,
    );
  }

  // GET /version is public and never changes while the server runs; a failed read is
  // retried next time instead of remembered.
  private version(send: Send): Promise<string | undefined> {
    this.known ??= send({ method: 'GET', path: '/version' }).then(
      (answer) => {
        const version = (answer.body as { version?: unknown } | undefined)?.version;
        const found = typeof version === 'string' ? version : undefined;
        this.settled = { version: found };
        this.noteNewerThanKnown(found);
        return found;
      },
      () => {
        this.known = undefined;
        return undefined;
      },
    );
    return this.known;
  }

  // A release after every spec we compared is served as the newest one; say so once, so
  // whoever runs it knows the catalogue has not been checked against it.
  private noteNewerThanKnown(version: string | undefined): void {
    const release = releaseOf(version);
    const known = this.options.known ?? knownWoodpeckerReleases;
    const newest = known[known.length - 1];
    if (!release || newest === undefined || this.warned) return;
    if (!olderThan(releaseOf(newest) ?? [0, 0, 0], release)) return;
    this.warned = true;
    (this.options.warn ?? ((line) => process.stderr.write(`${line}\n`)))(
      `woodpecker-ci-mcp: Woodpecker ${version} is newer than every release the tools were checked against (newest: ${newest}); serving it as ${newest}.`,
    );
  }
}
