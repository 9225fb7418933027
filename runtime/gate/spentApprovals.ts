// Approvals already used, for questions that must let exactly one call through (a call
// that starts a build each time it runs). Keyed by the seal's nonce and kept until the
// seal expires, after which it could not be redeemed anyway. In memory, per process: a
// replica sharing the seal key does not know what another one spent (docs/configuration.md).

export class SpentApprovals {
  private readonly spent = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Spends the approval: true the first time, false when it was spent before.
   * Synchronous, so two redemptions racing each other cannot both get true.
   */
  spend(nonce: string, expiresAt: number): boolean {
    this.forgetExpired();
    if (this.spent.has(nonce)) return false;
    this.spent.set(nonce, expiresAt);
    return true;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [nonce, expiresAt] of this.spent) if (expiresAt <= now) this.spent.delete(nonce);
  }
}
