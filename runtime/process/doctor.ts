// `woodpecker-ci-mcp doctor`: reads the same environment as the server and checks, in the
// order a newcomer trips over them, everything that makes a configured server useless:
// configuration, tool selection, audit log, the URL (reachable, really Woodpecker, which
// release), the token (valid, whose, admin), clear-text http. Each finding says how to fix
// it; the exit code is 1 when any finding blocks. The token itself is never printed.
import { tools as allTools } from '../../generated/index.js';
import { AuditLog, AuditLogUnusable } from '../call/auditLog.js';
import { listedTool } from '../mcp/toolListing.js';
import { discoveryTools } from '../mcp/discovery.js';
import { listedSchemaOf } from '../mcp/listedSchema.js';
import { readJson } from '../woodpecker/startupRead.js';
import { loadPolicyFile, PolicyFileRefused } from '../policy/policyFile.js';
import { OperatorPolicy } from '../policy/operatorPolicy.js';
import { releaseOf } from '../call/serverVersion.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { isLoopbackName } from '../http/hostCheck.js';
import {
  oldestWoodpeckerRelease as OLDEST_RELEASE,
  pinnedWoodpeckerRelease as SPEC_RELEASE,
} from '../../generated/woodpeckerReleases.js';
import measuredTokens from './listedToolTokens.json' with { type: 'json' };
import { packageVersion } from './packageVersion.js';
import { checkSelection } from './selectionCheck.js';
import { selectTools } from './toolSelection.js';
import type { ToolDefinition } from '../core/tool.js';
import {
  WoodpeckerClient,
  WoodpeckerHttpError,
  WoodpeckerNotApiError,
} from '../woodpecker/woodpeckerClient.js';
import { CURRENT_USER, CURRENT_USER_PATH } from '../woodpecker/currentUser.js';

type Level = 'ok' | 'note' | 'warning' | 'BLOCKING';
const LEVEL_ORDER: readonly Level[] = ['BLOCKING', 'warning', 'note', 'ok'];

export interface Finding {
  readonly level: Level;
  readonly text: string;
  readonly fix?: string;
}

/** Runs every check, prints one finding per line (and its fix), returns the exit code. */
export async function runDoctor(
  env: Record<string, string | undefined>,
  print: (line: string) => void,
): Promise<number> {
  print(`woodpecker-ci-mcp ${packageVersion()} doctor`);
  // What stops the server first: a newcomer fixes from the top.
  const findings = [...(await diagnose(env))].sort(
    (a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level),
  );
  for (const finding of findings) {
    print(`${finding.level.padEnd(8)} ${finding.text}`);
    if (finding.fix) print(`         fix: ${finding.fix}`);
  }
  const blocking = findings.filter((finding) => finding.level === 'BLOCKING').length;
  print(
    blocking === 0
      ? 'Nothing blocks this configuration.'
      : `${blocking} finding(s) block this configuration; the server would not work as configured.`,
  );
  return blocking === 0 ? 0 : 1;
}

export async function diagnose(env: Record<string, string | undefined>): Promise<Finding[]> {
  let config: Config;
  try {
    config = loadConfig({ ...env });
  } catch (error) {
    if (error instanceof ConfigError)
      return [{ level: 'BLOCKING', text: `configuration: ${error.message}` }];
    throw error;
  }
  const findings: Finding[] = [];
  const tools = selectionFindings(config, findings);
  auditFinding(config, findings);
  policyFinding(config, findings);
  elicitationFinding(config, findings);
  sealKeyFinding(config, findings);
  if (!config.woodpeckerUrl) {
    findings.push({
      level: 'BLOCKING',
      text: 'WOODPECKER_URL is not set; every call would fail.',
      fix: 'Set WOODPECKER_URL to your Woodpecker address, for example https://ci.example.com',
    });
    return findings;
  }
  const url = new URL(config.woodpeckerUrl);
  if (url.protocol === 'http:' && !isLoopbackName(url.hostname)) {
    findings.push({
      level: 'warning',
      text: `WOODPECKER_URL uses plain http:// to ${url.hostname}, which is not this machine: every token crosses the network unencrypted.`,
      fix: 'Use https:// unless the whole network path is trusted.',
    });
  }
  const client = new WoodpeckerClient({
    baseUrl: config.woodpeckerUrl,
    insecureTls: config.insecureTls,
    timeoutMs: Math.min(config.requestTimeoutMs, 10_000),
    maxBodyBytes: 1_000_000,
  });
  try {
    const version = await versionFindings(client, config, findings);
    if (version === false) return findings;
    const account = await tokenFindings(client, config, tools, findings);
    findings.push(listFinding(config, tools, releaseOf(version), account));
  } finally {
    await client.close();
  }
  return findings;
}

/**
 * The list the client will get, as tools/list builds it: the selection, less what this
 * Woodpecker release lacks, less admin-only tools for an account that is not an admin
 * (WOODPECKER_HIDE_ADMIN_TOOLS), and in dynamic mode the essential tools and the two that
 * find and enable the rest.
 */
function listFinding(
  config: Config,
  tools: readonly ToolDefinition[],
  release: readonly number[] | undefined,
  account: { admin: boolean } | undefined,
): Finding {
  const offered = tools.filter(
    (tool) =>
      !release ||
      tool.availableSince === undefined ||
      compare(release, releaseOf(tool.availableSince) ?? [0, 0, 0]) >= 0,
  );
  const hidden =
    config.hideAdminTools && account && !account.admin
      ? offered.filter((tool) => tool.adminOnly)
      : [];
  const visible = offered.filter((tool) => !hidden.includes(tool));
  const listed = config.dynamicTools
    ? [
        ...visible.filter((tool) => tool.essential).map(listedTool),
        // As runtime/mcp/server.ts lists them.
        ...discoveryTools(tools).map((tool) => ({
          ...tool,
          inputSchema: listedSchemaOf(tool.inputSchema as never),
        })),
      ]
    : visible.map(listedTool);
  const left = [
    offered.length < tools.length
      ? `${tools.length - offered.length} this Woodpecker release lacks`
      : '',
    hidden.length > 0 ? `${hidden.length} admin-only (WOODPECKER_HIDE_ADMIN_TOOLS)` : '',
    config.dynamicTools ? 'the toolsets not yet enabled (WOODPECKER_DYNAMIC_TOOLS)' : '',
  ].filter(Boolean);
  return {
    level: 'ok',
    text: `the client's tool list: ${listed.length} tools, ${tokensText(listed)} of context on every turn${left.length > 0 ? `; left out: ${left.join(', ')}` : ''}.`,
  };
}

function selectionFindings(config: Config, findings: Finding[]): readonly ToolDefinition[] {
  try {
    const tools = selectTools(allTools, config);
    checkSelection(allTools, config, tools);
    findings.push({
      level: 'ok',
      text: `tool selection: ${tools.length} of ${allTools.length} tools (${tokensText(tools.map(listedTool))} as a list; what the client gets is below).`,
    });
    return tools;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    findings.push({ level: 'BLOCKING', text: `tool selection: ${error.message}` });
    return [];
  }
}

/**
 * Bytes of the tool list's JSON per o200k token, measured on this catalogue's lists
 * (4.28 to 4.37 for all, read-only and essential tools): the estimate for an entry the
 * table below does not hold.
 */
const BYTES_PER_TOKEN = 4.3;

/**
 * The o200k tokens of each tool's tools/list entry as measured, by name: [bytes, tokens].
 * `npm run docs:figures` writes the file; test/unit/docsFigures.test.ts holds it to the
 * entries the server builds and the totals to docs/configuration.md's table.
 */
const MEASURED: Readonly<Record<string, readonly number[] | undefined>> = measuredTokens;

/**
 * What a list of the entries tools/list sends costs in tokens: the measured tokens of
 * each entry, plus 2 for the brackets (the commas between entries merge into their
 * neighbours' tokens; exact on every list docs/configuration.md measures). `exact` is
 * false when an entry differs from the one measured (another configuration shaped it)
 * and was estimated from its bytes.
 */
export function listTokens(listed: readonly unknown[]): { tokens: number; exact: boolean } {
  let tokens = 2;
  let exact = true;
  for (const entry of listed) {
    const bytes = Buffer.byteLength(JSON.stringify(entry));
    const known = MEASURED[String((entry as { name?: unknown }).name)];
    if (known?.[0] === bytes && known[1] !== undefined) tokens += known[1];
    else {
      tokens += bytes / BYTES_PER_TOKEN;
      exact = false;
    }
  }
  return { tokens: Math.round(tokens), exact };
}

/** "9,427 tokens" when measured, "about 9,400 tokens" when estimated. */
function tokensText(listed: readonly unknown[]): string {
  const { tokens, exact } = listTokens(listed);
  return exact
    ? `${tokens.toLocaleString('en-US')} tokens`
    : `about ${(Math.round(tokens / 100) * 100).toLocaleString('en-US')} tokens`;
}

function auditFinding(config: Config, findings: Finding[]): void {
  if (!config.auditLogPath) {
    findings.push({
      level: 'note',
      text: 'WOODPECKER_MCP_AUDIT_LOG is not set: write calls are not recorded.',
      fix: 'Set it to a file path to keep one JSON line per write call.',
    });
    return;
  }
  try {
    new AuditLog(config.auditLogPath).close();
    findings.push({ level: 'ok', text: 'WOODPECKER_MCP_AUDIT_LOG can be appended to.' });
  } catch (error) {
    if (!(error instanceof AuditLogUnusable)) throw error;
    findings.push({ level: 'BLOCKING', text: error.message });
  }
}

/** The operator's rules in force, one line each, or why the file would stop the server. */
function policyFinding(config: Config, findings: Finding[]): void {
  if (!config.policyPath) return;
  try {
    const { rules } = loadPolicyFile(config.policyPath, allTools);
    const policy = new OperatorPolicy(config.policyPath, rules);
    findings.push({
      level: 'ok',
      text: `WOODPECKER_MCP_POLICY: ${rules.length} rule(s) in force from ${config.policyPath}:\n${policy
        .describe()
        .map((line) => `           ${line}`)
        .join('\n')}`,
    });
  } catch (error) {
    if (!(error instanceof PolicyFileRefused)) throw error;
    findings.push({ level: 'BLOCKING', text: error.message });
  }
}

function elicitationFinding(config: Config, findings: Finding[]): void {
  findings.push(
    config.elicitation
      ? {
          level: 'ok',
          text: 'ELICITATION is on: guarded tools ask a person through a dialog where the client can show one, else they hand out a two-call confirm_token.',
        }
      : {
          level: 'note',
          text: 'ELICITATION=false: guarded tools never show a dialog; they answer with a two-call confirm_token, which proves only that a call was made twice.',
          fix: 'Unset ELICITATION if your client can show dialogs.',
        },
  );
}

function sealKeyFinding(config: Config, findings: Finding[]): void {
  if (config.sealKey || config.woodpeckerToken) return;
  findings.push({
    level: 'note',
    text: 'neither WOODPECKER_MCP_SEAL_KEY nor WOODPECKER_TOKEN is set: each server process signs confirm tokens with its own random key, so a client that starts a new process per call cannot use them.',
    fix: 'Set WOODPECKER_MCP_SEAL_KEY (openssl rand -base64 48) if such a client or several replicas use this server.',
  });
}

/** GET /version: reachable, really Woodpecker, and which release. False when nothing further can be checked. */
async function versionFindings(
  client: WoodpeckerClient,
  config: Config,
  findings: Finding[],
): Promise<string | false> {
  const woodpeckerUrl = config.woodpeckerUrl!;
  let version: unknown;
  try {
    version = (
      (await client.send({ method: 'GET', path: '/version' }, { token: undefined })).body as
        { version?: unknown } | undefined
    )?.version;
  } catch (error) {
    // https:// to a plain-http Woodpecker (or the reverse, often a redirect) is a fix of
    // one word: try the other scheme before explaining anything else.
    const other = await otherScheme(config);
    if (other) {
      findings.push({
        level: 'BLOCKING',
        text: `${woodpeckerUrl} does not answer as Woodpecker, but ${other} does.`,
        fix: `Set WOODPECKER_URL=${other}`,
      });
      return false;
    }
    findings.push(
      error instanceof WoodpeckerHttpError || error instanceof WoodpeckerNotApiError
        ? {
            level: 'BLOCKING',
            text: `${woodpeckerUrl} answers, but not as Woodpecker does (GET /version: ${error instanceof WoodpeckerHttpError ? `HTTP ${error.status}` : 'not JSON'}).`,
            fix: 'Set WOODPECKER_URL to the address you open Woodpecker at in a browser, without /api.',
          }
        : {
            level: 'BLOCKING',
            text: `${woodpeckerUrl} cannot be reached (${error instanceof Error ? error.message.replace(/^.*: /, '') : 'no answer'}).`,
            fix: 'Check the address and that this machine can reach it (proxy, VPN, firewall).',
          },
    );
    return false;
  }
  if (typeof version !== 'string') {
    findings.push({
      level: 'BLOCKING',
      text: `${woodpeckerUrl}/version answers JSON without a version: this is not Woodpecker.`,
      fix: 'Set WOODPECKER_URL to your Woodpecker address.',
    });
    return false;
  }
  reportRelease(version, woodpeckerUrl, findings);
  return version;
}

/** The same address with the other scheme, when Woodpecker answers /version there. */
async function otherScheme(config: Config): Promise<string | undefined> {
  const url = new URL(config.woodpeckerUrl!);
  url.protocol = url.protocol === 'https:' ? 'http:' : 'https:';
  const other = url.href.replace(/\/$/, '');
  try {
    const answer = await readJson(
      { baseUrl: other, insecureTls: config.insecureTls, timeoutMs: 5_000 },
      '/version',
      undefined,
    );
    return typeof (answer.body as { version?: unknown } | undefined)?.version === 'string'
      ? other
      : undefined;
  } catch {
    return undefined;
  }
}

function reportRelease(version: string, woodpeckerUrl: string, findings: Finding[]): void {
  const release = releaseOf(version);
  const spec = releaseOf(SPEC_RELEASE)!;
  const oldest = releaseOf(OLDEST_RELEASE)!;
  if (!release) {
    findings.push({
      level: 'note',
      text: `Woodpecker ${version} (a development build) answers; this server was built from ${SPEC_RELEASE}'s API and tested back to ${OLDEST_RELEASE}.`,
    });
  } else if (compare(release, oldest) < 0) {
    findings.push({
      level: 'warning',
      text: `Woodpecker ${version} is older than ${OLDEST_RELEASE}, the oldest release this server is tested with; some tools will fail.`,
      fix: `Upgrade Woodpecker to ${SPEC_RELEASE} or at least ${OLDEST_RELEASE}.`,
    });
  } else if (release[0] !== spec[0] || (release[1] ?? 0) > (spec[1] ?? 0)) {
    findings.push({
      level: 'note',
      text: `Woodpecker ${version} is newer than ${SPEC_RELEASE}, the release this server's API description comes from; new fields are passed through, new endpoints have no tool.`,
    });
  } else {
    findings.push({
      level: 'ok',
      text: `${woodpeckerUrl} is Woodpecker ${version} (this server was built from ${SPEC_RELEASE}'s API, tested back to ${OLDEST_RELEASE}).`,
    });
  }
}

/** Checks the token; resolves with whether its account is an admin, when that is known. */
async function tokenFindings(
  client: WoodpeckerClient,
  config: Config,
  tools: readonly ToolDefinition[],
  findings: Finding[],
): Promise<{ admin: boolean } | undefined> {
  if (!config.woodpeckerToken) {
    findings.push({
      level: 'warning',
      text: 'WOODPECKER_TOKEN is not set: over stdio every call that needs an account fails; over HTTP each request must bring "Authorization: Bearer <token>".',
      fix: 'Set WOODPECKER_TOKEN to a personal access token (Woodpecker → your user settings → Personal access token).',
    });
    return undefined;
  }
  let user: { login?: unknown; admin?: unknown };
  try {
    user = (await client.send(CURRENT_USER, { token: config.woodpeckerToken })).body as typeof user;
  } catch (error) {
    const refused =
      error instanceof WoodpeckerHttpError && (error.status === 401 || error.status === 403);
    findings.push(
      refused
        ? {
            level: 'BLOCKING',
            text: `Woodpecker refuses WOODPECKER_TOKEN (HTTP ${(error as WoodpeckerHttpError).status} to GET ${CURRENT_USER_PATH}): it is wrong, expired or was revoked.`,
            fix: 'Create a new personal access token (Woodpecker → your user settings → Personal access token) and set WOODPECKER_TOKEN to it.',
          }
        : {
            level: 'BLOCKING',
            text: `WOODPECKER_TOKEN could not be checked (${error instanceof Error ? error.name : 'error'}).`,
            fix: 'Run doctor again; if it persists, check Woodpecker’s own logs.',
          },
    );
    return undefined;
  }
  const login = typeof user.login === 'string' ? user.login : 'an unnamed account';
  if (user.admin === true) {
    findings.push({
      level: 'ok',
      text: `WOODPECKER_TOKEN is valid: the server acts as ${login}, an instance admin, so every selected tool can answer.`,
    });
    return { admin: true };
  }
  const adminTools = tools.filter((tool) => tool.adminOnly).map((tool) => tool.name);
  findings.push(
    adminTools.length === 0
      ? {
          level: 'ok',
          text: `WOODPECKER_TOKEN is valid: the server acts as ${login} (not an admin); no selected tool needs an admin.`,
        }
      : config.hideAdminTools
        ? {
            level: 'ok',
            text: `WOODPECKER_TOKEN is valid: the server acts as ${login}, who is not an instance admin; the ${adminTools.length} admin-only tools are left out of the client's list (WOODPECKER_HIDE_ADMIN_TOOLS).`,
          }
        : {
            level: 'note',
            text: `WOODPECKER_TOKEN is valid: the server acts as ${login}, who is not an instance admin, and WOODPECKER_HIDE_ADMIN_TOOLS=false lists the ${adminTools.length} admin-only tools anyway; they will answer 403: ${adminTools.join(', ')}.`,
            fix: 'Unset WOODPECKER_HIDE_ADMIN_TOOLS to leave them out of the list, or use an admin’s token if you need them.',
          },
  );
  return { admin: false };
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
