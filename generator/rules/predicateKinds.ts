// Stage 1b (compiled in stage 3): The guard predicate vocabulary of tools.yaml, one entry per kind. Everything the
// generator knows about a kind lives in its entry: the rules it checks (and their
// wording), what it adds to the model, the runtime call it compiles to, and the reason
// sentence it contributes. The rules, the model and the emitters look a kind up here
// instead of branching on it, so a new kind is one entry (plus its schema branch, its
// TypeScript type and its runtime helper, which test/generator/predicateKinds.test.ts
// holds against this table). `any` is not a kind: it combines them (predicates.ts).
import { EVENT_FAMILIES } from '../../runtime/core/woodpeckerEvents.js';
import type {
  ManifestParam,
  ManifestTool,
  ParamType,
  Predicate,
} from '../manifest/manifestTypes.js';

type Segments = readonly (string | number)[];

/** A predicate that is not `any`: exactly one kind key with its body. */
export type LeafPredicate = Exclude<Predicate, { readonly any: readonly Predicate[] }>;
type KeysOf<T> = T extends unknown ? keyof T : never;
type PredicateKind = KeysOf<LeafPredicate>;
type BodyOf<K extends PredicateKind> = Extract<LeafPredicate, Record<K, unknown>>[K];

/** Refuses at a place below the predicate's kind key (`[]` is the kind key itself). */
type RefuseBelow = (below: Segments, message: string) => void;

/** What a kind's own rules see of the tool whose guard uses it. */
interface PredicateRuleContext {
  readonly tool: ManifestTool;
  /** The parameter the predicate looks at (declared: checked before). */
  readonly name: string;
  readonly param: ManifestParam;
  readonly refuse: RefuseBelow;
}

/** The read-only tools a predicate calls to look at the levels a call's name meets. */
interface WiderReads {
  readonly param: string;
  readonly list: string;
  readonly organizationOf: string;
  readonly fold: string;
  readonly sameLevel: boolean;
}

interface PredicateKindEntry<Body> {
  /** The tool parameter the predicate looks at. */
  param(body: Body): string;
  /** Where the manifest names that parameter, below the kind key. */
  readonly paramAt: Segments;
  /** The dotted path into the guard's read it compares with; having one needs `read`. */
  current?(body: Body): string | undefined;
  /** The parameter types it can look at; absent: any type. */
  readonly paramTypes?: readonly ParamType[];
  /** Further rules on this tool, checked after the parameter's type. */
  check?(body: Body, rule: PredicateRuleContext): void;
  /** Manifest values that must be among the parameter's enum, with their place. */
  enumValues?(body: Body): readonly (readonly [unknown, Segments])[];
  /** Rules on the other tools it names, checked once every tool name is known. */
  checkOtherTools?(
    body: Body,
    byName: ReadonlyMap<string, ManifestTool>,
    refuse: RefuseBelow,
  ): void;
  /** Model data: the reads of wider levels it needs (at most one such predicate a guard). */
  widerReads?(body: Body): WiderReads;
  /** The exported function of runtime/gate/guardPredicates.ts it compiles to. */
  readonly helper: string;
  /**
   * The arguments of that call as code: `current` is the expression for the current
   * value (`valueAt(current, "path")` or `undefined`).
   */
  helperArgs(body: Body, current: string): readonly string[];
  /**
   * The fixed reason sentence it contributes when it holds, also the docs' "only when …".
   * Built from the manifest only (parameter names and manifest values), never from an
   * argument or an answer.
   */
  reason(body: Body): string;
}

const literal = (value: unknown): string => JSON.stringify(value);
const arg = (param: string): string => `args.${param}`;

/** The levels of secrets and registry logins, narrowest first. */
const LEVELS = ['repository', 'organization', 'global'] as const;

export const PREDICATE_KINDS: { readonly [K in PredicateKind]: PredicateKindEntry<BodyOf<K>> } = {
  equals: {
    param: (body) => body.param,
    paramAt: ['param'],
    enumValues: (body) => [[body.value, ['value']]],
    helper: 'equals',
    helperArgs: (body) => [arg(body.param), literal(body.value)],
    reason: (body) => `${body.param} is ${String(body.value)}`,
  },
  in: {
    param: (body) => body.param,
    paramAt: ['param'],
    enumValues: (body) => body.values.map((value, i) => [value, ['values', i]] as const),
    helper: 'isOneOf',
    helperArgs: (body) => [arg(body.param), literal(body.values)],
    reason: (body) => `${body.param} is one of ${body.values.map(String).join(', ')}`,
  },
  present: {
    param: (body) => body,
    paramAt: [],
    helper: 'isPresent',
    helperArgs: (body) => [arg(body)],
    reason: (body) => `a new ${body} is given`,
  },
  absent: {
    param: (body) => body,
    paramAt: [],
    helper: 'isAbsent',
    helperArgs: (body) => [arg(body)],
    reason: (body) => `no ${body} is given`,
  },
  grants: {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    paramTypes: ['boolean'],
    helper: 'grants',
    helperArgs: (body, current) => [arg(body.param), current],
    reason: (body) => `it grants ${body.param}`,
  },
  lowers: rankedKind('lowers'),
  widens: rankedKind('widens'),
  becomes: {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    enumValues: (body) => [[body.value, ['value']]],
    helper: 'becomes',
    helperArgs: (body, current) => [arg(body.param), literal(body.value), current],
    reason: (body) => `it sets ${body.param} to ${String(body.value)}`,
  },
  adds: {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    paramTypes: ['string_list'],
    enumValues: (body) => [[body.value, ['value']]],
    helper: 'adds',
    helperArgs: (body, current) => [arg(body.param), literal(body.value), current],
    reason: (body) => `it adds ${body.value} to ${body.param}`,
  },
  adds_family: {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    paramTypes: ['string_list'],
    // Every member must be a value the parameter accepts, or it could never ask for it.
    enumValues: (body) => EVENT_FAMILIES[body.family].map((event) => [event, ['family']] as const),
    helper: 'addsFamily',
    helperArgs: (body, current) => [arg(body.param), literal(EVENT_FAMILIES[body.family]), current],
    reason: (body) =>
      `it adds a ${body.family.replace(/_/g, ' ')} event (${EVENT_FAMILIES[body.family].join(', ')}) to ${body.param}`,
  },
  adds_any: {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    paramTypes: ['string_list'],
    helper: 'addsAny',
    helperArgs: (body, current) => [arg(body.param), current],
    reason: (body) => `it adds an entry to ${body.param}`,
  },
  empties: {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    paramTypes: ['string_list'],
    helper: 'empties',
    helperArgs: (body, current) => [arg(body.param), current],
    reason: (body) => `it empties ${body.param}`,
  },
  shadows: {
    param: (body) => body.param,
    paramAt: ['param'],
    check: (_body, rule) => checkLevelParams(rule),
    checkOtherTools: checkShadowReads,
    widerReads: (body) => ({
      param: body.param,
      list: body.list,
      organizationOf: body.organization_of,
      fold: body.fold,
      sameLevel: body.same_level,
    }),
    helper: 'shadows',
    helperArgs: () => ['wider'],
    reason: () =>
      'pipelines would take it for an entry that exists already (or a level could not be read)',
  },
};

/** A leaf predicate with its kind's entry applied to its body. */
interface PredicateFacts {
  readonly kind: PredicateKind;
  readonly param: string;
  readonly paramAt: Segments;
  readonly current: string | undefined;
  readonly paramTypes: readonly ParamType[] | undefined;
  check(rule: PredicateRuleContext): void;
  readonly enumValues: readonly (readonly [unknown, Segments])[];
  checkOtherTools(byName: ReadonlyMap<string, ManifestTool>, refuse: RefuseBelow): void;
  readonly widerReads: WiderReads | undefined;
  readonly helper: string;
  /** The emitted call, `helper(arguments)`. */
  call(current: string): string;
  /** Whether that call passes the parameter's argument (`shadows` passes its reads instead). */
  readonly readsParam: boolean;
  readonly reason: string;
}

/** Looks a leaf predicate's kind up in PREDICATE_KINDS. */
export function predicateFacts(leaf: LeafPredicate): PredicateFacts {
  const kind = Object.keys(leaf)[0] as PredicateKind;
  if (!Object.hasOwn(PREDICATE_KINDS, kind))
    throw new Error(
      `predicate kind ${literal(kind)} has no entry in generator/rules/predicateKinds.ts`,
    );
  return factsOf(kind, (leaf as Record<PredicateKind, unknown>)[kind] as BodyOf<typeof kind>);
}

function factsOf<K extends PredicateKind>(kind: K, body: BodyOf<K>): PredicateFacts {
  const entry: PredicateKindEntry<BodyOf<K>> = PREDICATE_KINDS[kind];
  return {
    kind,
    param: entry.param(body),
    paramAt: entry.paramAt,
    current: entry.current?.(body),
    paramTypes: entry.paramTypes,
    check: (rule) => entry.check?.(body, rule),
    enumValues: entry.enumValues?.(body) ?? [],
    checkOtherTools: (byName, refuse) => entry.checkOtherTools?.(body, byName, refuse),
    widerReads: entry.widerReads?.(body),
    helper: entry.helper,
    call: (current) => `${entry.helper}(${entry.helperArgs(body, current).join(', ')})`,
    readsParam: entry.helperArgs(body, 'undefined').includes(arg(entry.param(body))),
    reason: entry.reason(body),
  };
}

/**
 * `lowers` and `widens` are one shape in opposite directions: both rank a string
 * parameter's values (`order`) and ask when a call moves it one way along them.
 */
function rankedKind(kind: 'lowers' | 'widens'): PredicateKindEntry<{
  readonly param: string;
  readonly current: string;
  readonly order: readonly string[];
}> {
  return {
    param: (body) => body.param,
    paramAt: ['param'],
    current: (body) => body.current,
    paramTypes: ['string'],
    check: (body, rule) => checkOrderPlacesEveryValue(body.order, rule),
    enumValues: (body) => body.order.map((value, i) => [value, ['order', i]] as const),
    helper: kind,
    helperArgs: (body, current) => [arg(body.param), current, literal(body.order)],
    reason: (body) => `it ${kind} ${body.param}`,
  };
}

/** `lowers` and `widens` rank the parameter's values; an unranked value could never ask. */
function checkOrderPlacesEveryValue(order: readonly string[], rule: PredicateRuleContext): void {
  if (!rule.param.enum) return;
  const missing = rule.param.enum.filter((value) => !order.includes(value));
  if (missing.length > 0)
    rule.refuse(
      ['order'],
      `does not place ${missing.join(', ')}; order every enum value of ${rule.name}`,
    );
}

/** `shadows` takes the levels from the call's own arguments, so the tool must have them. */
function checkLevelParams({ tool, refuse }: PredicateRuleContext): void {
  const scope = tool.params.scope;
  if (scope?.type !== 'string' || (scope.enum ?? []).join(',') !== LEVELS.join(',')) {
    refuse([], `needs a scope parameter with enum [${LEVELS.join(', ')}], the levels it compares`);
  }
  for (const id of ['repo_id', 'org_id']) {
    if (tool.params[id]?.type !== 'integer')
      refuse([], `needs an integer ${id} parameter to read the call's own level`);
  }
}

/** The reads a `shadows` predicate declares must be plain GETs taking what it passes them. */
function checkShadowReads(
  shadows: BodyOf<'shadows'>,
  byName: ReadonlyMap<string, ManifestTool>,
  refuse: RefuseBelow,
): void {
  const wants: Array<[string, string, readonly string[]]> = [
    ['list', shadows.list, ['scope', 'repo_id', 'org_id', 'page', 'per_page']],
    ['organization_of', shadows.organization_of, ['repo_id']],
  ];
  for (const [field, name, passes] of wants) {
    const source = byName.get(name);
    if (!source) {
      refuse([field], `names ${name}, which is not a tool in this manifest`);
      continue;
    }
    if (!source.annotations.readOnlyHint || (source.calls ?? []).length === 0) {
      refuse([field], `names ${name}; it must be a read-only tool with a plain GET of its own`);
    }
    for (const param of passes) {
      if (!(param in source.params))
        refuse([field], `names ${name}, which takes no ${param}; the predicate passes it`);
    }
    const extra = Object.entries(source.params).filter(
      ([param, declared]) => declared.required === true && !passes.includes(param),
    );
    if (extra.length > 0)
      refuse(
        [field],
        `names ${name}, which also requires ${extra.map(([param]) => param).join(', ')}`,
      );
  }
}
