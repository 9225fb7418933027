// What a pasted link names, from its text alone: the web UI's address forms, trailing
// pages, a path prefix, and the refusals (another host, another scheme, no repository).
import { describe, expect, it } from 'vitest';
import { parseLink } from '../../../runtime/handlers/reads/linkParts.js';

const HOME = 'https://ci.example.com';

describe('parseLink', () => {
  it.each([
    ['octo/app', { repo: { fullName: 'octo/app' } }],
    [`${HOME}/repos/7`, { repo: { id: 7 } }],
    [`${HOME}/repos/7/`, { repo: { id: 7 } }],
    [`${HOME}/repos/7/branches`, { repo: { id: 7 }, page: 'branches' }],
    [`${HOME}/repos/7/pipeline/42`, { repo: { id: 7 }, number: 42 }],
    [`${HOME}/repos/7/pipeline/42/3`, { repo: { id: 7 }, number: 42, pid: 3 }],
    [
      `${HOME}/repos/7/pipeline/42/changed-files?x=1#L3`,
      { repo: { id: 7 }, number: 42, page: 'changed-files' },
    ],
    [`${HOME}/repos/octo/app/pipeline/42`, { repo: { fullName: 'octo/app' }, number: 42 }],
    [`${HOME}/octo/app/pipeline/42/5`, { repo: { fullName: 'octo/app' }, number: 42, pid: 5 }],
    [`${HOME}/api/repos/7/pipelines/42`, { repo: { id: 7 }, number: 42 }],
    ['HTTPS://CI.EXAMPLE.COM/repos/7', { repo: { id: 7 } }],
  ])('%s', (link, expected) => {
    expect(parseLink(link, HOME)).toEqual(expected);
  });

  it('keeps to the path the server is served under', () => {
    expect(
      parseLink('https://example.com/ci/repos/7/pipeline/2', 'https://example.com/ci'),
    ).toEqual({ repo: { id: 7 }, number: 2 });
    expect(() => parseLink('https://example.com/repos/7', 'https://example.com/ci')).toThrow(
      /link is not under example.com\/ci/,
    );
  });

  it('refuses another host or scheme, naming only the host, never the rest of the address', () => {
    const attempt = () => parseLink('https://ci.example.com.evil.test/repos/7?token=abc123', HOME);
    expect(attempt).toThrow(
      /link points at host ci\.example\.com\.evil\.test, not this server's Woodpecker \(ci\.example\.com\).*nothing was fetched/,
    );
    expect(attempt).not.toThrow(/abc123/);
    expect(() => parseLink('https://ci.example.com:8443/repos/7', HOME)).toThrow(
      /not this server's Woodpecker/,
    );
    expect(() => parseLink('file:///etc/passwd', HOME)).toThrow(/link points at a file: address/);
  });

  it('refuses what names no repository', () => {
    expect(() => parseLink('hello there', HOME)).toThrow(
      /link is neither a web address nor "owner\/name"/,
    );
    expect(() => parseLink(`${HOME}/admin/settings`, HOME)).toThrow(/link names no repository/);
    expect(() => parseLink(`${HOME}/repos/0`, HOME)).toThrow(/link names no repository/);
    expect(() => parseLink(`${HOME}/repos/7/pipeline/%E0%A4%A`, HOME)).toThrow(/badly encoded/);
  });
});
