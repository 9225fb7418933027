// pathSegment is the last check before a value becomes part of a URL path: the schema
// refuses dot segments for generated calls, and this refuses them for any other caller.
import { describe, expect, it } from 'vitest';
import { pathSegment, RequestArgumentError } from '../../../runtime/woodpecker/requestParts.js';

describe('pathSegment', () => {
  it.each(['.', '..'])('refuses the dot segment %j, naming the parameter', (value) => {
    expect(() => pathSegment(value, 'name')).toThrow(RequestArgumentError);
    expect(() => pathSegment(value, 'name')).toThrow(/^name must not be "\.{1,2}"/);
  });

  it.each([undefined, null, ''])('refuses a missing value (%j), naming the parameter', (value) => {
    expect(() => pathSegment(value, 'repo_id')).toThrow(
      /^repo_id is required with these arguments/,
    );
  });

  it('encodes everything URL parsing would otherwise read as structure', () => {
    expect(pathSegment('a/b', 'name')).toBe('a%2Fb');
    expect(pathSegment('%2e%2e', 'name')).toBe('%252e%252e');
    expect(pathSegment('a?b#c', 'name')).toBe('a%3Fb%23c');
    expect(pathSegment('../..', 'name')).toBe('..%2F..');
    expect(pathSegment(9007199254740991, 'repo_id')).toBe('9007199254740991');
  });
});
