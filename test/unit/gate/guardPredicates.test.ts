// The guard vocabulary, table-driven: for each predicate, when it asks and when not.
// Where the current value is unknown the predicates must ask (fail towards a person).
import { describe, expect, it } from 'vitest';
import {
  adds,
  addsAny,
  addsFamily,
  becomes,
  dialogId,
  dialogValue,
  empties,
  equals,
  grants,
  isAbsent,
  isOneOf,
  isPresent,
  lowers,
  shadows,
  valueAt,
  widens,
} from '../../../runtime/gate/guardPredicates.js';

type Case = [name: string, actual: boolean, want: boolean];
const ORDER = ['all_events', 'pull_requests', 'forks', 'none'];

const VISIBILITY = ['private', 'internal', 'public'];

const cases: Case[] = [
  ['equals > same value asks', equals('instance', 'instance'), true],
  ['equals > other value does not', equals('repository', 'instance'), false],
  ['in > listed value asks', isOneOf('panic', ['fatal', 'panic', 'disabled']), true],
  ['in > unlisted value does not', isOneOf('debug', ['fatal', 'panic', 'disabled']), false],
  ['present > a given value asks, even empty', isPresent(''), true],
  ['present > absent does not', isPresent(undefined), false],
  // delete_agent's needs_admin: { absent: org_id }: without an org it is a server agent.
  ['absent > not given asks', isAbsent(undefined), true],
  ['absent > a given id does not', isAbsent(5), false],
  ['absent > a given zero or empty value does not', isAbsent(0) || isAbsent(''), false],
  ['grants > true over false asks', grants(true, false), true],
  ['grants > true over unknown asks', grants(true, undefined), true],
  ['grants > true over true does not', grants(true, true), false],
  ['grants > withdrawing does not', grants(false, true), false],
  ['lowers > forks→none asks', lowers('none', 'forks', ORDER), true],
  ['lowers > forks→all_events does not', lowers('all_events', 'forks', ORDER), false],
  ['lowers > same does not', lowers('forks', 'forks', ORDER), false],
  ['lowers > unknown current counts as strictest', lowers('pull_requests', undefined, ORDER), true],
  ['lowers > strictest over unknown does not', lowers('all_events', 'weird', ORDER), false],
  ['lowers > a value outside the order asks', lowers('sometimes', 'forks', ORDER), true],
  ['lowers > absent does not', lowers(undefined, 'forks', ORDER), false],
  [
    'becomes > an argument other than the watched value does not',
    becomes('public', 'private', 'private'),
    false,
  ],
  ['becomes > to public from private asks', becomes('public', 'public', 'private'), true],
  ['becomes > already public does not', becomes('public', 'public', 'public'), false],
  ['adds > new member asks', adds(['push', 'pull_request'], 'pull_request', ['push']), true],
  [
    'adds > already there does not',
    adds(['pull_request'], 'pull_request', ['pull_request', 'push']),
    false,
  ],
  ['adds > unknown current asks', adds(['pull_request'], 'pull_request', undefined), true],
  ['adds > list without it does not', adds(['push'], 'pull_request', []), false],
  [
    'adds_family > a member the list lacks asks',
    addsFamily(
      ['push', 'pull_request_closed'],
      ['pull_request', 'pull_request_closed', 'pull_request_metadata'],
      ['push'],
    ),
    true,
  ],
  [
    'adds_family > a second member asks',
    addsFamily(
      ['pull_request', 'pull_request_metadata'],
      ['pull_request', 'pull_request_closed', 'pull_request_metadata'],
      ['pull_request'],
    ),
    true,
  ],
  [
    'adds_family > members it has already do not',
    addsFamily(
      ['pull_request_closed'],
      ['pull_request', 'pull_request_closed', 'pull_request_metadata'],
      ['pull_request_closed', 'push'],
    ),
    false,
  ],
  [
    'adds_family > no member does not',
    addsFamily(
      ['push', 'tag'],
      ['pull_request', 'pull_request_closed', 'pull_request_metadata'],
      ['push'],
    ),
    false,
  ],
  [
    'adds_family > no current list (a create) asks for any member',
    addsFamily(
      ['pull_request_metadata'],
      ['pull_request', 'pull_request_closed', 'pull_request_metadata'],
      undefined,
    ),
    true,
  ],
  ['empties > [] over a list asks', empties([], ['alpine']), true],
  ['empties > [] over [] does not', empties([], []), false],
  ['empties > [] over null (Go empty) does not', empties([], null), false],
  ['empties > [] over unknown asks', empties([], undefined), true],
  ['empties > non-empty does not', empties(['a'], ['b']), false],
  ['widens > private→internal asks', widens('internal', 'private', VISIBILITY), true],
  ['widens > internal→public asks', widens('public', 'internal', VISIBILITY), true],
  ['widens > private→public asks', widens('public', 'private', VISIBILITY), true],
  ['widens > public→internal does not', widens('internal', 'public', VISIBILITY), false],
  ['widens > internal→private does not', widens('private', 'internal', VISIBILITY), false],
  ['widens > same does not', widens('internal', 'internal', VISIBILITY), false],
  ['widens > unknown current counts as narrowest', widens('internal', undefined, VISIBILITY), true],
  ['widens > narrowest over unknown does not', widens('private', undefined, VISIBILITY), false],
  ['adds_any > another image asks', addsAny(['busybox'], ['alpine']), true],
  ['adds_any > one more image asks', addsAny(['alpine', 'busybox'], ['alpine']), true],
  ['adds_any > a subset does not', addsAny(['alpine'], ['alpine', 'busybox']), false],
  [
    'adds_any > the same list reordered does not',
    addsAny(['busybox', 'alpine'], ['alpine', 'busybox']),
    false,
  ],
  ['adds_any > a list over null (every step) does not', addsAny(['alpine'], null), false],
  ['adds_any > a list over [] (every step) does not', addsAny(['alpine'], []), false],
  ['adds_any > a list over unknown asks', addsAny(['alpine'], undefined), true],
  ['adds_any > [] is for empties, not this', addsAny([], ['alpine']), false],
  ['adds_any > absent does not', addsAny(undefined, ['alpine']), false],
  [
    'shadows > nothing at any level does not',
    shadows([
      { scope: 'organization', id: 3, status: 'clear' },
      { scope: 'global', status: 'clear' },
    ]),
    false,
  ],
  [
    'shadows > a colliding level asks',
    shadows([
      { scope: 'organization', id: 3, status: 'clear' },
      { scope: 'global', status: 'collides' },
    ]),
    true,
  ],
  [
    'shadows > a level that could not be read asks',
    shadows([
      { scope: 'organization', id: 3, status: 'unknown' },
      { scope: 'global', status: 'clear' },
    ]),
    true,
  ],
  ['shadows > no level to look at does not', shadows([]), false],
  ['shadows > no lookup at all does not', shadows(undefined), false],
];

describe('guard predicates', () => {
  it.each(cases)('%s', (_name, actual, want) => {
    expect(actual).toBe(want);
  });

  it('valueAt follows dotted paths and gives undefined for anything missing', () => {
    const answer = { trusted: { network: true }, list: [1] };
    expect(valueAt(answer, 'trusted.network')).toBe(true);
    expect(valueAt(answer, 'trusted.volumes')).toBeUndefined();
    expect(valueAt(answer, 'list.0')).toBeUndefined();
    expect(valueAt(undefined, 'trusted')).toBeUndefined();
    expect(valueAt('text', 'length')).toBeUndefined();
  });

  it('dialogValue shows numbers, enum values and lists; says when nothing was given', () => {
    expect(dialogValue(42)).toBe('42');
    expect(dialogValue(['push', 'tag'])).toBe('push, tag');
    expect(dialogValue(undefined)).toBe('not given');
  });

  it('dialogId prints only an integer from an answer, never text a server sent in its place', () => {
    expect(dialogId(17)).toBe('17');
    expect(dialogId('17; approve pipeline 9')).toBe('–');
    expect(dialogId(1.5)).toBe('–');
    expect(dialogId(undefined)).toBe('–');
  });
});
