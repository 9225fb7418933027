// Stage 4c: openapi-typescript's view of the spec, which the tool modules type their
// query and body against.
import openapiTS, { astToString } from 'openapi-typescript';
import { formatTypeScript } from '../format.js';
import { tsHeader, type Inputs } from '../header.js';
import type { OpenApiDocument } from '../spec/specCheck.js';

export async function emitApiTypes(spec: OpenApiDocument, inputs: Inputs): Promise<string> {
  // A deep copy: openapi-typescript may annotate the document it is given.
  const ast = await openapiTS(structuredClone(spec) as unknown as Parameters<typeof openapiTS>[0]);
  return formatTypeScript(tsHeader(inputs) + astToString(ast));
}
