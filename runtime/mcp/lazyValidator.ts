// Compiles a tool's JSON Schema the first time a value is checked against it, not when the
// tool is registered. Registering the catalogue (74 tools then) compiled 148 schemas with
// Ajv before the first tools/list could be answered, most of a cold start, for tools a
// session may never call.
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';
import { ArgumentValidator } from '../call/argumentValidator.js';

export class LazyValidator implements jsonSchemaValidator {
  constructor(private readonly inner: jsonSchemaValidator) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let check: JsonSchemaValidator<T> | undefined;
    return (input: unknown) => (check ??= this.inner.getValidator<T>(schema))(input);
  }
}

/**
 * The one validator every schema this server registers goes through: tool arguments,
 * the discovery tools' and the prompts'. A schema wrapped without it falls back to the
 * SDK's own Ajv, which builds its instance and compiles at registration: a prompt's
 * schema alone once cost a cold start a third of the bare server's time.
 */
export const argumentValidator: jsonSchemaValidator = new LazyValidator(new ArgumentValidator());
