// Walking and describing guard predicates. Shared by the rules (which check them), the
// model (which compiles them) and the docs (which explain them).
import type { Predicate } from './manifestTypes.js';

type Segments = readonly (string | number)[];

/** Visits every leaf predicate (those inside `any` too) with its place in the manifest. */
export function forEachPredicate(
  predicate: Predicate,
  at: Segments,
  visit: (leaf: Predicate, at: Segments) => void,
): void {
  if ('any' in predicate) {
    predicate.any.forEach((inner, i) => forEachPredicate(inner, [...at, 'any', i], visit));
  } else {
    visit(predicate, at);
  }
}

export function leavesOf(predicate: Predicate): Predicate[] {
  const leaves: Predicate[] = [];
  forEachPredicate(predicate, [], (leaf) => leaves.push(leaf));
  return leaves;
}

/** The tool parameter a leaf predicate looks at. */
export function predicateParam(predicate: Predicate): string | undefined {
  if ('equals' in predicate) return predicate.equals.param;
  if ('in' in predicate) return predicate.in.param;
  if ('present' in predicate) return predicate.present;
  if ('grants' in predicate) return predicate.grants.param;
  if ('lowers' in predicate) return predicate.lowers.param;
  if ('widens' in predicate) return predicate.widens.param;
  if ('becomes' in predicate) return predicate.becomes.param;
  if ('adds' in predicate) return predicate.adds.param;
  if ('adds_any' in predicate) return predicate.adds_any.param;
  if ('empties' in predicate) return predicate.empties.param;
  if ('shadows' in predicate) return predicate.shadows.param;
  return undefined;
}

export function predicateCurrent(predicate: Predicate): string | undefined {
  if ('grants' in predicate) return predicate.grants.current;
  if ('lowers' in predicate) return predicate.lowers.current;
  if ('widens' in predicate) return predicate.widens.current;
  if ('becomes' in predicate) return predicate.becomes.current;
  if ('adds' in predicate) return predicate.adds.current;
  if ('adds_any' in predicate) return predicate.adds_any.current;
  if ('empties' in predicate) return predicate.empties.current;
  return undefined;
}

/**
 * The fixed sentence a leaf contributes when it holds. Built from the manifest only
 * (parameter names and manifest values), never from an argument or an answer.
 */
export function reasonOf(predicate: Predicate): string {
  if ('equals' in predicate)
    return `${predicate.equals.param} is ${String(predicate.equals.value)}`;
  if ('in' in predicate)
    return `${predicate.in.param} is one of ${predicate.in.values.map(String).join(', ')}`;
  if ('present' in predicate) return `a new ${predicate.present} is given`;
  if ('grants' in predicate) return `it grants ${predicate.grants.param}`;
  if ('lowers' in predicate) return `it lowers ${predicate.lowers.param}`;
  if ('widens' in predicate) return `it widens ${predicate.widens.param}`;
  if ('becomes' in predicate)
    return `it sets ${predicate.becomes.param} to ${String(predicate.becomes.value)}`;
  if ('adds' in predicate) return `it adds ${predicate.adds.value} to ${predicate.adds.param}`;
  if ('adds_any' in predicate) return `it adds an entry to ${predicate.adds_any.param}`;
  if ('empties' in predicate) return `it empties ${predicate.empties.param}`;
  if ('shadows' in predicate)
    return 'it would shadow an entry of the same name at a wider level (or at a level it could not read)';
  return 'always asks';
}

/** "always", or "only when it grants x, lowers y or sets z to public". */
export function conditionOf(when: 'always' | Predicate): string {
  if (when === 'always') return 'always';
  const reasons = leavesOf(when).map(reasonOf);
  // "it grants a, it lowers b" reads better as "it grants a, lowers b".
  const phrases = reasons.map((reason, i) =>
    i > 0 && reason.startsWith('it ') && (reasons[i - 1] ?? '').startsWith('it ')
      ? reason.slice(3)
      : reason,
  );
  if (phrases.length === 1) return `only when ${phrases[0] ?? ''}`;
  return `only when ${phrases.slice(0, -1).join(', ')} or ${phrases[phrases.length - 1] ?? ''}`;
}
