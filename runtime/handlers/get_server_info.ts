// get_server_info: version and health, both outside /api and both public.
import { WoodpeckerHttpError } from '../woodpecker/woodpeckerClient.js';
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';

export const getServerInfo: HandlerOf<'get_server_info'> = async (context) => {
  const version = (await context.call(requestOf(context.tool, context.args))).body as
    { version?: unknown; source?: unknown } | undefined;
  let healthy: boolean;
  let health: string;
  try {
    // /healthz answers 204 when the database answers, 500 otherwise; the manifest's
    // call is /version, so the second route is named here.
    const answer = await context.call({ method: 'GET', path: '/healthz' });
    healthy = answer.status < 300;
    health = `HTTP ${answer.status}`;
  } catch (error) {
    healthy = false;
    health = error instanceof WoodpeckerHttpError ? `HTTP ${error.status}` : 'unreachable';
  }
  return {
    data: {
      version: typeof version?.version === 'string' ? version.version : null,
      source: typeof version?.source === 'string' ? version.source : null,
      healthy,
      health,
    },
  };
};
