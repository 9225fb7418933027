// Compiles a tool's JSON Schema the first time a value is checked against it, not when the
// tool is registered. Registering the catalogue (74 tools then) compiled 148 schemas with
// Ajv before the first tools/list could be answered, most of a cold start, for tools a
// session may never call.
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';

export class LazyValidator implements jsonSchemaValidator {
  constructor(private readonly inner: jsonSchemaValidator) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let check: JsonSchemaValidator<T> | undefined;
    return (input: unknown) => (check ??= this.inner.getValidator<T>(schema))(input);
  }
}
