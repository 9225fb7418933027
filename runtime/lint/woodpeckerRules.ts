// The checks Woodpecker's linter makes that its schema cannot (pipeline/frontend/yaml/
// linter/linter.go in each release), written here from what they check, in our words.
// They differ by release, so each takes the release the config is judged by: optional
// `depends_on`, `network_mode: none`, the `runs_on` and variable deprecations came after
// 3.11; unique service names in 3.18. What Woodpecker decides from the repository's trust
// or the server's plugin lists, which a text alone does not show, is a warning that says
// what it depends on.

type Json = Record<string, unknown>;
type Segments = readonly (string | number)[];

export interface RuleFinding {
  readonly severity: 'error' | 'warning';
  /** A short name for the check, stable across releases. */
  readonly rule: string;
  readonly segments: Segments;
  readonly message: string;
  /** Where in the text it was found, for a finding about the raw text (a variable). */
  readonly offset?: number;
}

/** Which of Woodpecker's checks apply: the release the config is judged by. */
export interface RuleRelease {
  /** 3.17 and later (runs_on and variable deprecations, optional dependencies, network_mode none). */
  readonly after311: boolean;
  /** 3.18 and later (service names must differ). */
  readonly since318: boolean;
}

interface Container {
  readonly name: string;
  readonly segments: Segments;
  readonly body: Json;
}

const isMap = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Woodpecker's `len(x) != 0` for a value that may be text, a list or a map. */
function filled(value: unknown): boolean {
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return value !== undefined && value !== null && value !== false;
}

/** Steps, services or clone steps, named as Woodpecker names them (the key, or `name`). */
function containersOf(config: Json, area: string): Container[] {
  const list = config[area];
  if (isMap(list))
    return Object.entries(list).map(([key, body]) => {
      const map = isMap(body) ? body : {};
      const name = typeof map.name === 'string' && map.name !== '' ? map.name : key;
      return { name, segments: [area, key], body: map };
    });
  if (Array.isArray(list))
    return list.map((body, index) => {
      const map = isMap(body) ? body : {};
      const name = typeof map.name === 'string' && map.name !== '' ? map.name : `step-${index}`;
      return { name, segments: [area, index], body: map };
    });
  return [];
}

/** An image name without registry default, tag or digest: `docker.io/library/x:1` → `x`. */
export function imageName(image: string): string {
  let name = image.trim().split('@')[0] ?? '';
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) name = name.slice(0, colon);
  name = name.replace(/^(?:index\.)?docker\.io\//, '');
  return name.replace(/^library\/(?=[^/]+$)/, '');
}

// The plugins that were privileged by default until 3.x and the clone images that get the
// forge's netrc without being named in the server's settings (shared/constant in each release).
const FORMERLY_PRIVILEGED = [
  'plugins/docker',
  'plugins/gcr',
  'plugins/ecr',
  'woodpeckerci/plugin-docker-buildx',
];
const TRUSTED_CLONE = ['woodpeckerci/plugin-git', 'quay.io/woodpeckerci/plugin-git'];

// Each field Woodpecker allows only in a repository trusted for it, and for what.
const TRUSTED_FIELDS: readonly { field: string; trust: string }[] = [
  { field: 'privileged', trust: 'security' },
  { field: 'dns', trust: 'network' },
  { field: 'dns_search', trust: 'network' },
  { field: 'extra_hosts', trust: 'network' },
  { field: 'network_mode', trust: 'network' },
  { field: 'devices', trust: 'volumes' },
  { field: 'volumes', trust: 'volumes' },
  { field: 'tmpfs', trust: 'volumes' },
];

// Variables a release still sets but calls deprecated, with the name to use instead.
const DEPRECATED_VARIABLES: readonly (readonly [string, string])[] = [
  ['CI_COMMIT_PRERELEASE', 'CI_PIPELINE_RELEASE_PRE'],
  ['CI_COMMIT_AUTHOR_AVATAR', 'CI_PIPELINE_AVATAR'],
  ['CI_PREV_COMMIT_AUTHOR_AVATAR', 'CI_PREV_PIPELINE_AVATAR'],
];

export function woodpeckerRules(
  config: unknown,
  text: string,
  release: RuleRelease,
): RuleFinding[] {
  const root = isMap(config) ? config : {};
  const findings: RuleFinding[] = [];
  const add = (finding: RuleFinding) => findings.push(finding);
  const steps = containersOf(root, 'steps');
  if (steps.length === 0)
    add({
      severity: 'error',
      rule: 'steps',
      segments: ['steps'],
      message: 'the workflow has no steps: `steps` is missing or empty',
    });

  for (const clone of containersOf(root, 'clone')) {
    const image = typeof clone.body.image === 'string' ? imageName(clone.body.image) : '';
    if (!TRUSTED_CLONE.includes(image))
      add({
        severity: 'warning',
        rule: 'clone-image',
        segments: [...clone.segments, 'image'],
        message:
          'this clone image is not one Woodpecker trusts by default, so it gets no forge credentials (netrc) unless the server lists it in WOODPECKER_PLUGINS_TRUSTED_CLONE',
      });
  }
  for (const area of ['clone', 'steps', 'services'])
    for (const container of containersOf(root, area))
      containerRules(container, area, steps, release, add);

  if (release.since318) {
    const seen = new Set<string>();
    for (const service of containersOf(root, 'services')) {
      if (seen.has(service.name))
        add({
          severity: 'error',
          rule: 'service-name',
          segments: service.segments,
          message: `two services are named \`${service.name}\`; a service's name is its host name, so each must differ`,
        });
      seen.add(service.name);
    }
  }
  if (release.after311) {
    if (filled(root.runs_on))
      add({
        severity: 'warning',
        rule: 'deprecated',
        segments: ['runs_on'],
        message: '`runs_on` is deprecated; say when a step runs with `when: { status: [...] }`',
      });
    for (const [old, replacement] of DEPRECATED_VARIABLES) {
      const match = new RegExp(`\\$\\{${old}\\}|\\$\\$?${old}(?![A-Za-z0-9_])`).exec(text);
      if (match)
        add({
          severity: 'warning',
          rule: 'deprecated',
          segments: [],
          offset: match.index,
          message: `${old} is deprecated; use ${replacement}`,
        });
    }
  }
  eventFilterHabit(root, steps, add);
  return findings;
}

function containerRules(
  container: Container,
  area: string,
  steps: readonly Container[],
  release: RuleRelease,
  add: (finding: RuleFinding) => void,
): void {
  const { body, segments } = container;
  if (typeof body.image !== 'string' || body.image === '')
    add({
      severity: 'error',
      rule: 'image',
      segments,
      message: `\`${container.name}\` has no image`,
    });
  for (const { field, trust } of TRUSTED_FIELDS) {
    const value = body[field];
    if (!filled(value)) continue;
    if (field === 'network_mode' && release.after311 && value === 'none') continue;
    add({
      severity: 'warning',
      rule: 'trusted',
      segments: [...segments, field],
      message: `\`${field}\` is refused unless the repository is trusted for ${trust} (an admin sets it with update_repository)`,
    });
  }
  if (filled(body.settings)) {
    if (filled(body.commands))
      add({
        severity: 'error',
        rule: 'settings',
        segments,
        message: 'a step has either `settings` (a plugin) or `commands`, not both',
      });
    else if (filled(body.entrypoint))
      add({
        severity: 'error',
        rule: 'settings',
        segments,
        message: 'a step has either `settings` (a plugin) or `entrypoint`, not both',
      });
    else if (filled(body.environment))
      add({
        severity: 'warning',
        rule: 'settings',
        segments,
        message: 'a plugin step should take its values in `settings`, not `environment`',
      });
  }
  const image = typeof body.image === 'string' ? imageName(body.image) : '';
  if (FORMERLY_PRIVILEGED.includes(image) && !(release.after311 && body.privileged === true))
    add({
      severity: 'warning',
      rule: 'privileged-plugin',
      segments,
      message: `\`${image}\` no longer runs privileged by default: unless the server lists it in WOODPECKER_PLUGINS_PRIVILEGED, the step fails where it needs that`,
    });
  if (!release.after311 && filled(body.secrets))
    add({
      severity: 'error',
      rule: 'deprecated',
      segments: [...segments, 'secrets'],
      message: '`secrets` is deprecated: give each secret in `environment` with `from_secret`',
    });
  if (area === 'steps') dependsOnRule(container, steps, release, add);
}

function dependsOnRule(
  container: Container,
  steps: readonly Container[],
  release: RuleRelease,
  add: (finding: RuleFinding) => void,
): void {
  const raw = container.body.depends_on;
  const dependencies = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  for (const dependency of dependencies) {
    const name = isMap(dependency) ? dependency.name : dependency;
    if (steps.some((step) => step.name === name)) continue;
    if (release.after311 && isMap(dependency) && dependency.optional === true) continue;
    add({
      severity: 'error',
      rule: 'depends_on',
      segments: [...container.segments, 'depends_on'],
      message: `depends on \`${String(name)}\`, which is no step of this workflow`,
    });
  }
}

/** The constraints of a `when`: a map is one, a list is each of its items. */
function constraintsOf(when: unknown): unknown[] {
  if (Array.isArray(when)) return when;
  return when === undefined || when === null ? [] : [when];
}

const hasEvent = (constraint: unknown) => isMap(constraint) && filled(constraint.event);

// Woodpecker's "bad habit": a step that runs on every event (a pull request from a fork
// included) because neither it nor the workflow says which events it is for.
function eventFilterHabit(
  root: Json,
  steps: readonly Container[],
  add: (finding: RuleFinding) => void,
): void {
  const workflow = constraintsOf(root.when);
  if (workflow.length > 0 && workflow.every(hasEvent)) return;
  for (const step of steps) {
    const constraints = constraintsOf(step.body.when);
    if (constraints.length === 0) {
      add({
        severity: 'warning',
        rule: 'event-filter',
        segments: step.segments,
        message:
          'runs on every event: give this step or the whole workflow a `when` with an `event`',
      });
      continue;
    }
    const index = constraints.findIndex((constraint) => !hasEvent(constraint));
    if (index >= 0)
      add({
        severity: 'warning',
        rule: 'event-filter',
        segments: Array.isArray(step.body.when)
          ? [...step.segments, 'when', index]
          : [...step.segments, 'when'],
        message:
          'this `when` item has no `event`, so the step runs on every event it matches: give every item one',
      });
  }
}
