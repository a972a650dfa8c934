import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { RequestHandler } from 'express';
import { GraphQLError, Kind, Lexer, Source, TokenKind, type DocumentNode, type SelectionSetNode, type ValidationRule } from 'graphql';
import type { Config } from '../config';
import type { Context } from '../context';

/**
 * Limits of the public `/graphql` endpoint (GraphQL Armor): a request is refused at validation, before any resolver
 * runs, when it nests deeper, aliases more, costs more or is longer than configured. The REST and MCP facades run
 * the server's own documents through `facades/shared/execute.ts` and are bounded by their route records instead.
 */
export type GraphQLLimitsConfig = Pick<Config, 'GRAPHQL_MAX_DEPTH' | 'GRAPHQL_MAX_ALIASES' | 'GRAPHQL_MAX_COST' | 'GRAPHQL_MAX_TOKENS' | 'GRAPHQL_MAX_DIRECTIVES'>;

export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimitsConfig = {
  GRAPHQL_MAX_DEPTH: 12,
  GRAPHQL_MAX_ALIASES: 30,
  GRAPHQL_MAX_COST: 5000,
  GRAPHQL_MAX_TOKENS: 5000,
  GRAPHQL_MAX_DIRECTIVES: 50,
};

export function graphqlLimits(config: Partial<GraphQLLimitsConfig> = {}): { plugins: ApolloServerPlugin[]; validationRules: ValidationRule[] } {
  const limits = { ...DEFAULT_GRAPHQL_LIMITS, ...config };
  const armor = new ApolloArmor({
    maxDepth: { n: limits.GRAPHQL_MAX_DEPTH, ignoreIntrospection: true, exposeLimits: true },
    maxAliases: { n: limits.GRAPHQL_MAX_ALIASES, exposeLimits: true },
    costLimit: { maxCost: limits.GRAPHQL_MAX_COST, ignoreIntrospection: true, exposeLimits: true },
    // Armor's token plugin throws while parsing, which Apollo answers 500; `tokenLimit` below runs first instead.
    maxTokens: { enabled: false },
    maxDirectives: { n: limits.GRAPHQL_MAX_DIRECTIVES, exposeLimits: true },
    // Field suggestions ("Did you mean ...?") would describe the schema to callers that may not introspect it.
    blockFieldSuggestion: { enabled: true },
  });
  const { plugins, validationRules } = armor.protect();
  return { plugins, validationRules: [...validationRules, oncePerOperation(ONCE_PER_OPERATION)] };
}

/**
 * Root fields that reach outside per call (a message sent, a receiver called, a provider asked, a workflow of provider
 * calls started): one request may ask each once. Aliases would otherwise multiply one request, which the rate limit
 * counts once, into as many messages, POSTs or provider calls as the alias limit allows (docs/decisions/api-conventions.md).
 * Fields of the public pages and the inbound webhook (`@Authorized(LINK)`) are refused on `/graphql` anyway.
 */
export const ONCE_PER_OPERATION: ReadonlySet<string> = new Set([
  // A message: the test message, and review requests (mail/SMS/messaging steps sent by the dispatcher).
  'sendTestMessage',
  'inviteContact',
  'inviteContacts',
  // The account mails of a new customer (login details, connect links).
  'createCustomer',
  // A receiver called: the test event, a redelivery (a workflow of up to 11 POSTs).
  'testWebhookEndpoint',
  'redeliverWebhook',
  // The AI provider.
  'draftReviewResponse',
  'aiInsights',
  // A review platform (the reply published on Google or Facebook).
  'replyToReview',
  'approveReplyDraft',
  // A grid scan: geocoding, then a run of up to 4,500 ranking calls (pins x keywords).
  'createScan',
  'runScan',
]);

/** A validation rule: each of `fields` at most once among an operation's root fields (fragments and aliases included). */
export function oncePerOperation(fields: ReadonlySet<string>): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      const counts = new Map<string, number>();
      for (const name of rootFieldNames(operation.selectionSet, context.getDocument())) counts.set(name, (counts.get(name) ?? 0) + 1);
      for (const [name, n] of counts) {
        if (n > 1 && fields.has(name)) {
          context.reportError(new GraphQLError(`${name} may be asked once per request (asked ${n} times).`, { nodes: [operation], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
        }
      }
    },
  });
}

/** The names of an operation's root fields, through inline fragments and fragment spreads (each fragment once). */
function rootFieldNames(set: SelectionSetNode, document: DocumentNode, names: string[] = [], seen = new Set<string>()): string[] {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) rootFieldNames(selection.selectionSet, document, names, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) rootFieldNames(fragment.selectionSet, document, names, seen);
    }
  }
  return names;
}

const selectsIntrospection = (set: SelectionSetNode, document: DocumentNode): boolean =>
  rootFieldNames(set, document).some((name) => name === '__schema' || name === '__type');

/**
 * In production, the schema is described to signed-in callers only: an anonymous `__schema` / `__type` query is
 * answered 401 UNAUTHENTICATED, like every other anonymous operation. (`__typename` stays: it reveals nothing.)
 */
export function introspectionForSignedInOnly(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, document, operation }) {
          if (contextValue.principal) return;
          if (!operation || !selectsIntrospection(operation.selectionSet, document)) return;
          throw new GraphQLError('Introspection needs a valid bearer token.', {
            extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
          });
        },
      };
    },
  };
}

/** How many lexical tokens `query` has, counting no further than `max + 1`; null when it does not even lex. */
function countTokens(query: string, max: number): number | null {
  try {
    const lexer = new Lexer(new Source(query));
    let n = 0;
    while (lexer.advance().kind !== TokenKind.EOF) if (++n > max) break;
    return n;
  } catch {
    return null; // Apollo answers the syntax error itself.
  }
}

/**
 * The token limit, before Apollo parses the document: a longer document is answered 400 with a GraphQL error body
 * (`GRAPHQL_VALIDATION_FAILED`), so a huge document costs one bounded scan, not a parse.
 */
export function tokenLimit(max: number = DEFAULT_GRAPHQL_LIMITS.GRAPHQL_MAX_TOKENS): RequestHandler {
  return (req, res, next) => {
    const query = (req.body as { query?: unknown } | undefined)?.query ?? req.query?.query;
    if (typeof query !== 'string') return next();
    const n = countTokens(query, max);
    if (n !== null && n > max) {
      res.status(400).json({ errors: [{ message: `Syntax Error: Token limit of ${max} exceeded.`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
      return;
    }
    next();
  };
}
