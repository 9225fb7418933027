// Pulls the OpenAPI description of the pinned Woodpecker from a running server.
//
//   npm run spec:pull                            starts the pinned woodpecker-server in a temp dir
//   npm run spec:pull -- --version main-a4cb541  starts another cached build (upgrade drill)
//   npm run spec:pull -- --url URL               reads a server that is already running
//   npm run spec:pull -- --out FILE              writes FILE instead of woodpecker-openapi.json
//
// Woodpecker serves Swagger 2.0 at /swagger/doc.json. We convert it to OpenAPI 3, apply the
// corrections declared in scripts/spec-overlay.json, stamp the server's version into
// info["x-woodpecker-version"] and write woodpecker-openapi.json at the repository root.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { woodpeckerBinaries } from '../test/harness/woodpecker-binaries.js';
import { startWoodpeckerServer } from '../test/harness/woodpecker-server-process.js';

type JsonObject = Record<string, unknown>;

interface ServerEntry {
  url: string;
}
type OverlayAction = (
  | { op: 'setDocumentServers'; servers: ServerEntry[] }
  | { op: 'renamePathParameter'; path: string; from: string; to: string }
  | { op: 'setPathServers'; paths: string[]; servers: ServerEntry[] }
  | { op: 'dropBodyField'; path: string; method: string; field: string }
) & {
  /** Only for these releases ("3.11.0"); every release when absent. */
  versions?: string[];
};

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputPath = join(repoRoot, 'woodpecker-openapi.json');
const overlayPath = join(repoRoot, 'scripts', 'spec-overlay.json');

// swagger2openapi ships no type declarations; this is the one function we use.
const swagger2openapi = createRequire(import.meta.url)('swagger2openapi') as {
  convertObj(swagger: JsonObject, options: JsonObject): Promise<{ openapi: JsonObject }>;
};

interface PullOptions {
  url?: string;
  version?: string;
  out: string;
}

function pullOptions(argv: string[]): PullOptions {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: 'string' }, version: { type: 'string' }, out: { type: 'string' } },
  });
  if (values.url !== undefined && values.version !== undefined) {
    throw new Error(
      '--url and --version exclude each other: --url reads a running server, --version starts a cached build',
    );
  }
  return {
    ...(values.url !== undefined ? { url: values.url.replace(/\/+$/, '') } : {}),
    ...(values.version !== undefined ? { version: values.version } : {}),
    out: values.out !== undefined ? resolve(values.out) : outputPath,
  };
}

async function getJson(url: string): Promise<JsonObject> {
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as JsonObject;
}

function pathsOf(document: JsonObject): Record<string, JsonObject> {
  return document.paths as Record<string, JsonObject>;
}

function renamePathParameter(
  document: JsonObject,
  action: Extract<OverlayAction, { op: 'renamePathParameter' }>,
): void {
  const paths = pathsOf(document);
  const pathItem = paths[action.path];
  if (pathItem === undefined) throw new Error(`overlay: path ${action.path} is not in the spec`);
  const newPath = action.path.replace(`{${action.from}}`, `{${action.to}}`);
  let renamedParameters = 0;
  for (const value of Object.values(pathItem)) {
    const parameters = (value as JsonObject | undefined)?.parameters;
    if (!Array.isArray(parameters)) continue;
    for (const parameter of parameters as JsonObject[]) {
      if (parameter.in === 'path' && parameter.name === action.from) {
        parameter.name = action.to;
        renamedParameters++;
      }
    }
  }
  if (renamedParameters === 0)
    throw new Error(`overlay: no path parameter ${action.from} under ${action.path}`);
  // Rebuild the paths object so the renamed entry keeps its position.
  document.paths = Object.fromEntries(
    Object.entries(paths).map(([path, item]) =>
      path === action.path ? [newPath, item] : [path, item],
    ),
  );
}

/** Follows a local $ref ("#/components/schemas/User"). */
function resolveRef(document: JsonObject, node: unknown): JsonObject | undefined {
  let at = node as JsonObject | undefined;
  for (let depth = 0; depth < 16 && typeof at?.$ref === 'string'; depth++) {
    at = (at.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((inner, key) => (inner as JsonObject | undefined)?.[key], document) as
      JsonObject | undefined;
  }
  return at;
}

// A field the spec lists for a request body but the handler of that release ignores
// (3.11's POST /users always stores forge 1): the operation gets its own copy of the body
// schema without it, so the generator sees the field as missing in that release.
function dropBodyField(
  document: JsonObject,
  action: Extract<OverlayAction, { op: 'dropBodyField' }>,
): void {
  const operation = pathsOf(document)[action.path]?.[action.method.toLowerCase()] as
    JsonObject | undefined;
  if (operation === undefined)
    throw new Error(`overlay: ${action.method.toUpperCase()} ${action.path} is not in the spec`);
  const requestBody = resolveRef(document, operation.requestBody);
  const json = (requestBody?.content as JsonObject | undefined)?.['application/json'] as
    JsonObject | undefined;
  const schema = resolveRef(document, json?.schema);
  const properties = schema?.properties as JsonObject | undefined;
  if (properties?.[action.field] === undefined)
    throw new Error(
      `overlay: the body of ${action.method.toUpperCase()} ${action.path} has no field ${action.field}`,
    );
  const { [action.field]: _dropped, ...kept } = properties;
  operation.requestBody = {
    ...requestBody,
    content: { 'application/json': { ...json, schema: { ...schema, properties: kept } } },
  };
}

function applyOverlay(document: JsonObject, actions: OverlayAction[], version: string): void {
  for (const action of actions) {
    if (action.versions !== undefined && !action.versions.includes(version)) continue;
    switch (action.op) {
      case 'dropBodyField':
        dropBodyField(document, action);
        break;
      case 'setDocumentServers':
        document.servers = action.servers;
        break;
      case 'renamePathParameter':
        renamePathParameter(document, action);
        break;
      case 'setPathServers':
        for (const path of action.paths) {
          const pathItem = pathsOf(document)[path];
          if (pathItem === undefined) throw new Error(`overlay: path ${path} is not in the spec`);
          pathItem.servers = action.servers;
        }
        break;
      default:
        throw new Error(`overlay: unknown op ${JSON.stringify((action as { op: unknown }).op)}`);
    }
  }
}

async function pullFrom(baseUrl: string, out: string): Promise<void> {
  const { version } = (await getJson(`${baseUrl}/version`)) as { version?: string };
  if (typeof version !== 'string') throw new Error(`${baseUrl}/version has no version field`);
  const swagger = await getJson(`${baseUrl}/swagger/doc.json`);
  // The served host is the pulling server's address; servers come from the overlay instead.
  delete swagger.host;
  delete swagger.schemes;
  const { openapi } = await swagger2openapi.convertObj(swagger, { patch: true, warnOnly: true });
  const overlay = JSON.parse(readFileSync(overlayPath, 'utf8')) as { actions: OverlayAction[] };
  applyOverlay(openapi, overlay.actions, version);
  (openapi.info as JsonObject)['x-woodpecker-version'] = version;
  writeFileSync(out, `${JSON.stringify(openapi, null, 2)}\n`);
  console.log(
    `wrote ${out} (Woodpecker ${version}, ${Object.keys(pathsOf(openapi)).length} paths)`,
  );
}

async function main(): Promise<void> {
  const options = pullOptions(process.argv.slice(2));
  if (options.url !== undefined) return pullFrom(options.url, options.out);

  const dir = mkdtempSync(join(tmpdir(), 'woodpecker-spec-pull-'));
  try {
    // Serving the spec needs no forge; the URL below is never contacted.
    const server = await startWoodpeckerServer({
      binary: woodpeckerBinaries(options.version).server,
      dir,
      forgeUrl: 'http://127.0.0.1:9',
      agentSecret: 'spec-pull-unused',
      adminLogins: [],
      oauthClientId: 'spec-pull-unused',
      oauthClientSecret: 'spec-pull-unused',
    });
    try {
      await pullFrom(server.url, options.out);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
