// get_pipeline_config: the stored pipeline configuration files, decoded from base64.
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';

export const getPipelineConfig: HandlerOf<'get_pipeline_config'> = async (context) => {
  const response = await context.call(requestOf(context.tool, context.args));
  const entries = Array.isArray(response.body)
    ? (response.body as { name?: unknown; data?: unknown; hash?: unknown }[])
    : [];
  const files = entries.map((entry) => ({
    name: String(entry.name ?? ''),
    content:
      typeof entry.data === 'string' ? Buffer.from(entry.data, 'base64').toString('utf8') : '',
  }));
  return {
    data: { repo_id: context.args.repo_id, number: context.args.number, files },
    shortenable: {
      field: 'files',
      keep: 'start',
      narrow: 'nothing narrower (read the files in the repository itself)',
    },
  };
};
