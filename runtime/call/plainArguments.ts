// The check after the schema: arguments that name something (a target, a branch, a
// secret, a registry, a user) must read as written (runtime/core/plainText.ts), and a
// branch must be one git would take (runtime/core/branchName.ts). Credentials, enum
// values and what tools.yaml marks `free_text` (a secret's note, a search pattern) are
// left alone, and so are a map's values (a pipeline variable may hold anything); its keys
// are names.
import { branchNameProblem } from '../core/branchName.js';
import { HTTP_URL_PATTERN } from '../core/httpUrl.js';
import { unreadableIn } from '../core/plainText.js';
import { registryAddressProblem } from '../core/registryAddress.js';

interface PropertySchema {
  readonly type?: unknown;
  readonly enum?: unknown;
  readonly writeOnly?: unknown;
  readonly items?: PropertySchema;
  readonly additionalProperties?: unknown;
  readonly 'x-free-text'?: unknown;
  readonly 'x-format'?: unknown;
  readonly pattern?: unknown;
}

/** The error for the first argument that would not be read as written, or undefined. */
export function unreadableArgument(
  input: unknown,
  schema: { readonly properties?: Readonly<Record<string, unknown>> },
): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    const property = schema.properties?.[name] as PropertySchema | undefined;
    if (!property || property['x-free-text'] === true || property.writeOnly === true) continue;
    const problem = problemOf(name, value, property);
    if (problem) return problem;
  }
  return undefined;
}

function problemOf(name: string, value: unknown, property: PropertySchema): string | undefined {
  if (typeof value === 'string' && property.enum === undefined) {
    const unreadable = unreadableIn(value);
    if (unreadable) return refusal(name, unreadable);
    if (property['x-format'] === 'registry_address') {
      const problem = registryAddressProblem(value);
      if (problem) return `${name} ${problem}`;
    }
    const branch = property['x-format'] === 'git_branch' ? branchNameProblem(value) : undefined;
    if (branch)
      return `${name} ${branch}: that is not a branch name git accepts, and the forge could read it as another branch. Give the branch as list_repository_branches shows it, and call again.`;
    // The pattern admits hostnames a URL parser refuses (xn-- labels that are not valid
    // punycode) and ports above 65535; Woodpecker would not reach them either.
    if (property.pattern === HTTP_URL_PATTERN && !URL.canParse(value))
      return `${name} is not a URL a client can reach: its host is not a valid name or address (an xn-- label that is not valid punycode, a number that is not an IPv4 address such as 1.2.3.256, or a last label of digits) or its port is above 65535. Give the forge's address as its users open it, for example https://gitea.example.com, and call again.`;
    // Port 0 parses, but no server listens there: Woodpecker would fail every login.
    if (property.pattern === HTTP_URL_PATTERN && new URL(value).port === '0')
      return `${name} gives port 0, which no forge listens on. Give the port the forge's users open (or none for 80 and 443), for example https://gitea.example.com:3000, and call again.`;
    // A number written as a host (0x7f.1, 2130706433, 127.1) is read as another address, so
    // a dialog would show a host the caller never wrote: only the spelling that reaches it.
    if (property.pattern === HTTP_URL_PATTERN && rewrittenHost(value))
      return `${name} writes its host as a number in a form a URL parser reads as another address (hexadecimal, octal, leading zeros, a single number or fewer than four parts). Write an IPv4 address as four decimal parts without leading zeros (for example 127.0.0.1) or give the host's name, and call again.`;
    return undefined;
  }
  if (Array.isArray(value) && property.items?.enum === undefined) {
    for (const [index, item] of value.entries()) {
      const unreadable = typeof item === 'string' ? unreadableIn(item) : undefined;
      if (unreadable) return refusal(`${name}[${index}]`, unreadable);
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object' && property.additionalProperties) {
    for (const key of Object.keys(value)) {
      const unreadable = unreadableIn(key);
      if (unreadable) return refusal(name, `has a key that ${unreadable}`);
    }
  }
  return undefined;
}

function refusal(field: string, problem: string): string {
  return `${field} ${problem}. Woodpecker, the forge or a step's shell would not read it as it reads here, and an operator's rule would not match it: remove the character or the whitespace, and call again.`;
}

/**
 * Whether a host written as a number (digits, hex, dots) is read as a different address.
 * Names, IPv6 literals and user-info are left alone: only numeric IPv4 forms are rewritten.
 */
function rewrittenHost(url: string): boolean {
  const written = /^https?:\/\/([0-9a-fx.]+)(?=[/:?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return written !== undefined && new URL(url).hostname !== written;
}
