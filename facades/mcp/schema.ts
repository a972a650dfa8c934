/**
 * Small JSON Schema builders for tool input and output schemas. What a tool publishes is what the server enforces
 * (inputs are validated with Ajv against the very object `tools/list` returns), so bounds and defaults are written
 * once, here and in the tool files.
 */
export type JsonSchema = { [key: string]: unknown };

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (extra: JsonSchema = {}): JsonSchema => ({ type: 'boolean', ...extra });
export const arr = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const oneOf = (values: readonly (string | number)[], extra: JsonSchema = {}): JsonSchema => ({
  type: typeof values[0] === 'number' ? 'integer' : 'string',
  enum: [...values],
  ...extra,
});

/** A positive 32-bit id (GraphQL's Int). */
export const id = (description: string): JsonSchema => int({ minimum: 1, maximum: 2_147_483_647, description });
export const date = (description: string): JsonSchema => str({ format: 'date', description: `${description} (YYYY-MM-DD)` });
export const dateTime = (description: string): JsonSchema => str({ format: 'date-time', description });
export const uuid = (description: string): JsonSchema =>
  str({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description });
export const page = (): JsonSchema => int({ minimum: 1, maximum: 100_000, default: 1, description: 'Page number, 1-based.' });
export const perPage = (max: number, dflt?: number): JsonSchema =>
  int({ minimum: 1, maximum: max, ...(dflt === undefined ? {} : { default: dflt }), description: `Items per page (1-${max}).` });

/** Tool arguments: exactly these properties, nothing else (an unknown argument is -32602). */
export function input(properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** An output object whose every property is always present (null where the type allows it). */
export function object(properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...extra };
}

/**
 * The same schema, also allowing null. Written as `anyOf` branches of one `type` each, not `type: [t, 'null']`: clients
 * that map tool schemas onto a single-`type` dialect (Gemini's OpenAPI subset, for one) drop or refuse type arrays, and
 * MCP Inspector's `--strict` portability check flags them. The description stays on the outside.
 */
export function nullable(schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }) };
}

/** `{data: [...], pagination: {...}}`: the structured result of every list tool. */
export const paginationSchema: JsonSchema = object({
  page: int({ minimum: 1 }),
  per_page: int({ minimum: 1 }),
  total: int({ minimum: 0 }),
  last_page: int({ minimum: 1 }),
  has_more: bool(),
});

export function paginated(item: JsonSchema): JsonSchema {
  return object({ data: arr(item), pagination: paginationSchema });
}

export interface PageData<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

export function pageOf<T, R>(p: PageData<T>, map: (item: T) => R) {
  const lastPage = Math.max(1, Math.ceil(p.total / p.perPage));
  return {
    data: p.items.map(map),
    pagination: { page: p.page, per_page: p.perPage, total: p.total, last_page: lastPage, has_more: p.page < lastPage },
  };
}
