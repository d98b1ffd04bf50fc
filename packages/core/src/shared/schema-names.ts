import { z } from 'zod';

/**
 * The names of the API's resource schemas (Campaign, Lead, …): the OpenAPI document lists
 * each named schema once under `components/schemas` and refers to it from the operations,
 * so generated clients get one type per resource. A registry of its own rather than zod's
 * global one (`.meta({ id })`), whose ids the GraphQL bridge reads as type names.
 */
export const apiSchemaNames = z.registry<{ id: string }>();

/**
 * Names a resource schema in the API reference; answers the schema itself (the same
 * instance, so every other reader of it is unaffected). A name belongs to one schema.
 */
export function nameApiSchema<T extends z.ZodType>(schema: T, name: string): T {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`API schema name ${name} must be PascalCase letters and digits`);
  const holder = apiSchemaNames._idmap.get(name);
  if (holder && holder !== schema) throw new Error(`API schema name ${name} is given to two schemas`);
  apiSchemaNames.add(schema, { id: name });
  return schema;
}
