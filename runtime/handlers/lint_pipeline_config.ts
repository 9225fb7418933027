// lint_pipeline_config: a workflow file checked as the connected Woodpecker's release
// checks it (runtime/lint/). Its one request is GET /version, the tool's declared call:
// the text itself goes nowhere. When /version does not answer, the file is still checked,
// by the newest tested release, and the answer says so.
import type { HandlerOf } from '../call/handlerContext.js';
import { requestOf } from '../call/handlerContext.js';
import { lintConfig, MAX_FINDINGS } from '../lint/lintConfig.js';
import { releaseName } from '../lint/pipelineSchemas.js';

export const lintPipelineConfig: HandlerOf<'lint_pipeline_config'> = async (context) => {
  let server: string | undefined;
  try {
    const answer = await context.call(requestOf(context.tool, context.args));
    const version = (answer.body as { version?: unknown } | undefined)?.version;
    server = typeof version === 'string' && version !== '' ? version : undefined;
  } catch {
    server = undefined;
  }
  const report = lintConfig(String(context.args.config), server);
  const judged = releaseName(report.judgedBy);
  return {
    data: {
      valid: report.errors.length === 0,
      judged_by:
        server === undefined
          ? withAside(judged, "the newest tested, as this server's version did not answer")
          : server === report.judgedBy
            ? `Woodpecker ${judged}`
            : withAside(judged, `the tested release nearest this server's ${server}`),
      // Nothing empty: a clean file answers valid and the release alone.
      errors: report.errors.length > 0 ? report.errors : undefined,
      warnings: report.warnings.length > 0 ? report.warnings : undefined,
      ...(report.unlisted > 0
        ? {
            unlisted_findings: report.unlisted,
            note: `${report.unlisted} more findings are not listed (at most ${MAX_FINDINGS} errors and ${MAX_FINDINGS} warnings are); fix these and check again.`,
          }
        : {}),
    },
  };
};

/** "Woodpecker 3.17 (aside)"; a name that has its own brackets takes the aside inside them. */
function withAside(name: string, aside: string): string {
  return name.endsWith(')')
    ? `Woodpecker ${name.slice(0, -1)}; ${aside})`
    : `Woodpecker ${name} (${aside})`;
}
