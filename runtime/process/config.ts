// Configuration from the environment, read once at startup. Every problem is reported
// as a ConfigError whose message names the variable and the fix; values of secrets
// and of the Woodpecker URL are never repeated back (the URL may carry credentials
// someone pasted by mistake).
import { DEFAULT_MAX_RESULT_BYTES } from '../output/resultLimit.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../woodpecker/woodpeckerClient.js';
import type { HttpPolicy } from '../http/httpServer.js';
import { parseHost } from '../http/hostCheck.js';
import { canonicalOrigin } from '../http/originCheck.js';
import { DEFAULT_SESSION_LIMITS } from '../http/sessionRegistry.js';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface Config {
  /** Woodpecker's root URL without a trailing slash or `/api`, e.g. `https://ci.example.com`. */
  readonly woodpeckerUrl: string | undefined;
  /** The server-wide Woodpecker API token; undefined when none was configured. */
  readonly woodpeckerToken: string | undefined;
  readonly insecureTls: boolean;
  /** false takes the two-call token path for every guarded tool. */
  readonly elicitation: boolean;
  readonly readOnly: boolean;
  readonly allowTools: readonly string[] | undefined;
  readonly denyTools: readonly string[];
  /** WOODPECKER_HIDE_ADMIN_TOOLS (default true): a non-admin token's list leaves out admin-only tools. */
  readonly hideAdminTools: boolean;
  /** WOODPECKER_DYNAMIC_TOOLS: the first list holds the essential tools and two to find and enable the rest. */
  readonly dynamicTools: boolean;
  /** Repository allowlist patterns (`owner/*`, `owner/name`); undefined means all. */
  readonly repositories: readonly string[] | undefined;
  /** Shared seal key (32+ bytes) so replicas open each other's seals. */
  readonly sealKey: Buffer | undefined;
  readonly auditLogPath: string | undefined;
  /** WOODPECKER_MCP_POLICY: the operator's policy file (runtime/policy/), read at startup. */
  readonly policyPath: string | undefined;
  readonly requestTimeoutMs: number;
  /** WOODPECKER_MCP_MAX_RESULT_BYTES: the most one tool result may take, serialized. */
  readonly maxResultBytes: number;
  /** WOODPECKER_MCP_MAX_RESPONSE_BYTES: the most of one Woodpecker answer that is read. */
  readonly maxResponseBytes: number;
  /** Host, Origin and session limits of the HTTP transport. */
  readonly http: HttpPolicy;
}

type Env = Record<string, string | undefined>;

const TOKEN_VARIABLES = ['WOODPECKER_TOKEN'] as const;

/**
 * Reads the configuration and removes the token from `env` so that nothing started
 * later (a child process, a crash reporter) can read it from the environment.
 */
export function loadConfig(env: Env = process.env): Config {
  const woodpeckerToken = nonEmpty(env.WOODPECKER_TOKEN);
  for (const name of TOKEN_VARIABLES) delete env[name];
  // Copied with the header it was shown in: Woodpecker would get "Bearer Bearer …" and
  // refuse every call. The value is not repeated.
  if (woodpeckerToken && /^bearer\s/i.test(woodpeckerToken)) {
    throw new ConfigError(
      'WOODPECKER_TOKEN starts with "Bearer ": set it to the token alone; the server adds "Bearer " itself.',
    );
  }

  return {
    woodpeckerUrl: parseWoodpeckerUrl(env.WOODPECKER_URL),
    woodpeckerToken,
    insecureTls: parseFlag(env, 'WOODPECKER_INSECURE_TLS'),
    elicitation: parseElicitation(env.ELICITATION),
    readOnly: parseFlag(env, 'WOODPECKER_READ_ONLY'),
    allowTools: parseList(env.WOODPECKER_ALLOW_TOOLS),
    denyTools: parseList(env.WOODPECKER_DENY_TOOLS) ?? [],
    hideAdminTools:
      env.WOODPECKER_HIDE_ADMIN_TOOLS === undefined || env.WOODPECKER_HIDE_ADMIN_TOOLS === ''
        ? true
        : parseFlag(env, 'WOODPECKER_HIDE_ADMIN_TOOLS'),
    dynamicTools: parseFlag(env, 'WOODPECKER_DYNAMIC_TOOLS'),
    repositories: parseRepositories(env.WOODPECKER_REPOS),
    sealKey: parseSealKey(env.WOODPECKER_MCP_SEAL_KEY),
    auditLogPath: nonEmpty(env.WOODPECKER_MCP_AUDIT_LOG),
    policyPath: policyPathOf(env.WOODPECKER_MCP_POLICY),
    requestTimeoutMs: parseTimeout(env.WOODPECKER_TIMEOUT_SECONDS),
    maxResultBytes: parseByteLimit(
      env,
      'WOODPECKER_MCP_MAX_RESULT_BYTES',
      DEFAULT_MAX_RESULT_BYTES,
    ),
    maxResponseBytes: parseByteLimit(
      env,
      'WOODPECKER_MCP_MAX_RESPONSE_BYTES',
      DEFAULT_MAX_RESPONSE_BYTES,
    ),
    http: parseHttpPolicy(env),
  };
}

/**
 * An empty WOODPECKER_MCP_POLICY stops the server rather than meaning "no policy": it is
 * what a deployment template writes when the path it meant to fill in is missing, and the
 * operator would believe their rules in force.
 */
function policyPathOf(value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '')
    throw new ConfigError(
      'WOODPECKER_MCP_POLICY is set but empty. Point it at the policy file, or unset it (remove the variable) to run without an operator policy.',
    );
  return value;
}

function parseHttpPolicy(env: Env): HttpPolicy {
  const maxSessions = parseWholeNumber(
    env,
    'WOODPECKER_MCP_MAX_SESSIONS',
    DEFAULT_SESSION_LIMITS.maxSessions,
    2,
    100_000,
  );
  const perAccount = parseWholeNumber(
    env,
    'WOODPECKER_MCP_SESSIONS_PER_TOKEN',
    DEFAULT_SESSION_LIMITS.perAccount,
    1,
    100_000,
  );
  // One account must never be able to take every place, or it locks out everyone else.
  if (perAccount >= maxSessions) {
    throw new ConfigError(
      `WOODPECKER_MCP_SESSIONS_PER_TOKEN (${perAccount}) must be below WOODPECKER_MCP_MAX_SESSIONS (${maxSessions}), so that one client cannot take every session.`,
    );
  }
  const idleSeconds = parseWholeNumber(
    env,
    'WOODPECKER_MCP_SESSION_IDLE_SECONDS',
    DEFAULT_SESSION_LIMITS.idleMs / 1000,
    1,
    86_400,
  );
  return {
    allowedHosts: parseAllowedHosts(env.WOODPECKER_MCP_ALLOWED_HOSTS),
    allowedOrigins: parseAllowedOrigins(env.WOODPECKER_MCP_ALLOWED_ORIGINS),
    sessions: { maxSessions, perAccount, idleMs: idleSeconds * 1000 },
  };
}

function parseAllowedHosts(raw: string | undefined): string[] {
  const entries = parseList(raw) ?? [];
  for (const [index, entry] of entries.entries()) {
    if (!parseHost(entry)) {
      // Named by position, never repeated: a pasted value may carry credentials.
      throw new ConfigError(
        `WOODPECKER_MCP_ALLOWED_HOSTS entry ${index + 1} is not a host name with an optional port. Separate entries with commas, for example WOODPECKER_MCP_ALLOWED_HOSTS=mcp.internal,mcp.example.com:443`,
      );
    }
  }
  return entries.map((entry) => entry.toLowerCase());
}

function parseAllowedOrigins(raw: string | undefined): string[] {
  return (parseList(raw) ?? []).map((entry, index) => {
    const origin = canonicalOrigin(entry);
    if (!origin) {
      // Named by position, never repeated: an origin pasted with user:pass@ is a credential.
      throw new ConfigError(
        `WOODPECKER_MCP_ALLOWED_ORIGINS entry ${index + 1} is not an origin. Write scheme, host and port only, separated by commas, for example WOODPECKER_MCP_ALLOWED_ORIGINS=http://localhost:6274`,
      );
    }
    return origin;
  });
}

function parseWholeNumber(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = nonEmpty(env[name]);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return number;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** The first segment of a web UI page: a repository, an organization, the admin or user settings. */
const UI_PAGE = /\/(repos|org|orgs|admin|user)(?:\/|$)/;

export function parseWoodpeckerUrl(raw: string | undefined): string | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  // `ci.example.com` or `localhost:8000`: the most common slip, and `new URL` would read
  // the second as a URL with the scheme "localhost:".
  if (!value.includes('://')) {
    throw new ConfigError(
      'WOODPECKER_URL has no scheme: put https:// in front of the address (https://ci.example.com), or http:// if your Woodpecker serves plain HTTP (a local one, http://localhost:8000).',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      'WOODPECKER_URL is not a valid URL. Set it to the address of your Woodpecker server, for example https://ci.example.com',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      'WOODPECKER_URL must start with http:// or https:// (it uses another scheme). Set it to the address of your Woodpecker server, for example https://ci.example.com',
    );
  }
  if (url.username || url.password) {
    throw new ConfigError(
      'WOODPECKER_URL must not contain a user name or password. Remove them from the URL and put your API token in WOODPECKER_TOKEN instead.',
    );
  }
  if (url.search || url.hash) {
    throw new ConfigError(
      'WOODPECKER_URL must not contain a query or fragment. Use only the server address, for example https://ci.example.com',
    );
  }
  // A page of the web UI pasted from the browser's address bar: every API path would be
  // appended to it. The part before the page is the instance (Woodpecker may live under a
  // sub-path), and that is what to set.
  const page = UI_PAGE.exec(url.pathname);
  if (page) {
    throw new ConfigError(
      `WOODPECKER_URL is the address of a page in Woodpecker's web UI (/${page[1]}/…), not of the instance. Set it to ${url.protocol}//${url.host}${url.pathname.slice(0, page.index)}`,
    );
  }
  // People paste the API base they see in the docs; the server root is what we need.
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/api')) path = path.slice(0, -'/api'.length);
  return `${url.protocol}//${url.host}${path}`;
}

// This is the one variable of the family that defaults to on, and it is deliberately
// strict: a typo that fell back to the default would leave dialogs running while the
// operator believed they were off.
export function parseElicitation(raw: string | undefined): boolean {
  if (raw === undefined) return true;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(
    'ELICITATION must be exactly true or false (it is set to something else). true (the default) asks a person through a dialog; false makes guarded tools fall back to the two-call token.',
  );
}

// Booleans of this family are the exact string `true`; anything else that is set is
// refused rather than read as false, so `WOODPECKER_READ_ONLY=1` cannot silently
// leave write tools enabled.
function parseFlag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be exactly true or false (it is set to something else).`);
}

function parseList(raw: string | undefined): string[] | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

// owner/name or owner/*, where the owner may be a nested group (group/subgroup/name).
const REPOSITORY_PATTERN = /^[^/\s*]+(\/[^/\s*]+)*\/(\*|[^/\s*]+)$/;

function parseRepositories(raw: string | undefined): string[] | undefined {
  const entries = parseList(raw);
  if (entries === undefined) return undefined;
  // The entry is named by its position, not repeated: a value pasted into the wrong
  // variable (a token) must not reach a log through this message.
  entries.forEach((entry, index) => {
    if (!REPOSITORY_PATTERN.test(entry)) {
      throw new ConfigError(
        `WOODPECKER_REPOS entry ${index + 1} of ${entries.length} is not of the form owner/name or owner/* (an owner may be a nested group: group/subgroup/*). Separate entries with commas, for example WOODPECKER_REPOS=acme/*,tools/website`,
      );
    }
  });
  return entries;
}

function parseSealKey(raw: string | undefined): Buffer | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const key = Buffer.from(value, 'utf8');
  if (key.length < 32) {
    throw new ConfigError(
      'WOODPECKER_MCP_SEAL_KEY must be at least 32 bytes long. Generate one with: openssl rand -base64 48',
    );
  }
  return key;
}

/** Bounds for both byte limits: below 1 kB no answer is useful, above 1 GiB none is safe. */
const MIN_BYTE_LIMIT = 1_024;
const MAX_BYTE_LIMIT = 1_073_741_824;

function parseByteLimit(env: Env, name: string, fallback: number): number {
  const value = nonEmpty(env[name]);
  if (value === undefined) return fallback;
  const bytes = Number(value);
  if (!/^\d+$/.test(value) || bytes < MIN_BYTE_LIMIT || bytes > MAX_BYTE_LIMIT) {
    throw new ConfigError(
      `${name} must be a whole number of bytes from ${MIN_BYTE_LIMIT} to ${MAX_BYTE_LIMIT} (the default is ${fallback}).`,
    );
  }
  return bytes;
}

function parseTimeout(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return 30_000;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) {
    throw new ConfigError(
      'WOODPECKER_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 600.',
    );
  }
  return seconds * 1000;
}
