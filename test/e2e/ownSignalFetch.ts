// The fetch our test clients give the MCP SDK's HTTP client transport. The transport hands
// one AbortSignal, alive as long as the transport, to every request it sends; Node's fetch
// ties an abort listener to that signal per request and lets go of it only when the request
// is garbage-collected. A session making a few thousand calls gathered 1,500 to 5,000 of
// them on that one signal (4,041 MaxListenersExceededWarning lines in one CI run; all from
// StreamableHTTPClientTransport._send in the test process, none from the server: see
// test/unit/http/abortListeners.test.ts). Here each request gets a signal of its own that
// follows the transport's (AbortSignal.any holds no listener on its source), so closing the
// transport still aborts every request under way.
export const ownSignalFetch: typeof fetch = (input, init) =>
  fetch(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);
