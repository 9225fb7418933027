// The open 2025 sessions, each bound to the credential that opened it, and the limits
// that keep one client from using them all up: a session nobody touched for the idle time
// is closed; an account has at most `perAccount` of them (a new one first replaces that
// account's own longest-idle session) and the whole server at most `maxSessions` (past
// that a new session is refused with 503 and no open one is touched). A session is closed
// only by its own idle time, by its own account opening one more at its cap, by its owner
// (DELETE) and at shutdown. Because an account's cap is below the server's, one client
// cannot lock out the rest.
//
// The cap counts per account, not per token string: Woodpecker accepts several strings as
// one token (a JWT's last character carries spare bits) and an account may hold several
// tokens. The binding stays with the exact credential: no other string, not even another
// form of the same token, can use a session.
import { sameCredential } from './authorization.js';

export interface SessionLimits {
  readonly idleMs: number;
  readonly maxSessions: number;
  readonly perAccount: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleMs: 10 * 60 * 1000,
  maxSessions: 1000,
  perAccount: 20,
};

interface Closable {
  close(): Promise<void>;
}

interface Entry<T> {
  readonly transport: T;
  readonly credential: Buffer;
  /** Whose session it is, for the per-account cap (see admit). */
  readonly account: string;
  lastUsed: number;
  /** Requests (including open GET streams) the session is answering right now. */
  busy: number;
}

export type Lookup<T> =
  | { readonly kind: 'found'; readonly transport: T }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'other-credential' };

/** A place reserved for a session being initialized; give it back if that fails. */
export interface Reservation<T> {
  commit(id: string, transport: T): void;
  release(): void;
}

export type Admission<T> =
  | { readonly ok: true; readonly reservation: Reservation<T> }
  | { readonly ok: false; readonly status: 429 | 503; readonly message: string };

export class SessionRegistry<T extends Closable> {
  private readonly sessions = new Map<string, Entry<T>>();
  /** Reservations not yet committed, by account. */
  private readonly pending = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  /** `now` defaults to a monotonic clock: a wall-clock step must not expire sessions. */
  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sweeper = setInterval(
      () => this.sweep(),
      Math.min(60_000, Math.max(250, limits.idleMs / 2)),
    );
    this.sweeper.unref();
  }

  /** The session `id` if it is open, has not expired, and belongs to `credential`. */
  lookup(id: string, credential: Buffer): Lookup<T> {
    const entry = this.sessions.get(id);
    if (!entry || this.expire(id, entry)) return { kind: 'unknown' };
    if (!sameCredential(entry.credential, credential)) return { kind: 'other-credential' };
    entry.lastUsed = this.now();
    return { kind: 'found', transport: entry.transport };
  }

  /** Marks a session busy while a request runs; the returned function marks it done. */
  enter(id: string | undefined): () => void {
    const entry = id === undefined ? undefined : this.sessions.get(id);
    if (!entry) return () => undefined;
    entry.busy++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      entry.busy--;
      entry.lastUsed = this.now();
    };
  }

  /**
   * A place for a new session of `credential`, which belongs to `account`: a key that is
   * the same for every token of one Woodpecker account (the caller verified it), or one
   * derived from the credential itself when the account is not known.
   */
  admit(credential: Buffer, account: string): Admission<T> {
    this.sweep();
    const own = [...this.sessions.entries()].filter(([, entry]) => entry.account === account);
    const pending = this.pending.get(account) ?? 0;
    if (own.length + pending >= this.limits.perAccount) {
      // At its cap the account trades one of its own for the new one: the total does not
      // grow, so this never needs (or takes) anyone else's place.
      const oldestIdle = own
        .filter(([, entry]) => entry.busy === 0)
        .sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
      if (!oldestIdle) {
        return {
          ok: false,
          status: 429,
          message: `This account already has ${this.limits.perAccount} sessions open and all are in use. Close one (HTTP DELETE with its Mcp-Session-Id) or wait for one to finish.`,
        };
      }
      this.drop(oldestIdle[0]);
    } else if (this.sessions.size + this.pendingTotal() >= this.limits.maxSessions) {
      // The server is full: refuse the newcomer, and leave every open session alone.
      return {
        ok: false,
        status: 503,
        message: `The server has its maximum of ${this.limits.maxSessions} sessions open; try again later.`,
      };
    }
    this.pending.set(account, pending + 1);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      const left = (this.pending.get(account) ?? 1) - 1;
      if (left > 0) this.pending.set(account, left);
      else this.pending.delete(account);
    };
    return {
      ok: true,
      reservation: {
        commit: (id, transport) => {
          settle();
          this.sessions.set(id, {
            transport,
            credential,
            account,
            lastUsed: this.now(),
            busy: 0,
          });
        },
        release: settle,
      },
    };
  }

  /** Forgets a session that closed by itself (the client sent DELETE). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const transports = [...this.sessions.values()].map((entry) => entry.transport);
    this.sessions.clear();
    await Promise.allSettled(transports.map((transport) => transport.close()));
  }

  private sweep(): void {
    for (const [id, entry] of this.sessions) this.expire(id, entry);
  }

  /** Closes the session if it has been idle too long; true when it did. */
  private expire(id: string, entry: Entry<T>): boolean {
    if (entry.busy > 0 || this.now() - entry.lastUsed <= this.limits.idleMs) return false;
    this.drop(id);
    return true;
  }

  private drop(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    void entry.transport.close().catch(() => undefined);
  }

  private pendingTotal(): number {
    let total = 0;
    for (const count of this.pending.values()) total += count;
    return total;
  }
}
