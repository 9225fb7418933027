// Counts the calls being answered, so that a stopping server can let them finish before
// it exits instead of cutting a write off in the middle of its answer.
export class CallsUnderWay {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Marks one call started; the returned function marks it done (once). */
  enter(): () => void {
    this.count++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  async track<T>(work: Promise<T>): Promise<T> {
    const leave = this.enter();
    try {
      return await work;
    } finally {
      leave();
    }
  }

  /** Resolves when no call is under way, or after `timeoutMs`, whichever comes first. */
  settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
