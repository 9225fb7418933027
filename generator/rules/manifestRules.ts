// Stage 1b: the rules a schema cannot say. Each refusal names the tool, the field and
// the line; together they make the manifest safe to compile (see docs/manifest.md).
import { placeholderNames } from '../placeholders.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GATE_ARGUMENT } from '../../runtime/core/tool.js';
import type { LoadedManifest } from '../manifest/loadManifest.js';
import { ManifestError, fieldPath, type Problem } from '../manifestError.js';
import type {
  ManifestGuard,
  ManifestPageLink,
  ManifestParam,
  ManifestTool,
} from '../manifest/manifestTypes.js';
import { predicateFacts, type LeafPredicate } from './predicateKinds.js';
import { forEachPredicate } from './predicates.js';
import { checkReadBack, checkReadsFirst } from './readBack.js';
import { checkRepositoryPolicy } from './repositoryPolicy.js';
import { checkPolicyFacts } from './policyFacts.js';

type Segments = readonly (string | number)[];

export function checkManifestRules(loaded: LoadedManifest): void {
  const problems = findRuleProblems(loaded);
  if (problems.length > 0) throw new ManifestError(loaded.file, problems);
}

export function findRuleProblems(loaded: LoadedManifest): Problem[] {
  const { manifest, locator } = loaded;
  const problems: Problem[] = [];
  const byName = new Map<string, ManifestTool>();
  const handlersDir = join(dirname(loaded.file), 'runtime', 'handlers');

  manifest.tools.forEach((tool, index) => {
    const refuse = (segments: Segments, message: string): void => {
      problems.push({
        line: locator.toolLine(index, segments),
        tool: tool.name,
        field: fieldPath(segments),
        message,
      });
    };
    if (byName.has(tool.name))
      refuse(['name'], 'is used by another tool already; tool names must be unique');
    else byName.set(tool.name, tool);
    checkParams(tool, refuse);
    checkCalls(tool, refuse);
    checkHandler(tool, handlersDir, refuse);
    checkApp(tool, refuse);
    checkSafety(tool, refuse);
    checkRepositoryPolicy(tool, refuse);
  });

  // `read` and `read_back` refer to other tools, so they are checked once all names are known.
  manifest.tools.forEach((tool, index) => {
    const refuse = (segments: Segments, message: string): void => {
      problems.push({
        line: locator.toolLine(index, segments),
        tool: tool.name,
        field: fieldPath(segments),
        message,
      });
    };
    if (tool.policy_facts) {
      checkPolicyFacts(tool, tool.policy_facts, refuse);
      if (tool.policy_facts.read !== undefined)
        checkRead(tool, tool.policy_facts.read, byName, refuse, ['policy_facts', 'read']);
    }
    checkReadBack(tool, byName, refuse);
    checkReadsFirst(tool, byName, refuse);
    (tool.calls ?? []).forEach((call, c) => {
      if (call.current !== undefined)
        checkRead(tool, call.current, byName, refuse, ['calls', c, 'current']);
    });
    if (tool.guard === 'never') return;
    if (tool.guard.read !== undefined) checkRead(tool, tool.guard.read, byName, refuse);
    if (tool.guard.when !== 'always') {
      forEachPredicate(tool.guard.when, ['guard', 'when'], (leaf, at) => {
        const { kind, checkOtherTools } = predicateFacts(leaf);
        checkOtherTools(byName, (below, message) => refuse([...at, kind, ...below], message));
      });
    }
  });
  return problems.sort((a, b) => a.line - b.line || a.field.localeCompare(b.field));
}

type Refuse = (segments: Segments, message: string) => void;

const TYPE_CONSTRAINTS: Readonly<Record<string, readonly string[]>> = {
  minimum: ['integer'],
  maximum: ['integer'],
  min_length: ['string'],
  max_length: ['string'],
  pattern: ['string'],
  format: ['string'],
  enum: ['string', 'string_list'],
  min_items: ['string_list'],
  also: ['integer'],
};

/** Parameter names that carry a credential; each must say so with `secret: true`. */
const CREDENTIAL_NAME = /^(value|password|token)$|secret$/;

function checkParams(tool: ManifestTool, refuse: Refuse): void {
  for (const [name, param] of Object.entries(tool.params)) {
    for (const needed of param.needs ?? [])
      if (!tool.params[needed] || needed === name)
        refuse(
          ['params', name, 'needs'],
          `names ${needed}, which is not another parameter of this tool`,
        );
    if (name === GATE_ARGUMENT) {
      refuse(
        ['params', name],
        'is added by the generator to every guarded tool; remove it from the manifest',
      );
    }
    if (CREDENTIAL_NAME.test(name) && param.secret !== true) {
      refuse(
        ['params', name],
        'looks like a credential; add `secret: true` so its value is never echoed in errors or logs',
      );
    }
    if (param.secret === true && param.type !== 'string') {
      refuse(
        ['params', name, 'secret'],
        `applies to string parameters only; ${name} is ${param.type}`,
      );
    }
    for (const bound of ['minimum', 'maximum'] as const) {
      const value = param[bound];
      if (value !== undefined && Math.abs(value) > Number.MAX_SAFE_INTEGER) {
        refuse(
          ['params', name, bound],
          `is beyond ${Number.MAX_SAFE_INTEGER}, the largest whole number JSON carries exactly; ids above it lose precision`,
        );
      }
    }
    for (const [constraint, types] of Object.entries(TYPE_CONSTRAINTS)) {
      if (constraint in param && !types.includes(param.type)) {
        refuse(
          ['params', name, constraint],
          `does not apply to type ${param.type}; it applies to ${types.join(', ')}`,
        );
      }
    }
  }
}

function checkCalls(tool: ManifestTool, refuse: Refuse): void {
  const calls = tool.calls ?? [];
  if (calls.length === 0 && tool.handler === undefined) {
    refuse(['calls'], 'is missing; declare the Woodpecker call, or a handler in runtime/handlers/');
  }
  calls.forEach((call, c) => {
    if (call.when === undefined && c < calls.length - 1) {
      refuse(
        ['calls', c, 'when'],
        'is missing; only the last call may omit `when` (the calls after it could never be chosen)',
      );
    }
    for (const [param, value] of Object.entries(call.when ?? {})) {
      const at = ['calls', c, 'when', param];
      if (param === 'present') {
        if (typeof value !== 'string' || !(value in tool.params)) {
          refuse(
            at,
            `names ${JSON.stringify(value)}, which the tool does not declare; \`present\` takes a parameter name`,
          );
        } else if (tool.params[value]?.required === true) {
          refuse(at, `${value} is required, so it is always present; choose by another parameter`);
        }
        continue;
      }
      const declared = tool.params[param];
      if (!declared)
        refuse(at, 'names a parameter the tool does not declare; declare it under params');
      else if (declared.type === 'boolean') {
        if (typeof value !== 'boolean')
          refuse(
            at,
            `compares the boolean ${param} with ${JSON.stringify(value)}; use true or false`,
          );
      } else if (declared.type === 'string' && declared.enum) {
        if (!declared.enum.includes(String(value))) {
          refuse(
            at,
            `${JSON.stringify(value)} is not one of ${param}'s enum values (${declared.enum.join(', ')})`,
          );
        }
      } else {
        refuse(
          at,
          `\`when\` may only test a boolean or a string parameter with an enum; give ${param} an enum or choose by another parameter`,
        );
      }
    }
    const placeholders = placeholderNames(call.path);
    const mapped = call.path_params ?? {};
    for (const placeholder of placeholders) {
      if (!(placeholder in mapped)) {
        refuse(
          ['calls', c, 'path_params'],
          `does not map {${placeholder}} of ${call.path}; add \`${placeholder}: <param>\``,
        );
      }
    }
    for (const [placeholder, param] of Object.entries(mapped)) {
      if (!placeholders.includes(placeholder)) {
        refuse(
          ['calls', c, 'path_params', placeholder],
          `is not a placeholder of ${call.path}; remove it`,
        );
      }
      if (!(param in tool.params)) {
        refuse(
          ['calls', c, 'path_params', placeholder],
          `maps to ${param}, which the tool does not declare; declare it under params`,
        );
      }
    }
    const bodyFields = Object.keys(call.body ?? {});
    for (const field of bodyFields) {
      if (bodyFields.some((other) => other.startsWith(`${field}.`))) {
        refuse(
          ['calls', c, 'body', field],
          `is also the parent of a dotted field (${field}.…); send either the whole object or its fields`,
        );
      }
    }
    for (const part of ['query', 'body'] as const) {
      for (const [field, source] of Object.entries(call[part] ?? {})) {
        const param =
          typeof source === 'string' ? source : 'param' in source ? source.param : undefined;
        if (param !== undefined && !(param in tool.params)) {
          refuse(
            ['calls', c, part, field],
            `maps to ${param}, which the tool does not declare; declare it under params`,
          );
        }
      }
    }
    checkCurrentUse(tool, c, refuse);
  });
}

/** A body value from the current object needs the call's `current` read, and the reverse. */
function checkCurrentUse(tool: ManifestTool, c: number, refuse: Refuse): void {
  const call = (tool.calls ?? [])[c];
  if (!call) return;
  const fromCurrent = Object.entries(call.body ?? {}).filter(
    ([, source]) => typeof source === 'object' && ('or_current' in source || 'current' in source),
  );
  if (call.current === undefined) {
    for (const [field] of fromCurrent)
      refuse(
        ['calls', c, 'body', field],
        'takes a value from the current object, but the call names no `current` read; add `current: <read-only tool>`',
      );
    return;
  }
  if (fromCurrent.length === 0)
    refuse(
      ['calls', c, 'current'],
      'is read for nothing: no body value uses `or_current` or `current`; remove it',
    );
  if ((tool.calls ?? []).length > 1)
    refuse(
      ['calls', c, 'current'],
      'is allowed on a tool with one call only; split the tool or drop the read',
    );
  if (tool.handler !== undefined)
    refuse(['calls', c, 'current'], `and handler ${tool.handler} both shape the call; keep one`);
}

function checkHandler(tool: ManifestTool, handlersDir: string, refuse: Refuse): void {
  if (tool.handler === undefined) return;
  // The runtime types a handler by its tool's arguments through the handler's name.
  if (tool.handler !== tool.name) {
    refuse(
      ['handler'],
      `is ${tool.handler}; a handler is named after its tool (handler: ${tool.name}, runtime/handlers/${tool.name}.ts), which types its arguments`,
    );
    return;
  }
  const file = join(handlersDir, `${tool.handler}.ts`);
  if (!existsSync(file)) {
    refuse(
      ['handler'],
      `runtime/handlers/${tool.handler}.ts does not exist; write the handler or remove \`handler\``,
    );
  }
}

// A view is shown with an answer a person may look at again and again: it belongs on a
// read. A write's answer arrives once, after the fact, and its view could read as a button.
function checkApp(tool: ManifestTool, refuse: Refuse): void {
  if (tool.app !== undefined && !tool.annotations.readOnlyHint)
    refuse(['app'], 'is only for read-only tools (readOnlyHint: true); remove `app`');
}

function checkSafety(tool: ManifestTool, refuse: Refuse): void {
  const guarded = tool.guard !== 'never';
  const calls = tool.calls ?? [];
  if (guarded && !tool.annotations.idempotentHint) {
    refuse(
      ['annotations', 'idempotentHint'],
      'must be true on a guarded tool: an approval can be redeemed again until it expires, so a repeat must be harmless',
    );
  }
  if (tool.annotations.readOnlyHint && guarded) {
    refuse(
      ['guard'],
      'must be `never` on a read-only tool; a read has nothing to ask about (or set readOnlyHint: false)',
    );
  }
  calls.forEach((call, c) => {
    if (call.method === 'DELETE' && !guarded) {
      refuse(
        ['calls', c, 'method'],
        'is DELETE but the tool has `guard: never`; every delete asks a person: add a guard with `when: always`',
      );
    }
    if (tool.annotations.readOnlyHint && call.method !== 'GET') {
      refuse(
        ['calls', c, 'method'],
        `is ${call.method} but the tool says readOnlyHint: true; a read-only tool makes only GET calls`,
      );
    }
  });
  if (tool.guard !== 'never') checkGuard(tool, tool.guard, refuse);
}

function checkGuard(tool: ManifestTool, guard: ManifestGuard, refuse: Refuse): void {
  guard.targets.forEach((target, t) => {
    if (!(target in tool.params))
      refuse(
        ['guard', 'targets', t],
        `${target} is not a parameter of this tool; targets name declared parameters`,
      );
  });
  if (guard.identity !== undefined && guard.read === undefined) {
    refuse(
      ['guard', 'identity'],
      'names a field of the current value but the guard has no `read`; add `read: <get tool>`',
    );
  }
  for (const name of placeholderNames(guard.dialog)) {
    const param = tool.params[name];
    const hostOf = hostParam(name);
    if (hostOf !== undefined) {
      if (tool.params[hostOf]?.format !== 'http_url')
        refuse(
          ['guard', 'dialog'],
          `interpolates {${name}}, but ${hostOf} is not a parameter with \`format: http_url\`; only such a URL's host, validated as a hostname, may be shown`,
        );
    } else if (answerPath(name) !== undefined) {
      // A value read from Woodpecker: the spec check makes sure it is an integer (an id),
      // an enum or a list of enum values, or a list counted with `:count`.
      if (guard.read === undefined) {
        refuse(
          ['guard', 'dialog'],
          `interpolates {${name}}, a value read from Woodpecker, but the guard has no \`read\`; add \`read: <get tool>\``,
        );
      }
    } else if (!param) {
      refuse(
        ['guard', 'dialog'],
        `interpolates {${name}}, which is not a parameter of this tool; a dialog shows only integer and enum arguments, and ids or enum values read from Woodpecker as {current.<field>} (a list's size as {current.<field>:count})`,
      );
    } else if (!isDialogSafe(param)) {
      refuse(
        ['guard', 'dialog'],
        `interpolates {${name}}, a free-text ${param.type} parameter; a dialog shows only integer and enum arguments, so describe it in fixed words instead`,
      );
    }
  }
  (guard.link ?? []).forEach((link, l) => checkLink(tool, guard, link, l, refuse));
  if (guard.when !== 'always') {
    forEachPredicate(guard.when, ['guard', 'when'], (predicate, at) =>
      checkPredicate(tool, guard, predicate, at, refuse),
    );
  }
  if (guard.needs_admin !== undefined) {
    forEachPredicate(guard.needs_admin, ['guard', 'needs_admin'], (predicate, at) => {
      checkPredicate(tool, guard, predicate, at, refuse);
      // It is decided before any read: only the arguments count.
      const facts = predicateFacts(predicate);
      if (facts.current !== undefined || facts.widerReads !== undefined)
        refuse(at, 'needs_admin looks at the arguments alone: no current value, no reads');
    });
  }
}

/** The parameter of a `{<param>.host}` placeholder (the host of an http_url argument). */
export function hostParam(placeholder: string): string | undefined {
  return /^([a-z][a-z0-9_]*)\.host$/.exec(placeholder)?.[1];
}

/**
 * A `{current.<field>}` placeholder: a value the guard's read returned, shown as itself
 * (an id, or a closed vocabulary the spec enumerates), or with `:count` as how many
 * entries a list has. Undefined for an argument placeholder.
 */
export interface AnswerPlaceholder {
  readonly path: string;
  readonly count: boolean;
}

export function answerPlaceholder(placeholder: string): AnswerPlaceholder | undefined {
  const match = /^current\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)(:count)?$/.exec(placeholder);
  return match ? { path: match[1] ?? '', count: match[2] !== undefined } : undefined;
}

/** The field path of a `{current.<field>}` placeholder, with or without `:count`. */
export function answerPath(placeholder: string): string | undefined {
  return answerPlaceholder(placeholder)?.path;
}

/**
 * A web UI link is built from WOODPECKER_URL and integers alone: its placeholders name
 * integer parameters or integer fields of the read (the spec check types those), and its
 * `when` names enum parameters and their values, so no free text can enter a URL.
 */
function checkLink(
  tool: ManifestTool,
  guard: ManifestGuard,
  link: ManifestPageLink,
  index: number,
  refuse: Refuse,
): void {
  for (const field of ['where', 'path'] as const) {
    for (const name of placeholderNames(link[field])) {
      if (answerPath(name) !== undefined) {
        if (guard.read === undefined)
          refuse(
            ['guard', 'link', index, field],
            `interpolates {${name}}, a value read from Woodpecker, but the guard has no \`read\`; add \`read: <get tool>\``,
          );
      } else if (tool.params[name]?.type !== 'integer') {
        refuse(
          ['guard', 'link', index, field],
          `interpolates {${name}}, which is not an integer parameter of this tool; a link is built only from WOODPECKER_URL and numeric ids, so use an id parameter or {current.<id field>}`,
        );
      }
    }
  }
  for (const [name, value] of Object.entries(link.when ?? {})) {
    const allowed = tool.params[name]?.enum;
    if (allowed === undefined || !allowed.includes(value))
      refuse(
        ['guard', 'link', index, 'when', name],
        `${name}: ${value} is not an enum value of a parameter of this tool; \`when\` chooses a page by an enum argument`,
      );
  }
}

function isDialogSafe(param: ManifestParam): boolean {
  if (param.type === 'integer') return true;
  return (param.type === 'string' || param.type === 'string_list') && param.enum !== undefined;
}

/**
 * The rules every kind shares (its parameter is declared, of a type it can look at, a
 * `current` needs `read`, manifest values are enum values); the kind's own rules and
 * their wording are in its entry in predicateKinds.ts.
 */
function checkPredicate(
  tool: ManifestTool,
  guard: ManifestGuard,
  predicate: LeafPredicate,
  at: Segments,
  refuse: Refuse,
): void {
  const facts = predicateFacts(predicate);
  const { kind, param: name } = facts;
  const param = tool.params[name];
  const paramAt = [...at, kind, ...facts.paramAt];
  if (!param) {
    refuse(paramAt, `${name} is not a parameter of this tool; declare it under params`);
    return;
  }
  if (facts.current !== undefined && guard.read === undefined) {
    refuse(
      [...at, kind, 'current'],
      'compares with the current value but the guard has no `read`; add `read: <get tool>`',
    );
  }
  if (facts.paramTypes && !facts.paramTypes.includes(param.type))
    refuse(
      paramAt,
      `${kind} needs a ${facts.paramTypes.join(' or ')} parameter; ${name} is ${param.type}`,
    );
  facts.check({
    tool,
    name,
    param,
    refuse: (below, message) => refuse([...at, kind, ...below], message),
  });
  for (const [value, below] of facts.enumValues) {
    if (param.enum && !param.enum.includes(String(value))) {
      refuse(
        [...at, kind, ...below],
        `${JSON.stringify(value)} is not one of ${name}'s enum values (${param.enum.join(', ')})`,
      );
    }
  }
}

function checkRead(
  tool: ManifestTool,
  read: string,
  byName: ReadonlyMap<string, ManifestTool>,
  refuse: Refuse,
  at: Segments = ['guard', 'read'],
): void {
  const source = byName.get(read);
  if (!source) {
    refuse(
      at,
      `names ${read}, which is not a tool in this manifest; name the read-only tool that returns the current value`,
    );
    return;
  }
  if (!source.annotations.readOnlyHint) {
    refuse(
      at,
      `names ${read}, which is not read-only; the read before a guarded call must not change anything`,
    );
  }
  if ((source.calls ?? []).length === 0) {
    refuse(
      at,
      `names ${read}, which has no call of its own (handler only); choose a tool with a plain GET`,
    );
  }
  for (const [name, param] of Object.entries(source.params)) {
    if (param.required !== true) continue;
    const mine = tool.params[name];
    if (!mine)
      refuse(
        at,
        `${read} requires ${name}, which this tool does not have; add ${name} or choose another read`,
      );
    else if (mine.type !== param.type && !integerAsText(mine, param))
      refuse(at, `${read} takes ${name} as ${param.type} but this tool has it as ${mine.type}`);
  }
}

/**
 * A read may be passed an integer where it takes a string (a pipeline number where
 * get_pipeline also takes "latest"): the generated read converts it with String().
 */
function integerAsText(mine: ManifestParam, theirs: ManifestParam): boolean {
  return mine.type === 'integer' && theirs.type === 'string';
}
