// The open 2025 sessions, each bound to the credential that opened it, and the limits
// that keep one client from using them all up: a session nobody touched for the idle time
// is closed; a credential has at most `perCredential` of them (a new one first replaces
// that credential's own longest-idle session) and the whole server at most `maxSessions`.
// Because a credential's cap is below the server's, one client cannot lock out the rest.
import { sameCredential } from './authorization.js';

export interface SessionLimits {
  readonly idleMs: number;
  readonly maxSessions: number;
  readonly perCredential: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleMs: 10 * 60 * 1000,
  maxSessions: 1000,
  perCredential: 20,
};

interface Closable {
  close(): Promise<void>;
}

interface Entry<T> {
  readonly transport: T;
  readonly credential: Buffer;
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
  /** Reservations not yet committed, by credential (hex of its hash). */
  private readonly pending = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
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

  admit(credential: Buffer): Admission<T> {
    this.sweep();
    const key = credential.toString('hex');
    const own = [...this.sessions.entries()].filter(([, entry]) =>
      sameCredential(entry.credential, credential),
    );
    const pending = this.pending.get(key) ?? 0;
    if (own.length + pending >= this.limits.perCredential) {
      const oldestIdle = own
        .filter(([, entry]) => entry.busy === 0)
        .sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
      if (!oldestIdle) {
        return {
          ok: false,
          status: 429,
          message: `This credential already has ${this.limits.perCredential} sessions open and all are in use. Close one (HTTP DELETE with its Mcp-Session-Id) or wait for one to finish.`,
        };
      }
      this.drop(oldestIdle[0]);
    }
    if (this.sessions.size + this.pendingTotal() >= this.limits.maxSessions) {
      return {
        ok: false,
        status: 503,
        message: `The server has its maximum of ${this.limits.maxSessions} sessions open; try again later.`,
      };
    }
    this.pending.set(key, pending + 1);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      const left = (this.pending.get(key) ?? 1) - 1;
      if (left > 0) this.pending.set(key, left);
      else this.pending.delete(key);
    };
    return {
      ok: true,
      reservation: {
        commit: (id, transport) => {
          settle();
          this.sessions.set(id, { transport, credential, lastUsed: this.now(), busy: 0 });
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
