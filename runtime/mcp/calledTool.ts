// On 2026-07-28 every HTTP request gets a server of its own, and registering the whole
// catalogue took about 1.2 ms of each call. A tools/call request needs only the tool it names: the
// HTTP route notes that name against the request, and the factory registers that one.
const calledTools = new WeakMap<Request, string>();

/** Notes which tool a parsed request body calls, if it is a single tools/call. */
export function noteCalledTool(request: Request, body: unknown): void {
  const message = body as { method?: unknown; params?: { name?: unknown } } | undefined;
  if (message?.method === 'tools/call' && typeof message.params?.name === 'string')
    calledTools.set(request, message.params.name);
}

/** The tool the request calls, when noteCalledTool saw one; undefined means "any". */
export function calledToolOf(request: Request | undefined): string | undefined {
  return request ? calledTools.get(request) : undefined;
}
