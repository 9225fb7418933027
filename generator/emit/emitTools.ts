// Stage 4a: one TypeScript module per tool. Each call's query and body are annotated
// with openapi-typescript's `paths[...]` types, so `tsc` fails when the manifest and the
// spec disagree even if the spec check were bypassed.
import { placeholderNames, replacePlaceholders } from '../placeholders.js';
import { tsHeader, type Inputs } from '../header.js';
import type {
  BodyNode,
  CallModel,
  GuardModel,
  ReasonModel,
  ToolModel,
  ToolRef,
  ValueSource,
} from '../model.js';
import { formatTypeScript } from '../format.js';
import type { PolicyFactsModel } from '../rules/policyFacts.js';
import {
  answerPath,
  answerPlaceholder,
  hostParam,
  type AnswerPlaceholder,
} from '../rules/manifestRules.js';
import { predicateFacts } from '../rules/predicateKinds.js';
import { valueText, viewsReferenced, type ViewNames } from './emitViews.js';

// Plain template functions over the model, then prettier: the emitted module is text the
// model fully determines, and `tsc` over generated/ is the check on it
// (docs/decisions/generator-templates.md says why not an AST builder).
export async function emitToolFile(
  tool: ToolModel,
  inputs: Inputs,
  views: ViewNames,
): Promise<string> {
  const declarations = [
    `/** Arguments of ${tool.name}, as its inputSchema describes them. */\nexport type ${tool.argsType} = ${argsTypeText(tool)};`,
  ];
  if (tool.calls.length > 0) {
    // noUnusedParameters: a call without arguments still takes them, under a name that says so.
    declarations.push(
      `/** The Woodpecker call of ${tool.name}. */\nexport function ${tool.requestFunction}(${argsName(requestReadsArgs(tool))}: ${tool.argsType}${currentReadOf(tool) ? ', current?: unknown' : ''}): WoodpeckerRequest {\n${requestStatements(tool).join('\n')}\n}`,
    );
  }
  declarations.push(
    `export const ${tool.constName}: ToolDefinition<${tool.argsType}> = ${definitionText(tool, views)};`,
  );
  const text = `${tsHeader(inputs)}${importLines(tool, views).join('\n')}\n\n${declarations.join('\n\n')}\n`;
  return formatTypeScript(text);
}

/** The name of a function's arguments parameter: `_args` when the body never reads them. */
function argsName(readsArgs: boolean): string {
  return readsArgs ? 'args' : '_args';
}

function importLine(names: readonly string[], from: string, typeOnly = false): string {
  return `import ${typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${from}';`;
}

function importLines(tool: ToolModel, views: ViewNames): string[] {
  const toolTypes =
    tool.calls.length > 0 ? ['ToolDefinition', 'WoodpeckerRequest'] : ['ToolDefinition'];
  const lines = [importLine(toolTypes, '../../runtime/core/tool.js', true)];
  const namedViews = viewsReferenced(tool.output.view, views);
  if (namedViews.length > 0) lines.push(importLine(namedViews, '../views.js'));
  if (tool.calls.length > 0) {
    const usesSpecTypes = tool.calls.some(
      (call) => call.query.length > 0 || call.body !== undefined,
    );
    if (usesSpecTypes) lines.push(importLine(['paths'], '../woodpecker-api.js', true));
    const parts = requestPartsUsed(tool);
    if (parts.length > 0) lines.push(importLine(parts, '../../runtime/woodpecker/requestParts.js'));
  }
  const policyRead = tool.policyFacts?.read;
  if (policyRead && policyRead.tool !== tool.guard?.read?.tool)
    lines.push(importLine([policyRead.requestFunction], `./${policyRead.tool}.js`));
  if (tool.guard) {
    const helpers = predicateHelpersUsed(tool.guard);
    if (helpers.length > 0)
      lines.push(importLine(helpers, '../../runtime/gate/guardPredicates.js'));
    if (tool.guard.shadows)
      lines.push(importLine(['lookAtLevels'], '../../runtime/gate/sameNameLevels.js'));
  }
  // The guard's read, a shadows predicate's reads and the current read, each module once.
  const reads = new Map<string, string>();
  for (const ref of [
    tool.guard?.read,
    tool.guard?.shadows?.list,
    tool.guard?.shadows?.organizationOf,
    currentReadOf(tool),
  ]) {
    if (ref) reads.set(ref.tool, ref.requestFunction);
  }
  for (const [readTool, requestFunction] of [...reads].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(importLine([requestFunction], `./${readTool}.js`));
  }
  return lines;
}

function requestPartsUsed(tool: ToolModel): string[] {
  const used = new Set<string>();
  const needsChoice = tool.calls.every((call) => call.when.length > 0);
  if (needsChoice) used.add('noCallFor');
  for (const call of tool.calls) {
    if (Object.keys(call.pathParams).length > 0) used.add('pathSegment');
    if (call.query.length > 0) {
      used.add('queryFrom');
      used.add('type QueryDraft');
      if (call.query.some((entry) => 'param' in entry.source)) used.add('queryValue');
    }
    if (call.body) {
      used.add('bodyFrom');
      used.add('type Sendable');
      if (bodyUsesAsString(call.body)) used.add('asString');
      if (bodyUsesCurrent(call.body)) used.add('currentValue');
    }
  }
  return [...used].sort((a, b) => stripType(a).localeCompare(stripType(b)));
}

function stripType(name: string): string {
  return name.replace(/^type /, '');
}

function bodyUsesCurrent(node: BodyNode): boolean {
  if (node.kind === 'value') return 'fromCurrent' in node.source;
  return Object.values(node.fields).some(bodyUsesCurrent);
}

/** The tool's `current` read (one call may have one; the manifest rules say so). */
function currentReadOf(tool: ToolModel): ToolRef | undefined {
  return tool.calls.find((call) => call.current !== undefined)?.current;
}

/**
 * When the arguments send a value from the current object: always, for a value outside
 * any nested object; for one inside, when that object is sent (one of its arguments given).
 */
function currentNeededExpression(node: BodyNode): string | undefined {
  if (node.kind === 'value') return 'fromCurrent' in node.source ? 'true' : undefined;
  const parts: string[] = [];
  for (const child of Object.values(node.fields)) {
    if (child.kind === 'value') {
      if ('fromCurrent' in child.source) return 'true';
      continue;
    }
    if (!bodyUsesCurrent(child)) continue;
    const { params, hasConst } = bodyParams(child);
    if (hasConst) return 'true';
    parts.push(...params.map((param) => `args.${param} !== undefined`));
  }
  return parts.length === 0 ? undefined : [...new Set(parts)].join(' || ');
}

function bodyUsesAsString(node: BodyNode): boolean {
  if (node.kind === 'value') return 'param' in node.source && node.source.asString;
  return Object.values(node.fields).some(bodyUsesAsString);
}

function predicateHelpersUsed(guard: GuardModel): string[] {
  const used = new Set<string>(['dialogValue']);
  for (const reason of guard.reasons) {
    used.add(predicateFacts(reason.predicate).helper);
    if (reason.current !== undefined) used.add('valueAt');
  }
  for (const leaf of guard.needsAdmin ?? []) used.add(predicateFacts(leaf).helper);
  const placeholders = dialogPlaceholders(guard.dialog);
  const isValue = (name: string): boolean =>
    answerPath(name) === undefined && hostParam(name) === undefined;
  if (!placeholders.some(isValue)) used.delete('dialogValue');
  if (placeholders.some((name) => hostParam(name) !== undefined)) used.add('dialogHost');
  for (const name of placeholders) {
    const answer = answerPlaceholder(name);
    if (answer === undefined) continue;
    used.add('valueAt');
    used.add(dialogAnswerHelper(guard, answer));
  }
  return [...used].sort();
}

function docComment(text: string): string {
  return `/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */`;
}

function argsTypeText(tool: ToolModel): string {
  const lines = tool.params.map(
    (param) =>
      `${docComment(param.description)}\nreadonly ${param.name}${param.required ? '' : '?'}: ${param.tsType};`,
  );
  return lines.length === 0 ? 'Readonly<Record<string, never>>' : `{\n${lines.join('\n')}\n}`;
}

const literal = (value: unknown): string => JSON.stringify(value);

function requestStatements(tool: ToolModel): string[] {
  const statements: string[] = [];
  for (const call of tool.calls) {
    const build = callStatements(call, tool.argsType);
    if (call.when.length === 0) {
      statements.push(...build);
      return statements;
    }
    const test = call.when
      .map((condition) =>
        'present' in condition
          ? `args.${condition.param} !== undefined`
          : `args.${condition.param} === ${literal(condition.value)}`,
      )
      .join(' && ');
    // A blank line after each conditional call, as the committed output has always had.
    statements.push(`if (${test}) {\n${build.join('\n')}\n}\n`);
  }
  const params = [
    ...new Set(tool.calls.flatMap((call) => call.when.map((condition) => condition.param))),
  ];
  statements.push(`throw noCallFor(${literal(tool.name)}, ${literal(params)});`);
  return statements;
}

function callStatements(call: CallModel, argsType: string): string[] {
  const operation = `paths[${literal(call.specPath)}][${literal(call.method.toLowerCase())}]`;
  const statements: string[] = [];
  const parts = [`method: ${literal(call.method)}`, `path: ${pathExpression(call)}`];
  if (call.query.length > 0) {
    const fields = call.query.map(
      (entry) => `${literal(entry.name)}: ${queryExpression(entry.source)}`,
    );
    statements.push(
      `const query: QueryDraft<NonNullable<${operation}['parameters']['query']>> = {\n${fields.join(',\n')}\n};`,
    );
    parts.push('query: queryFrom(query)');
  }
  if (call.body) {
    statements.push(
      `const body: Sendable<NonNullable<${operation}['requestBody']>['content']['application/json']> = ${bodyExpression(call.body, argsType)};`,
    );
    parts.push('body: bodyFrom(body)');
  }
  statements.push(`return { ${parts.join(', ')} };`);
  return statements;
}

function pathExpression(call: CallModel): string {
  const template = replacePlaceholders(call.fullPath.replace(/[`\\]/g, '\\$&'), (placeholder) => {
    const param = call.pathParams[placeholder] ?? placeholder;
    return `\${pathSegment(args.${param}, ${literal(param)})}`;
  });
  return template.includes('${') ? `\`${template}\`` : literal(call.fullPath);
}

function queryExpression(source: ValueSource): string {
  if ('param' in source) return `queryValue(args.${source.param})`;
  // The manifest's schema allows `or_current`/`current` in bodies only.
  if ('fromCurrent' in source) throw new Error('a query value cannot come from the current object');
  return literal(String(source.const));
}

function valueExpression(source: ValueSource, argsType: string): string {
  if ('const' in source) return literal(source.const);
  if ('fromCurrent' in source) {
    const now = `currentValue(current, ${literal(source.fromCurrent)})`;
    const fallback = source.fallback === undefined ? '' : ` ?? ${literal(source.fallback)}`;
    // The argument keeps its declared type; a value only the current object has is
    // checked against the spec by the generator, not by tsc.
    return source.orParam === undefined
      ? `(${now}${fallback}) as never`
      : `args.${source.orParam} ?? ((${now}${fallback}) as NonNullable<${argsType}[${literal(source.orParam)}]>)`;
  }
  return source.asString ? `asString(args.${source.param})` : `args.${source.param}`;
}

function bodyParams(node: BodyNode): { params: string[]; hasConst: boolean } {
  if (node.kind === 'value') {
    const source = node.source;
    if ('param' in source) return { params: [source.param], hasConst: false };
    // A value that fills in for an argument is sent when that argument's object is; one
    // only the current object has is always sent, like a constant.
    if ('fromCurrent' in source && source.orParam !== undefined)
      return { params: [source.orParam], hasConst: false };
    return { params: [], hasConst: true };
  }
  const inner = Object.values(node.fields).map(bodyParams);
  return {
    params: inner.flatMap((part) => part.params),
    hasConst: inner.some((part) => part.hasConst),
  };
}

/** Nested objects appear only when one of their fields was given (no empty `trusted: {}`). */
function bodyExpression(node: BodyNode, argsType: string, nested = false): string {
  if (node.kind === 'value') return valueExpression(node.source, argsType);
  const fields = Object.entries(node.fields).map(
    ([name, child]) => `${literal(name)}: ${bodyExpression(child, argsType, true)}`,
  );
  const object = `{\n${fields.join(',\n')}\n}`;
  const { params, hasConst } = bodyParams(node);
  if (!nested || hasConst) return object;
  const absent = params.map((param) => `args.${param} === undefined`).join(' && ');
  return `${absent} ? undefined : ${object}`;
}

function definitionText(tool: ToolModel, views: ViewNames): string {
  const fields = [
    `name: ${literal(tool.name)}`,
    `title: ${literal(tool.title)}`,
    `description: ${literal(tool.description)}`,
    `group: ${literal(tool.group)}`,
    `adminOnly: ${literal(tool.adminOnly)}`,
    `essential: ${literal(tool.essential)}`,
    `annotations: ${literal(tool.annotations)}`,
    `inputSchema: ${literal(tool.inputSchema)}`,
    `output: ${valueText(tool.output, views)}`,
    `errorHints: ${literal(tool.errorHints)}`,
  ];
  if (tool.readBack.length > 0) fields.push(`readBack: ${literal(tool.readBack)}`);
  if (!tool.annotations.readOnlyHint) fields.push(`auditTargets: ${literal(tool.auditTargets)}`);
  if (tool.worksWithoutToken) fields.push('worksWithoutToken: true');
  if (Object.keys(tool.since).length > 0) fields.push(`since: ${literal(tool.since)}`);
  if (Object.keys(tool.impliedBeforeSince).length > 0)
    fields.push(`impliedBeforeSince: ${literal(tool.impliedBeforeSince)}`);
  if (tool.availableSince !== undefined)
    fields.push(`availableSince: ${literal(tool.availableSince)}`);
  if (tool.calls.length > 0) fields.push(`request: ${tool.requestFunction}`);
  if (tool.readsFirst.length > 0) fields.push(`readsFirst: ${literal(tool.readsFirst)}`);
  const currentRead = currentReadOf(tool);
  const currentBody = tool.calls.find((call) => call.current !== undefined)?.body;
  if (currentRead && currentBody) {
    const needed = currentNeededExpression(currentBody) ?? 'false';
    fields.push(
      `current: {\nneeded(${needed === 'true' || needed === 'false' ? '_args' : 'args'}) {\nreturn ${needed};\n},\nread(args) {\nreturn ${currentRead.requestFunction}(args);\n},\nsameAsGuardRead: ${literal(currentRead.tool === tool.guard?.read?.tool)},\n}`,
    );
  }
  if (tool.handler !== undefined) fields.push(`handler: ${literal(tool.handler)}`);
  if (tool.app !== undefined) fields.push(`app: ${literal(tool.app)}`);
  if (tool.guard) fields.push(`guard: ${guardText(tool.guard)}`);
  if (tool.repositories) fields.push(`repositories: ${literal(tool.repositories)}`);
  if (tool.policyFacts) fields.push(`policyFacts: ${policyFactsText(tool.policyFacts)}`);
  return `{\n${fields.join(',\n')}\n}`;
}

function policyFactsText(facts: PolicyFactsModel): string {
  const { read, ...sources } = facts;
  const fields = Object.entries(sources).map(([key, value]) => `${key}: ${literal(value)}`);
  if (read) fields.push(`read(args) {\nreturn ${readCall(read)};\n}`);
  return `{\n${fields.join(',\n')}\n}`;
}

/** A read called with this tool's arguments, the integers it takes as text converted. */
function readCall(read: {
  readonly requestFunction: string;
  readonly asText: readonly string[];
}): string {
  const converted = read.asText.map((name) => `${name}: String(args.${name})`);
  const passed = converted.length === 0 ? 'args' : `{ ...args, ${converted.join(', ')} }`;
  return `${read.requestFunction}(${passed})`;
}

function guardText(guard: GuardModel): string {
  const fields = [`targets: ${literal(guard.targets)}`, `bindBody: ${literal(guard.bindBody)}`];
  if (guard.read) fields.push(`read(args) {\nreturn ${readCall(guard.read)};\n}`);
  if (guard.identity !== undefined) fields.push(`identity: ${literal(guard.identity)}`);
  if (guard.shadows) {
    const { param, list, organizationOf, fold, sameLevel } = guard.shadows;
    fields.push(
      `wider(args, look) {\nreturn lookAtLevels(args, look, {\nparam: ${literal(param)},\nfold: ${literal(fold)},\nsameLevel: ${literal(sameLevel)},\nlist: (level, page, perPage) => ${list.requestFunction}({ ...level, page, per_page: perPage }),\norganizationOf: (repoId) => ${organizationOf.requestFunction}({ repo_id: repoId }),\n});\n}`,
    );
  }
  fields.push(reasonsText(guard));
  const readsAnswer = dialogPlaceholders(guard.dialog).some(
    (name) => answerPath(name) !== undefined,
  );
  const dialogBody = `return ${dialogTemplate(guard)};`;
  fields.push(
    `dialog(${argsName(dialogReadsArgs(guard.dialog))}${readsAnswer ? ', current' : ''}) {\n${dialogBody}\n}`,
  );
  if (guard.links) fields.push(`links: ${literal(guard.links)}`);
  fields.push(`condition: ${literal(guard.condition)}`);
  if (guard.needsAdmin) {
    const calls = guard.needsAdmin.map((leaf) => predicateFacts(leaf).call('undefined'));
    fields.push(`needsAdmin(args) {\nreturn ${calls.join(' || ')};\n}`);
  }
  return `{\n${fields.join(',\n')}\n}`;
}

function reasonsText(guard: GuardModel): string {
  if (guard.always) return `reasons() {\nreturn [${literal('always asks')}];\n}`;
  const usesCurrent = guard.reasons.some((reason) => reason.current !== undefined);
  const checks = guard.reasons.map(
    (reason) => `if (${predicateCall(reason)}) reasons.push(${literal(reason.reason)});`,
  );
  const params = [
    argsName(guard.reasons.some((reason) => predicateFacts(reason.predicate).readsParam)),
    ...(usesCurrent || guard.shadows ? [usesCurrent ? 'current' : '_current'] : []),
    ...(guard.shadows ? ['wider'] : []),
  ];
  return `reasons(${params.join(', ')}) {\nconst reasons: string[] = [];\n${checks.join('\n')}\nreturn reasons;\n}`;
}

function predicateCall(reason: ReasonModel): string {
  const current =
    reason.current === undefined ? 'undefined' : `valueAt(current, ${literal(reason.current)})`;
  return predicateFacts(reason.predicate).call(current);
}

function dialogPlaceholders(dialog: string): string[] {
  return placeholderNames(dialog);
}

/**
 * The dialog as a template literal; only placeholders become expressions: `{param}` an
 * argument (integer or enum), `{url.host}` an http_url's host, `{current.field}` a value
 * from the guard's read (an integer id, or an enum or enum list shown only as the spec's
 * values), `{current.field:count}` a list's size.
 */
function dialogTemplate(guard: GuardModel): string {
  const escaped = guard.dialog.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${');
  const withValues = replacePlaceholders(escaped, (name) => {
    const answer = answerPlaceholder(name);
    const hostOf = hostParam(name);
    if (hostOf !== undefined) return `\${dialogHost(args.${hostOf})}`;
    if (answer === undefined) return `\${dialogValue(args.${name})}`;
    const value = `valueAt(current, ${literal(answer.path)})`;
    const helper = dialogAnswerHelper(guard, answer);
    return helper === 'dialogChoices'
      ? `\${dialogChoices(${value}, ${literal(guard.vocabularies[answer.path])})}`
      : `\${${helper}(${value})}`;
  });
  return `\`${withValues}\``;
}

/** The runtime function that shows a value of the read (runtime/gate/guardPredicates.ts). */
function dialogAnswerHelper(guard: GuardModel, answer: AnswerPlaceholder): string {
  if (answer.count) return 'dialogCount';
  return guard.vocabularies[answer.path] === undefined ? 'dialogId' : 'dialogChoices';
}

/** The calls the request function emits: up to the first one that needs no condition. */
function emittedCalls(tool: ToolModel): CallModel[] {
  const unconditional = tool.calls.findIndex((call) => call.when.length === 0);
  return unconditional === -1 ? [...tool.calls] : tool.calls.slice(0, unconditional + 1);
}

/** Whether the request function reads an argument: a condition, a path placeholder, a query or body value. */
function requestReadsArgs(tool: ToolModel): boolean {
  return emittedCalls(tool).some(
    (call) =>
      call.when.length > 0 ||
      call.fullPath.includes('{') ||
      call.query.some((entry) => 'param' in entry.source) ||
      (call.body !== undefined && bodyParams(call.body).params.length > 0),
  );
}

/** Whether the dialog shows an argument (a placeholder that is not an answer path). */
function dialogReadsArgs(dialog: string): boolean {
  return dialogPlaceholders(dialog).some((name) => answerPath(name) === undefined);
}
