// Approvals already used, for questions that must let exactly one call through (a call
// that starts a build each time it runs). Keyed by the seal's nonce and kept until the
// seal expires, after which it could not be redeemed anyway.
//
// In memory per process, and, given a directory, also on disk: every server process of
// one machine that opens the same seals (the key derived from one WOODPECKER_TOKEN, or one
// WOODPECKER_MCP_SEAL_KEY; a client that starts a process per call) claims a nonce by
// creating its file exclusively, so the second process to try finds it taken. Replicas on
// other machines do not share it (docs/configuration.md). A directory that cannot be
// written leaves the memory alone in charge, as it was before.
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export class SpentApprovals {
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly directory?: string,
  ) {}

  /**
   * Spends the approval: true the first time, false when it was spent before, in this
   * process or (with a directory) in another one. Synchronous, so two redemptions racing
   * each other cannot both get true.
   */
  spend(nonce: string, expiresAt: number): boolean {
    this.forgetExpired();
    if (this.spent.has(nonce)) return false;
    if (this.directory !== undefined && !this.claimOnDisk(this.directory, nonce, expiresAt))
      return false;
    this.spent.set(nonce, expiresAt);
    return true;
  }

  /** False when another process holds the nonce already. */
  private claimOnDisk(directory: string, nonce: string, expiresAt: number): boolean {
    const name = createHash('sha256').update(nonce).digest('hex').slice(0, 40);
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      this.forgetExpiredOnDisk(directory);
      const fd = openSync(join(directory, name), 'wx', 0o600);
      writeSync(fd, String(expiresAt));
      closeSync(fd);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'EEXIST';
    }
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [nonce, expiresAt] of this.spent) if (expiresAt <= now) this.spent.delete(nonce);
  }

  private forgetExpiredOnDisk(directory: string): void {
    const now = this.now();
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      try {
        if (Number(readFileSync(path, 'utf8')) <= now) rmSync(path, { force: true });
      } catch {
        // Another process removed it first.
      }
    }
  }
}

/** Where a machine's server processes share spent approvals: one folder per user. */
export function sharedSpentDirectory(tmp: string, uid: number | undefined): string {
  return join(tmp, `woodpecker-ci-mcp-${uid ?? 'user'}`, 'spent-approvals');
}
