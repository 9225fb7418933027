// Turns anything that went wrong into an MCP tool error a model can act on: what
// happened, what it means here, what to try. Never a stack trace, never a token.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ToolInputError, ToolOutcomeError, errorResult } from '../core/errors.js';
import type { ToolDefinition } from '../core/tool.js';
import { RequestArgumentError } from '../woodpecker/requestParts.js';
import {
  WoodpeckerHttpError,
  WoodpeckerNotApiError,
  WoodpeckerResponseTooLargeError,
  WoodpeckerUnreachableError,
} from '../woodpecker/woodpeckerClient.js';

const STATUS_MEANING: Record<number, string> = {
  400: 'Woodpecker refused the request as malformed or impossible.',
  401: 'Woodpecker did not accept the API token (missing, revoked, or for another server).',
  403: 'The token is valid but its account may not do this (it may need to be an instance admin or a repository admin).',
  404: 'Woodpecker has no such object, or the token cannot see it.',
  405: 'Woodpecker does not allow this method here.',
  409: 'The change conflicts with the current state in Woodpecker.',
  422: 'Woodpecker understood the request but refused it in the current state.',
  500: 'Woodpecker failed internally while handling the request.',
  502: 'A proxy in front of Woodpecker could not reach it.',
  503: 'Woodpecker is unavailable right now.',
  504: 'A proxy in front of Woodpecker timed out.',
};

const REDIRECT_MEANING =
  'Woodpecker answered with a redirect, which it does only for a path that is not one of its API routes; it was not followed and nothing is known to have changed. Check the values that go into the path (ids and names).';

/** OpenSSL's errors for a TLS client that got a plain-HTTP answer instead of a handshake. */
const PLAIN_HTTP_TO_TLS =
  /ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG|wrong version number/;

const STATUS_ADVICE: Record<number, string> = {
  // Which token it was depends on the deployment, which this call does not know: over
  // HTTP a request's own Bearer token wins over WOODPECKER_TOKEN.
  401: 'The token is the request\'s "Authorization: Bearer" header when the client sends one (over HTTP), otherwise the server\'s WOODPECKER_TOKEN: create a new personal access token in Woodpecker (your user settings) and send or set it in its place.',
  403: 'Call get_current_user to see which account the token belongs to and whether it is an admin.',
  404: 'Check the ids (list_repositories, lookup_repository, list_pipelines give them).',
};

/**
 * The read tools that show what a write changed, as its definition names them, among the
 * tools this server offers (an operator may have left some out).
 */
export function readBackTools(tool: ToolDefinition, exists: (name: string) => boolean): string[] {
  return (tool.readBack ?? []).filter(exists);
}

function readBackAdvice(tool: ToolDefinition, exists: (name: string) => boolean): string {
  const reads = readBackTools(tool, exists);
  return reads.length > 0 ? reads.join(' or ') : 'a read (the matching get_ or list_ tool)';
}

export function describeFailure(
  tool: ToolDefinition,
  error: unknown,
  toolExists: (name: string) => boolean = () => false,
): CallToolResult {
  if (error instanceof WoodpeckerHttpError) {
    const parts = [
      `${tool.name} failed: Woodpecker answered HTTP ${error.status} to ${error.method} ${error.path}.`,
    ];
    if (error.detail) parts.push(`Woodpecker said: "${error.detail}".`);
    const meaning =
      STATUS_MEANING[error.status] ??
      (error.status >= 500
        ? STATUS_MEANING[500]
        : error.status < 400
          ? REDIRECT_MEANING
          : undefined);
    if (meaning) parts.push(meaning);
    const hint = tool.errorHints[String(error.status)];
    if (hint) parts.push(hint);
    const advice = STATUS_ADVICE[error.status];
    if (advice) parts.push(advice);
    if (error.status === 403 && tool.adminOnly) parts.push(`${tool.name} needs an instance admin.`);
    return errorResult(parts.join(' '));
  }
  if (error instanceof WoodpeckerNotApiError) {
    return errorResult(
      `${tool.name} failed: ${error.message}. Woodpecker's web UI answers paths the API does not know, so this server or its version probably lacks this route. Check WOODPECKER_URL (the server root, without /api) and the Woodpecker version (get_server_info).`,
    );
  }
  if (error instanceof WoodpeckerResponseTooLargeError) {
    return errorResult(`${tool.name} failed: ${error.message}.`);
  }
  if (error instanceof WoodpeckerUnreachableError) {
    // A TLS handshake answered in plain HTTP: the same fix doctor names, at the call.
    if (PLAIN_HTTP_TO_TLS.test(error.reason))
      return errorResult(
        `${tool.name} failed: ${error.message}. WOODPECKER_URL starts with https://, but the server at that address answers plain HTTP, not HTTPS. Set WOODPECKER_URL to the same address with http:// (run \`woodpecker-ci-mcp doctor\`: it tries the other scheme and names the address that answers as Woodpecker).`,
      );
    if (!error.outcomeUnknown) return errorResult(`${tool.name} failed: ${error.message}.`);
    // Woodpecker has no idempotency keys: a caller that simply retries may do it twice.
    return errorResult(
      `${tool.name} failed: ${error.message}. The request may have reached Woodpecker, so the outcome is unknown: ${error.method} ${error.path} may have been carried out. It was not sent again. Check the current state with ${readBackAdvice(tool, toolExists)} before calling ${tool.name} again.`,
    );
  }
  if (error instanceof ToolOutcomeError) {
    return errorResult(`${tool.name} failed: ${error.message}`);
  }
  if (error instanceof ToolInputError) {
    return errorResult(`${tool.name}: ${error.message}`);
  }
  if (error instanceof RequestArgumentError) {
    const described =
      error.param === undefined
        ? undefined
        : (tool.inputSchema.properties[error.param] as { description?: unknown } | undefined)
            ?.description;
    return errorResult(
      `${tool.name}: ${error.message}.${typeof described === 'string' ? ` ${error.param}: ${described}` : ''}`,
    );
  }
  // Anything else is our bug; say so without leaking internals.
  const message = error instanceof Error ? error.message : String(error);
  return errorResult(`${tool.name} failed unexpectedly inside woodpecker-ci-mcp: ${message}`);
}
