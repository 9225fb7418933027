// What a pasted link names, read from its text alone: nothing here fetches anything.
// Accepted: "owner/name", and web addresses of the configured Woodpecker as its UI shows
// them (/repos/7, /repos/7/pipeline/42, /repos/7/pipeline/42/3 where 3 is a step's or
// workflow's pid, with trailing pages such as /config), the older /repos/owner/name/...
// and /owner/name/... forms, and the API's own /api/repos/7/pipelines/42.
import { RequestArgumentError } from '../../woodpecker/requestParts.js';

export interface ParsedLink {
  readonly repo: { readonly id: number } | { readonly fullName: string };
  readonly number?: number;
  /** The step's or workflow's pid as the web UI puts it in the address. */
  readonly pid?: number;
  /** A trailing page the address names (config, errors, changed-files, branches, ...). */
  readonly page?: string;
}

const NAME = /^[\w.-]+\/[\w.-]+$/;
const NUMBER = /^[1-9]\d{0,15}$/;
/** First path segments of the web UI that are not a repository owner. */
const RESERVED = new Set([
  'repos',
  'api',
  'orgs',
  'org',
  'admin',
  'user',
  'login',
  'logout',
  'cli',
  'authorize',
  'settings',
  'web-config.js',
  'assets',
]);

export function parseLink(link: string, woodpeckerUrl: string): ParsedLink {
  const text = link.trim();
  if (NAME.test(text)) return { repo: { fullName: text } };

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('is neither a web address nor "owner/name"');
  }
  const home = new URL(woodpeckerUrl);
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.host.toLowerCase() !== home.host.toLowerCase()
  ) {
    // Only the host is named: a pasted address can carry a token in its query.
    throw new RequestArgumentError(
      `link points at ${url.protocol === 'http:' || url.protocol === 'https:' ? `host ${url.hostname}` : `a ${url.protocol} address`}, not this server's Woodpecker (${home.host}); only addresses of ${home.host} are resolved and nothing was fetched. Open the pipeline on ${home.host} and paste that address, or give "owner/name"`,
      'link',
    );
  }
  const base = home.pathname.replace(/\/+$/, '');
  if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`))
    throw invalid(`is not under ${home.host}${base}`);
  const segments = url.pathname.slice(base.length).split('/').filter(Boolean).map(decodeSegment);

  let repo: ParsedLink['repo'];
  let rest: string[];
  if (segments[0] === 'api' && segments[1] === 'repos' && NUMBER.test(segments[2] ?? '')) {
    repo = { id: Number(segments[2]) };
    rest = segments.slice(3);
  } else if (segments[0] === 'repos' && NUMBER.test(segments[1] ?? '')) {
    repo = { id: Number(segments[1]) };
    rest = segments.slice(2);
  } else if (segments[0] === 'repos' && segments.length >= 3) {
    repo = { fullName: `${segments[1]}/${segments[2]}` };
    rest = segments.slice(3);
  } else if (segments.length >= 2 && !RESERVED.has(segments[0]!)) {
    repo = { fullName: `${segments[0]}/${segments[1]}` };
    rest = segments.slice(2);
  } else {
    throw invalid(
      'names no repository (expected /repos/<id>/..., as the web UI shows a repository or pipeline)',
    );
  }
  if ('fullName' in repo && !NAME.test(repo.fullName)) throw invalid('names no repository');

  if ((rest[0] === 'pipeline' || rest[0] === 'pipelines') && NUMBER.test(rest[1] ?? '')) {
    const number = Number(rest[1]);
    if (NUMBER.test(rest[2] ?? '')) return { repo, number, pid: Number(rest[2]) };
    return rest[2] ? { repo, number, page: rest[2] } : { repo, number };
  }
  return rest[0] ? { repo, page: rest[0] } : { repo };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid('has a badly encoded path');
  }
}

function invalid(why: string): RequestArgumentError {
  return new RequestArgumentError(
    `link ${why}. Paste the address of a repository, pipeline or step page of this server's Woodpecker (https://<server>/repos/<id>/pipeline/<number>), or "owner/name"`,
    'link',
  );
}
