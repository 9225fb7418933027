import { redactSecrets } from './redact.js';

// Creates a Woodpecker user and its API token the way a person would, minus the browser:
// Woodpecker's OAuth login against the forge stand-in, then "create token" with the
// session cookie and its CSRF token. Nothing touches Woodpecker's database.

class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const separator = pair?.indexOf('=') ?? -1;
      if (pair === undefined || separator <= 0) continue;
      this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

async function request(url: string, jar: CookieJar, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string> | undefined), Cookie: jar.header() },
    signal: AbortSignal.timeout(15_000),
  });
  jar.take(response);
  return response;
}

function redirectTarget(response: Response, step: string): string {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || location === null) {
    throw new Error(`login: ${step} answered ${response.status} without a redirect`);
  }
  return location;
}

/** Logs `login` into Woodpecker through the forge stand-in and returns a new API token. */
export async function loginAndCreateApiToken(serverUrl: string, login: string): Promise<string> {
  const jar = new CookieJar();
  const toForge = redirectTarget(await request(`${serverUrl}/authorize`, jar), 'GET /authorize');
  const forgeAuthorize = new URL(toForge);
  forgeAuthorize.searchParams.set('login_as', login);
  const backToServer = redirectTarget(
    await request(forgeAuthorize.toString(), jar),
    'forge authorize',
  );
  const callback = await request(new URL(backToServer, serverUrl).toString(), jar);
  if (!jar.has('user_sess')) {
    const body = redactSecrets((await callback.text()).slice(0, 500));
    throw new Error(
      `login: Woodpecker set no session cookie for ${login} (status ${callback.status}, location ${callback.headers.get('location') ?? '-'}) ${body}`,
    );
  }
  const webConfig = await (await request(`${serverUrl}/web-config.js`, jar)).text();
  const csrf = /WOODPECKER_CSRF\s*=\s*"([^"]+)"/.exec(webConfig)?.[1];
  if (csrf === undefined) throw new Error(`login: /web-config.js has no CSRF token for ${login}`);
  const tokenResponse = await request(`${serverUrl}/api/user/token`, jar, {
    method: 'POST',
    headers: { 'X-CSRF-TOKEN': csrf },
  });
  const token = (await tokenResponse.text()).trim();
  if (!tokenResponse.ok || token.split('.').length !== 3) {
    throw new Error(`login: POST /api/user/token for ${login} answered ${tokenResponse.status}`);
  }
  return token;
}
