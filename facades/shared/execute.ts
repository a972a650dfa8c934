import { GraphQLError, parse, validate, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Context } from '../../src/context';
import { DomainError, Validation } from '../../src/domain/errors';

const compiled = new WeakMap<GraphQLSchema, Map<string, CompiledQuery>>();

/**
 * Parses, validates and compiles a facade's document once per schema (graphql-jit turns the operation into a
 * plain function: the facades run a fixed set of documents, so the compile cost is paid once).
 * A broken document is a programming error.
 */
function prepared(schema: GraphQLSchema, source: string): CompiledQuery {
  let bySource = compiled.get(schema);
  if (!bySource) compiled.set(schema, (bySource = new Map()));
  let query = bySource.get(source);
  if (!query) {
    const doc = parse(source);
    const errors = validate(schema, doc);
    if (errors.length) throw new Error(`Invalid facade document: ${errors.map((e) => e.message).join('; ')}\n${source}`);
    const result = compileQuery(schema, doc);
    if (!isCompiledQuery(result)) throw new Error(`Facade document does not compile: ${result.errors?.map((e) => e.message).join('; ')}`);
    query = result;
    bySource.set(source, query);
  }
  return query;
}

/** A failure that is not a domain error: logged by the facade with the request id, answered as 500. */
export class InternalFailure extends Error {
  constructor(readonly failure: unknown) {
    super('Server Error');
  }
}

/** Runs one GraphQL operation in-process (no HTTP hop) with the caller's context. */
export async function execute<T>(
  schema: GraphQLSchema,
  source: string,
  variables: Record<string, unknown>,
  ctx: Context,
): Promise<T> {
  const result: ExecutionResult = await prepared(schema, source).query(undefined, ctx, variables);
  if (result.errors?.length) throw unwrap(result.errors);
  return result.data as T;
}

/**
 * The raw result, errors with their paths: for a facade whose document has more than one root field and that
 * tells their errors apart (the MCP tools' scope check next to their query).
 */
export function executeResult(schema: GraphQLSchema, source: string, variables: Record<string, unknown>, ctx: Context): Promise<ExecutionResult> {
  return Promise.resolve(prepared(schema, source).query(undefined, ctx, variables));
}

/** The error a facade answers for a failed operation: the first domain error, else an internal failure. */
export function unwrap(errors: readonly GraphQLError[]): Error {
  for (const e of errors) if (e.originalError instanceof DomainError) return e.originalError;
  const first = errors[0];
  // Variable coercion failures (a value the facade let through with the wrong type) are the caller's input:
  // they carry no path, since no field was resolved.
  if (!first.path && /^Variable "\$/.test(first.message)) {
    return new Validation({ input: [first.message.replace(/^Variable "\$\w+" got invalid value .*?; /, '')] });
  }
  return new InternalFailure(first.originalError ?? first);
}
