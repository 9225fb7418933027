// The earlier pipelines of one line of work (the same branch and event, and for a pull
// request the same pull request), read newest first through list_pipelines, a bounded
// number of pages. since_green, flaky and compare_pipelines look back through here.
import type { HandlerContext } from '../../call/handlerContext.js';
import { requestOf } from '../../call/handlerContext.js';
import { PULL_REQUEST_EVENTS } from '../../core/woodpeckerEvents.js';
import { pipelineList, type PipelineFacts } from '../reads/pipelineFacts.js';

export type Raw = Record<string, unknown>;

export const PAGE_SIZE = 50;

export interface LineOfWork {
  readonly branch: string;
  readonly event: string;
  /** Only for pull request events (the whole family): their pipelines share the target branch with every other one. */
  readonly ref?: string;
}

export function lineOf({ branch, event, ref }: PipelineFacts): LineOfWork {
  return PULL_REQUEST_EVENTS.includes(event) ? { branch, event, ref } : { branch, event };
}

export function inLine(line: LineOfWork, pipeline: PipelineFacts): boolean {
  return (
    pipeline.branch === line.branch &&
    pipeline.event === line.event &&
    (line.ref === undefined || pipeline.ref === line.ref)
  );
}

export interface Lookback {
  /** Pipelines of the line older than `before`, newest first, up to where `until` held. */
  readonly earlier: PipelineFacts[];
  /** The first older pipeline `until` held for, if any. */
  readonly found?: PipelineFacts;
  /** Pipelines looked at (of any line the list returned). */
  readonly searched: number;
  /** True when the repository has no older pipelines than those looked at. */
  readonly exhausted: boolean;
  readonly pages: number;
}

/**
 * Reads list_pipelines pages (branch and event filtered by Woodpecker) until `until`
 * holds for a pipeline of the line older than `before`, the history ends, or `maxPages`
 * were read.
 */
export async function lookBack(
  context: HandlerContext,
  repoId: number,
  line: LineOfWork,
  before: number,
  maxPages: number,
  until: (pipeline: PipelineFacts) => boolean = () => false,
): Promise<Lookback> {
  const earlier: PipelineFacts[] = [];
  let searched = 0;
  let pages = 0;
  for (let page = 1; page <= maxPages; page++) {
    const request = requestOf(context.toolNamed('list_pipelines'), {
      repo_id: repoId,
      branch: line.branch,
      event: line.event,
      page,
      per_page: PAGE_SIZE,
    });
    const list = pipelineList((await context.call(request)).body);
    pages++;
    searched += list.length;
    for (const pipeline of list) {
      if (pipeline.number >= before || !inLine(line, pipeline)) continue;
      if (until(pipeline)) return { earlier, found: pipeline, searched, exhausted: false, pages };
      earlier.push(pipeline);
    }
    if (list.length < PAGE_SIZE) return { earlier, searched, exhausted: true, pages };
  }
  return { earlier, searched, exhausted: false, pages };
}
