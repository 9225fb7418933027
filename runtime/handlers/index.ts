// Hand-written handlers, by the name tools.yaml gives in `handler:` (the tool's own name).
import type { HandlerRegistry } from '../call/handlerContext.js';
import { comparePipelines } from './compare_pipelines.js';
import { createForge } from './create_forge.js';
import { getPipelineConfig } from './get_pipeline_config.js';
import { getPipelineFailure } from './get_pipeline_failure.js';
import { getServerInfo } from './get_server_info.js';
import { getStepLogs } from './get_step_logs.js';
import { lintPipelineConfig } from './lint_pipeline_config.js';
import { moveRepository } from './move_repository.js';
import { resolveLink } from './resolve_link.js';
import { restartPipeline } from './restart_pipeline.js';
import { searchLogs } from './search_logs.js';
import { waitForPipeline } from './wait_for_pipeline.js';

export const handlers: HandlerRegistry = {
  compare_pipelines: comparePipelines,
  create_forge: createForge,
  get_pipeline_config: getPipelineConfig,
  get_pipeline_failure: getPipelineFailure,
  get_server_info: getServerInfo,
  get_step_logs: getStepLogs,
  lint_pipeline_config: lintPipelineConfig,
  move_repository: moveRepository,
  resolve_link: resolveLink,
  restart_pipeline: restartPipeline,
  search_logs: searchLogs,
  wait_for_pipeline: waitForPipeline,
};
