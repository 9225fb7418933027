import { describe, expect, it } from 'vitest';
import { selectTools } from '../../../runtime/process/toolSelection.js';
import type { ToolDefinition } from '../../../runtime/core/tool.js';

const make = (name: string, readOnly: boolean, essential = false) =>
  ({
    name,
    essential,
    group: name.endsWith('secret') || name.endsWith('secrets') ? 'secrets' : 'pipelines',
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly,
      idempotentHint: true,
      openWorldHint: false,
    },
  }) as unknown as ToolDefinition;
const all = [
  make('list_pipelines', true, true),
  make('get_pipeline', true, true),
  make('trigger_pipeline', false, true),
  make('delete_secret', false),
  make('list_secrets', true),
];
const names = (tools: ToolDefinition[]) => tools.map((tool) => tool.name);

describe('selectTools', () => {
  it('registers everything by default', () => {
    expect(
      names(selectTools(all, { readOnly: false, allowTools: undefined, denyTools: [] })),
    ).toHaveLength(5);
  });
  it('read-only keeps only read tools', () => {
    expect(
      names(selectTools(all, { readOnly: true, allowTools: undefined, denyTools: [] })),
    ).toEqual(['list_pipelines', 'get_pipeline', 'list_secrets']);
  });
  it('allow takes names, a prefix with a trailing * and essential', () => {
    expect(
      names(selectTools(all, { readOnly: false, allowTools: ['essential'], denyTools: [] })),
    ).toEqual(['list_pipelines', 'get_pipeline', 'trigger_pipeline']);
    expect(
      names(
        selectTools(all, {
          readOnly: false,
          allowTools: ['list_*', 'delete_secret'],
          denyTools: [],
        }),
      ),
    ).toEqual(['list_pipelines', 'delete_secret', 'list_secrets']);
  });
  it('allow and deny take toolsets: the group names of tools.yaml', () => {
    expect(
      names(selectTools(all, { readOnly: false, allowTools: ['secrets'], denyTools: [] })),
    ).toEqual(['delete_secret', 'list_secrets']);
    expect(
      names(
        selectTools(all, {
          readOnly: false,
          allowTools: ['essential', 'secrets'],
          denyTools: ['delete_secret'],
        }),
      ),
    ).toEqual(['list_pipelines', 'get_pipeline', 'trigger_pipeline', 'list_secrets']);
    expect(
      names(selectTools(all, { readOnly: false, allowTools: undefined, denyTools: ['pipelines'] })),
    ).toEqual(['delete_secret', 'list_secrets']);
  });
  it('a misspelt toolset stops startup and lists the toolsets there are', () => {
    expect(() =>
      selectTools(all, { readOnly: false, allowTools: ['secret'], denyTools: [] }),
    ).toThrow(
      /WOODPECKER_ALLOW_TOOLS entry "secret" matches no tool; did you mean secrets\? .* or a toolset: pipelines, secrets\./,
    );
  });
  it('suggests nothing for an entry close to no name', () => {
    expect(() =>
      selectTools(all, { readOnly: false, allowTools: ['frobnicate'], denyTools: [] }),
    ).toThrow(/"frobnicate" matches no tool\. Use tool names/);
  });
  it('deny wins over allow', () => {
    expect(
      names(
        selectTools(all, {
          readOnly: false,
          allowTools: ['essential'],
          denyTools: ['trigger_pipeline'],
        }),
      ),
    ).toEqual(['list_pipelines', 'get_pipeline']);
  });
  it.each([
    [
      { allowTools: ['list_pipeline'], denyTools: [] },
      /WOODPECKER_ALLOW_TOOLS entry "list_pipeline" matches no tool; did you mean list_pipelines\?/,
    ],
    [
      { allowTools: undefined, denyTools: ['delete_*_secret'] },
      /WOODPECKER_DENY_TOOLS entry "delete_\*_secret" matches no tool/,
    ],
    [{ allowTools: undefined, denyTools: ['*'] }, undefined],
    // not tool-name-shaped (a token pasted by mistake): named by position, not repeated
    [
      { allowTools: ['list_pipelines', 'Canary-Token-77'], denyTools: [] },
      /WOODPECKER_ALLOW_TOOLS entry number 2 matches no tool\. /,
    ],
  ] as const)('an entry that matches nothing aborts startup: %j', (options, message) => {
    const run = () => selectTools(all, { readOnly: false, ...options });
    if (message) expect(run).toThrow(message);
    else expect(run()).toEqual([]);
  });
});
