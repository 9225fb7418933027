// Sliding-window counters of builds started, per limit rule and per repository or
// credential. In memory, per process: replicas each count their own (docs/deploy.md
// shows how a load balancer enforces one limit in front of them). A call is counted when
// it is sent; one that is refused counts nothing.

export interface LimitKey {
  /** Rule name plus the repository or credential it counts for. */
  readonly key: string;
  readonly builds: number;
  readonly windowMs: number;
}

export class BuildLimits {
  private readonly starts = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** When a build under this key may start next, or undefined when it may start now. */
  nextAllowed(limit: LimitKey): number | undefined {
    const recent = this.recent(limit);
    if (recent.length < limit.builds) return undefined;
    return recent[recent.length - limit.builds]! + limit.windowMs;
  }

  /**
   * Counts one build under every key, or none when one of them is full: returns the key
   * that is full and when it frees up. Synchronous, so two calls cannot both take the
   * last place.
   */
  take(
    limits: readonly LimitKey[],
    now: number = this.now(),
  ): { readonly full: LimitKey; readonly at: number } | undefined {
    for (const limit of limits) {
      const at = this.nextAllowed(limit);
      if (at !== undefined) return { full: limit, at };
    }
    for (const limit of limits) {
      const recent = this.recent(limit);
      recent.push(now);
      this.starts.set(limit.key, recent);
    }
    return undefined;
  }

  /**
   * Gives back the places `take` counted at `at`: the call they were for started nothing
   * (refused by this server after the count, or by Woodpecker with a 4xx).
   */
  giveBack(limits: readonly LimitKey[], at: number): void {
    for (const limit of limits) {
      const starts = this.starts.get(limit.key);
      const index = starts?.lastIndexOf(at) ?? -1;
      if (starts && index !== -1) starts.splice(index, 1);
    }
  }

  private recent(limit: LimitKey): number[] {
    const since = this.now() - limit.windowMs;
    const kept = (this.starts.get(limit.key) ?? []).filter((time) => time > since);
    if (kept.length === 0) this.starts.delete(limit.key);
    else this.starts.set(limit.key, kept);
    return kept;
  }
}
