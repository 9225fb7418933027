// read_back: the read tools named when a write's outcome is unknown. Declared in
// tools.yaml or, without it, by the catalogue's naming; either way decided by the
// generator and checked against the manifest, never guessed at run time.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../generator/manifest/loadManifest.js';
import { formatProblem } from '../../generator/manifestError.js';
import { findRuleProblems } from '../../generator/rules/manifestRules.js';
import { buildModel } from '../../generator/model.js';
import { lineOf, manifest, manifestFile, readTool, writeTool } from './manifestText.js';

const listTool = readTool
  .replace('name: get_thing', 'name: list_things')
  .replace('title: Get a thing', 'title: List things');

function loaded(text: string) {
  return { ...parseManifest(text, 'tools.yaml'), file: manifestFile };
}

function readBackOfTool(text: string, name: string): readonly string[] {
  const tool = buildModel(loaded(text).manifest, new Map()).find((t) => t.name === name)!;
  return tool.readBack;
}

function problemsOf(text: string): string[] {
  return findRuleProblems(loaded(text)).map((problem) => formatProblem('tools.yaml', problem));
}

describe('read_back', () => {
  it('follows the naming when not declared, keeping only tools that exist', () => {
    expect(readBackOfTool(manifest(readTool, writeTool), 'update_thing')).toEqual(['get_thing']);
    expect(readBackOfTool(manifest(readTool, listTool, writeTool), 'update_thing')).toEqual([
      'get_thing',
      'list_things',
    ]);
  });

  it('has none for a read-only tool', () => {
    expect(readBackOfTool(manifest(readTool, writeTool), 'get_thing')).toEqual([]);
  });

  it('takes the declared tools as written, in their order', () => {
    const text = manifest(readTool, listTool, `${writeTool}    read_back: [list_things]\n`);
    expect(problemsOf(text)).toEqual([]);
    expect(readBackOfTool(text, 'update_thing')).toEqual(['list_things']);
  });

  it('refuses a name that is not a tool, or a tool that writes, at its line', () => {
    const text = manifest(readTool, `${writeTool}    read_back: [get_thnig, update_thing]\n`);
    const line = lineOf(text, 'read_back:');
    expect(problemsOf(text)).toEqual([
      `tools.yaml:${line}: update_thing: read_back[0]: names get_thnig, which is not a tool in this manifest`,
      `tools.yaml:${line}: update_thing: read_back[1]: names update_thing, which is not read-only; name a get_ or list_ tool`,
    ]);
  });

  it('refuses read_back on a read-only tool', () => {
    const text = manifest(`${readTool}    read_back: [get_thing]\n`, writeTool);
    expect(problemsOf(text).join('\n')).toMatch(
      /get_thing: read_back: is for tools that change something/,
    );
  });
});

describe('reads_first', () => {
  it('refuses it on a tool without a handler, and names that are not one-call read tools', () => {
    const text = manifest(readTool, `${writeTool}    reads_first: [get_thnig, update_thing]\n`);
    const line = lineOf(text, 'reads_first:');
    expect(problemsOf(text)).toEqual([
      `tools.yaml:${line}: update_thing: reads_first: is for a tool with a handler; a plain call sends its calls alone`,
      `tools.yaml:${line}: update_thing: reads_first[0]: names get_thnig, which is not a tool in this manifest`,
      `tools.yaml:${line}: update_thing: reads_first[1]: names update_thing; name a read-only tool with one call`,
    ]);
  });

  it('is written after calls, as the key order says', () => {
    const text = manifest(
      readTool,
      writeTool.replace('    calls:', '    reads_first: [get_thing]\n    calls:'),
    );
    expect(() => parseManifest(text, 'tools.yaml')).toThrow(/comes after reads_first/);
  });
});
