// Who a token belongs to, as far as the tool list cares: whether Woodpecker calls the
// account an instance admin. Asked once per token (GET /api/user) and remembered for a
// minute, keyed by a hash so that no token is held as a map key. A lookup that fails
// (no URL, no token, Woodpecker unreachable) answers undefined: the list then shows
// everything, and Woodpecker's own 403 still explains a refused call.
import { createHash } from 'node:crypto';

export interface Account {
  readonly login: string;
  readonly admin: boolean;
}

const REMEMBER_MS = 60_000;

export class AccountLookup {
  private readonly known = new Map<
    string,
    { account: Promise<Account | undefined>; until: number }
  >();

  constructor(
    private readonly whoIs: (token: string) => Promise<Account | undefined>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes an answer already under way for a token (start-up asks for the configured one
   * before the server has loaded). A failed one counts as a failed lookup: unknown for a
   * minute, as if this lookup had asked.
   */
  prime(token: string, account: Promise<Account | undefined>): void {
    this.known.set(this.keyOf(token), {
      account: account.catch(() => undefined),
      until: this.now() + REMEMBER_MS,
    });
  }

  async of(token: string | undefined): Promise<Account | undefined> {
    if (!token) return undefined;
    const key = this.keyOf(token);
    const cached = this.known.get(key);
    if (cached && cached.until > this.now()) return cached.account;
    const account = this.whoIs(token).catch(() => undefined);
    this.known.set(key, { account, until: this.now() + REMEMBER_MS });
    if (this.known.size > 1_000) this.known.delete(this.known.keys().next().value!);
    return account;
  }

  private keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }
}

/**
 * Reads `login` and `admin` from Woodpecker's /api/user answer; without a login it is
 * unknown. Woodpecker leaves `admin` out of the JSON when it is false.
 */
export function accountFrom(body: unknown): Account | undefined {
  const user = body as { login?: unknown; admin?: unknown } | null;
  return user && typeof user.login === 'string' && user.login !== ''
    ? { login: user.login, admin: user.admin === true }
    : undefined;
}
