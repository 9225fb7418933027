// Small pieces the generated request builders share. They exist so that every tool
// encodes paths, flattens query values and drops unsent arguments the same way; the
// generated files only decide *which* argument goes *where*.

/**
 * A request body as the generated builders write it: every field of the spec's body
 * type may also be `undefined` (an argument that was not given). The generated code
 * annotates its body literal with this type, so `tsc` rejects a field the spec does not
 * have or a value of the wrong type.
 */
export type Sendable<T> = T extends readonly (infer E)[]
  ? readonly E[]
  : T extends object
    ? { readonly [K in keyof T]?: Sendable<T[K]> | undefined }
    : T;

/** Query values before flattening, keyed by the names the spec's query type allows. */
export type QueryDraft<Q> = { readonly [K in keyof Q]?: string | undefined };

/**
 * The arguments do not make a Woodpecker call: an optional parameter the chosen call
 * needs is missing, or no call matches. The caller's mistake, so the error names the
 * parameter; it is raised while building the request, before anyone is asked.
 */
export class RequestArgumentError extends Error {
  override readonly name = 'RequestArgumentError';
  constructor(
    message: string,
    /** The parameter to fix, when there is exactly one. */
    readonly param?: string,
  ) {
    super(message);
  }
}

/**
 * One path segment, URI-encoded. A path parameter that is missing means the call
 * chosen needs an argument the tool marks optional (e.g. repo_id at scope
 * repository), so say which one instead of building `/repos/undefined`.
 * "." and ".." survive encodeURIComponent but URL parsing removes them as dot segments
 * (DELETE /repos/1/secrets/.. would become DELETE /repos/1/), so they are refused here
 * too, for handlers and guard reads that build paths without the schema's check.
 */
export function pathSegment(value: unknown, param: string): string {
  if (value === undefined || value === null || value === '') {
    throw new RequestArgumentError(
      `${param} is required with these arguments (the Woodpecker call they choose needs it); add ${param} and call again`,
      param,
    );
  }
  const text = String(value);
  if (text === '.' || text === '..') {
    throw new RequestArgumentError(
      `${param} must not be "${text}": as a URL path segment it would address another route. Use the real name.`,
      param,
    );
  }
  return encodeURIComponent(text);
}

/** A query value as Woodpecker reads it; lists are comma-separated. */
export function queryValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((item) => String(item)).join(',');
  return String(value);
}

/** The query without the arguments that were not given. */
export function queryFrom<Q>(draft: QueryDraft<Q>): Readonly<Record<string, string>> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(draft)) {
    if (typeof value === 'string') query[name] = value;
  }
  return query;
}

/**
 * An integer argument sent where the spec expects a string. Part of the generator's
 * vocabulary (the golden fixture uses it) even while no tool in tools.yaml does.
 * @public
 */
export function asString(value: number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

/** The body without the fields that were not given (recursively, for nested objects). */
export function bodyFrom(draft: object): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(draft)) {
    if (value === undefined) continue;
    body[name] = isPlainObject(value) ? bodyFrom(value) : value;
  }
  return body;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which call a tool makes is chosen by its arguments; none matching is a caller error. */
export function noCallFor(tool: string, params: readonly string[]): Error {
  return new RequestArgumentError(
    `none of the Woodpecker calls of ${tool} matches the given ${params.join(', ')}; check ${params.join(' and ')} against the tool's description`,
  );
}

/**
 * The value at a dotted path of the object as it is now ("trusted.network"), for a body
 * value a PATCH would otherwise overwrite; undefined when the object, a step of the path,
 * or the value is missing or null (then the body leaves the field out, or sends its
 * tools.yaml default).
 */
export function currentValue(current: unknown, path: string): unknown {
  let value = current;
  for (const key of path.split('.')) {
    if (!isPlainObject(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? undefined;
}
