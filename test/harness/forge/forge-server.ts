import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactSecrets } from '../redact.js';
import { controlRoutes } from './control-routes.js';
import { ForgeState } from './forge-state.js';
import { giteaRoutes } from './gitea-routes.js';
import { findRoute, readBody, sendJson, type Route } from './http-routing.js';

export interface ForgeStandIn {
  url: string;
  state: ForgeState;
  stop(): Promise<void>;
}

/** Starts the Gitea stand-in on a free 127.0.0.1 port. Request lines go to logFile if given. */
export async function startForgeStandIn(options: { logFile?: string } = {}): Promise<ForgeStandIn> {
  let state: ForgeState | undefined;
  let routes: Route[] = [];
  const log = (line: string): void => {
    if (options.logFile !== undefined)
      appendFileSync(options.logFile, `${new Date().toISOString()} ${redactSecrets(line)}\n`);
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    response.on('finish', () =>
      log(`${method} ${url.pathname}${url.search} → ${response.statusCode}`),
    );
    const match = findRoute(routes, method, url.pathname);
    if (match === undefined) {
      state?.unhandledRequests.push(`${method} ${url.pathname}`);
      return sendJson(response, 404, {
        message: `the forge stand-in does not serve ${method} ${url.pathname}`,
      });
    }
    readBody(request)
      .then((body) => match.route.handler({ request, response, url, params: match.params, body }))
      .catch((error: unknown) => {
        log(`error in ${method} ${url.pathname}: ${(error as Error).message}`);
        if (!response.headersSent) sendJson(response, 500, { message: (error as Error).message });
        else response.end();
      });
  });
  // Woodpecker keeps connections to the forge alive; stop() must not wait for them.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const forgeState = new ForgeState(url);
  state = forgeState;
  routes = [...giteaRoutes(forgeState), ...controlRoutes(forgeState)];

  return {
    url,
    state: forgeState,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
