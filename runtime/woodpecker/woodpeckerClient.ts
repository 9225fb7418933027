// The only code that speaks HTTP to Woodpecker. One undici Agent per process (keep-alive,
// connection reuse), a timeout on every call, JSON on every write, and no retries of
// calls that change something: Woodpecker has no idempotency keys, so a retried POST
// can start a second pipeline or move a repository twice.
import type { Dispatcher } from 'undici';
import { lazyModule } from '../core/lazyModule.js';
import type { WoodpeckerRequest } from '../core/tool.js';

export interface WoodpeckerResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Decoded JSON, the raw text of a text/plain answer, or undefined for an empty body. */
  readonly body: unknown;
}

/** One Woodpecker call with the caller's token and signal already bound (the executor's). */
export type Send = (request: WoodpeckerRequest) => Promise<WoodpeckerResponse>;

/** Woodpecker answered with an error status. */
export class WoodpeckerHttpError extends Error {
  override readonly name = 'WoodpeckerHttpError';
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    /** Woodpecker's own error text, trimmed; never contains request data we sent. */
    readonly detail: string,
  ) {
    super(`Woodpecker answered ${status} to ${method} ${path}${detail ? `: ${detail}` : ''}`);
  }
}

/**
 * Woodpecker answered something that is not the API: its web UI answers unknown /api
 * paths with an HTML page and status 200, which must never be taken for data.
 */
export class WoodpeckerNotApiError extends Error {
  override readonly name = 'WoodpeckerNotApiError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly contentType: string,
  ) {
    super(
      `Woodpecker answered ${method} ${path} with ${contentType || 'no content type'} instead of the API's JSON`,
    );
  }
}

/**
 * The server could not be reached, did not answer in time, or the connection broke before
 * its whole answer arrived.
 */
export class WoodpeckerUnreachableError extends Error {
  override readonly name = 'WoodpeckerUnreachableError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly reason: string,
    /**
     * A write that may have reached Woodpecker (it broke after the connection was made):
     * whether it was carried out is unknown, and it must not be sent again blindly.
     */
    readonly outcomeUnknown = false,
  ) {
    super(`Could not reach Woodpecker for ${method} ${path}: ${reason}`);
  }
}

/**
 * Woodpecker answered more than WOODPECKER_MCP_MAX_RESPONSE_BYTES: the rest is not read,
 * so one huge answer cannot exhaust this process's memory.
 */
export class WoodpeckerResponseTooLargeError extends Error {
  override readonly name = 'WoodpeckerResponseTooLargeError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly limit: number,
  ) {
    super(
      `Woodpecker's answer to ${method} ${path} is larger than ${limit} bytes, the most this server reads (WOODPECKER_MCP_MAX_RESPONSE_BYTES); ask for less (a smaller page or a narrower filter), or have the operator raise WOODPECKER_MCP_MAX_RESPONSE_BYTES`,
    );
  }
}

/**
 * The default ceiling on one answer's body. Step logs are the largest answers: a
 * 200,000-line log is 25 to 50 MB of JSON (base64 lines with their metadata), and
 * get_step_logs, search_logs and get_pipeline_failure read a step's log to its end
 * (streamed: the ceiling counts every byte, though only a window is kept).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface WoodpeckerClientOptions {
  readonly baseUrl: string;
  readonly insecureTls: boolean;
  readonly timeoutMs: number;
  /** The most bytes of one answer's body that are read; DEFAULT_MAX_RESPONSE_BYTES if not given. */
  readonly maxBodyBytes?: number;
  /** For tests: a dispatcher to use instead of a real connection pool. */
  readonly dispatcher?: Dispatcher;
}

export interface SendOptions {
  /** The Woodpecker API token for this call; undefined sends no Authorization header. */
  readonly token: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

const MAX_ERROR_DETAIL = 300;

const undici = lazyModule<typeof import('undici')>('undici');

export class WoodpeckerClient {
  // Made on the first call: a server that only lists its tools never loads undici.
  private pool: Dispatcher | undefined;

  constructor(private readonly options: WoodpeckerClientOptions) {
    this.pool = options.dispatcher;
  }

  private get dispatcher(): Dispatcher {
    return (this.pool ??= new (undici().Agent)({
      keepAliveTimeout: 30_000,
      connections: 16,
      // Only for this connection: the rest of the process keeps verifying certificates.
      connect: this.options.insecureTls ? { rejectUnauthorized: false } : {},
    }));
  }

  /** WOODPECKER_URL as configured: the one host whose links resolve_link accepts. */
  get baseUrl(): string {
    return this.options.baseUrl;
  }

  async send(req: WoodpeckerRequest, { token, signal }: SendOptions): Promise<WoodpeckerResponse> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const response = await this.dispatch(req, token, signal, timeout);
    let text: string;
    try {
      text = await readBounded(
        response,
        this.options.maxBodyBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        req,
      );
    } catch (error) {
      if (error instanceof WoodpeckerResponseTooLargeError) throw error;
      // Woodpecker answered with a status but its body was cut off or never finished: the
      // request arrived, so for a write the change may well have been made.
      throw this.bodyBroken(req, response, timeout, signal, req.method !== 'GET');
    }
    const flatHeaders = flattenHeaders(response.headers);
    const contentType = flatHeaders['content-type'] ?? '';

    // A redirect is never followed (undici's request does not) and never success: the API
    // answers with one only when the path is not a route (gin's trailing-slash redirect),
    // and following it could send a DELETE to the parent object.
    if (response.statusCode >= 300) {
      throw new WoodpeckerHttpError(
        response.statusCode,
        req.method,
        req.path,
        errorDetail(text, contentType),
      );
    }
    if (text.length === 0)
      return { status: response.statusCode, headers: flatHeaders, body: undefined };
    if (contentType.includes('text/html') || /^\s*<(!doctype|html)/i.test(text)) {
      throw new WoodpeckerNotApiError(req.method, req.path, contentType);
    }
    if (
      contentType.includes('json') ||
      /^\s*[[{"]/.test(text) ||
      /^\s*(null|true|false|-?\d)/.test(text)
    ) {
      try {
        return {
          status: response.statusCode,
          headers: flatHeaders,
          body: JSON.parse(text) as unknown,
        };
      } catch {
        if (contentType.includes('json'))
          throw new WoodpeckerNotApiError(req.method, req.path, contentType);
      }
    }
    return { status: response.statusCode, headers: flatHeaders, body: text };
  }

  /**
   * A GET whose body is handed over as text while it arrives, never held whole: step logs
   * are the largest answers, and a handler that keeps a window of them should not first
   * buffer all of them. Errors, web pages and the size limit are handled as in send().
   * `onText` returns false to stop reading (the rest of the body is discarded).
   */
  async stream(
    req: WoodpeckerRequest,
    { token, signal }: SendOptions,
    onText: (text: string) => boolean | void,
  ): Promise<void> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const response = await this.dispatch(req, token, signal, timeout);
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const contentType = flattenHeaders(response.headers)['content-type'] ?? '';
    const isWrite = req.method !== 'GET';
    if (response.statusCode >= 300) {
      let text: string;
      try {
        text = await readBounded(response, limit, req);
      } catch (error) {
        if (error instanceof WoodpeckerResponseTooLargeError) throw error;
        throw this.bodyBroken(req, response, timeout, signal, isWrite);
      }
      throw new WoodpeckerHttpError(
        response.statusCode,
        req.method,
        req.path,
        errorDetail(text, contentType),
      );
    }
    if (contentType.includes('text/html')) {
      response.body.destroy();
      throw new WoodpeckerNotApiError(req.method, req.path, contentType);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      response.body.destroy();
      throw new WoodpeckerResponseTooLargeError(req.method, req.path, limit);
    }
    const decoder = new TextDecoder();
    let received = 0;
    let started = false;
    const chunks = response.body[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch {
        // The body broke off while it arrived (reset, timeout, cancel): said as in send(),
        // never taken for a shorter answer.
        throw this.bodyBroken(req, response, timeout, signal, isWrite);
      }
      if (next.done) break;
      const buffer = next.value as Buffer;
      received += buffer.length;
      if (received > limit) {
        response.body.destroy();
        throw new WoodpeckerResponseTooLargeError(req.method, req.path, limit);
      }
      const text = decoder.decode(buffer, { stream: true });
      // A web page sent without its content type is still not the API.
      if (!started && text.trim().length > 0) {
        started = true;
        if (/^\s*</.test(text)) {
          response.body.destroy();
          throw new WoodpeckerNotApiError(req.method, req.path, contentType);
        }
      }
      let more: boolean | void;
      try {
        more = onText(text);
      } catch (error) {
        response.body.destroy();
        throw error;
      }
      if (more === false) {
        response.body.destroy();
        return;
      }
    }
    onText(decoder.decode());
  }

  private bodyBroken(
    req: WoodpeckerRequest,
    response: Dispatcher.ResponseData,
    timeout: AbortSignal,
    signal: AbortSignal | undefined,
    isWrite: boolean,
  ): WoodpeckerUnreachableError {
    const reason = timeout.aborted
      ? `its answer (HTTP ${response.statusCode}) did not finish within ${Math.round(this.options.timeoutMs / 1000)} s`
      : signal?.aborted
        ? 'the request was cancelled while its answer arrived'
        : `the connection broke while its answer (HTTP ${response.statusCode}) arrived`;
    return new WoodpeckerUnreachableError(req.method, req.path, reason, isWrite);
  }

  private async dispatch(
    req: WoodpeckerRequest,
    token: string | undefined,
    signal: AbortSignal | undefined,
    timeout: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    const url = new URL(this.options.baseUrl + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) url.searchParams.set(key, value);

    const headers: Record<string, string> = { accept: 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    // Every write carries JSON, even with no body: without the header Woodpecker binds
    // nothing and, for the log level, silently switches logging off.
    const isWrite = req.method !== 'GET';
    if (isWrite) headers['content-type'] = 'application/json';
    const body = isWrite ? JSON.stringify(req.body ?? {}) : undefined;

    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;

    try {
      return await undici().request(url, {
        method: req.method,
        headers,
        ...(body === undefined ? {} : { body }),
        dispatcher: this.dispatcher,
        signal: combined,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
    } catch (error) {
      const reason = timeout.aborted
        ? `no answer within ${Math.round(this.options.timeoutMs / 1000)} s`
        : signal?.aborted
          ? 'the request was cancelled'
          : describeNetworkError(error);
      throw new WoodpeckerUnreachableError(
        req.method,
        req.path,
        reason,
        isWrite && !neverSent(error),
      );
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

// Counts bytes as they arrive and stops reading at the limit, rather than buffering
// whatever the server sends and checking afterwards.
async function readBounded(
  response: Dispatcher.ResponseData,
  limit: number,
  req: WoodpeckerRequest,
): Promise<string> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    response.body.destroy();
    throw new WoodpeckerResponseTooLargeError(req.method, req.path, limit);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of response.body) {
    const buffer = chunk as Buffer;
    received += buffer.length;
    if (received > limit) {
      response.body.destroy();
      throw new WoodpeckerResponseTooLargeError(req.method, req.path, limit);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function errorDetail(text: string, contentType: string): string {
  if (!text || contentType.includes('text/html') || /^\s*</.test(text)) return '';
  let detail = text.trim();
  try {
    const parsed = JSON.parse(detail) as unknown;
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      // Keep what comes with the message (repair's failed_repos ids): it says what failed.
      const { error, ...rest } = parsed as Record<string, unknown>;
      detail =
        Object.keys(rest).length > 0 ? `${String(error)} ${JSON.stringify(rest)}` : String(error);
    } else if (parsed && typeof parsed === 'object' && 'message' in parsed)
      detail = String((parsed as { message: unknown }).message);
  } catch {
    // plain text is what most Woodpecker handlers answer
  }
  detail = detail.replace(/\s+/g, ' ');
  return detail.length > MAX_ERROR_DETAIL ? `${detail.slice(0, MAX_ERROR_DETAIL)}…` : detail;
}

function errorCode(error: unknown): unknown {
  return (
    (error as { code?: unknown; cause?: { code?: unknown } })?.code ??
    (error as { cause?: { code?: unknown } })?.cause?.code
  );
}

/** Failures that happen before a request can reach the server: it was certainly not sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function neverSent(error: unknown): boolean {
  return NOT_SENT_CODES.has(String(errorCode(error)));
}

function describeNetworkError(error: unknown): string {
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running and WOODPECKER_URL right?)';
    case 'ENOTFOUND':
      return 'the host name does not resolve (check WOODPECKER_URL)';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before Woodpecker answered';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return `the TLS certificate was not accepted (${String(code)}); fix the certificate, or set WOODPECKER_INSECURE_TLS=true for a test server`;
    default:
      return typeof code === 'string' ? code : 'network error';
  }
}
