import { ApolloServer, type ApolloServerPlugin, type BaseContext } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Express, type Request, type Response } from 'express';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { mcpApi } from '../../facades/mcp';
import { tilesFromConfig, type TileConfig } from '../../facades/mcp/apps';
import { agencyApi } from '../../facades/rest/agency';
import { customerApi } from '../../facades/rest/customer';
import { jsonBody } from '../../facades/rest/route';
import { authenticateRequests, contextOf } from '../../facades/shared/auth';
import { jsonErrorHandler, loggable } from '../../facades/shared/errors';
import { failedAuthentications, oauthRateLimit, pageRateLimit, restRateLimit, unsubscribeRateLimit } from '../../facades/shared/rate-limit';
import type { Config } from '../config';
import { graphqlLimits, introspectionForSignedInOnly, tokenLimit, type GraphQLLimitsConfig } from '../graphql/limits';
import type { Context } from '../context';
import type { Clock } from '../domain/clock';
import { DomainError } from '../domain/errors';
import { createAuditWriter } from '../services/mcp-audit.service';
import { assetRoutes } from './assets';
import { apiCors, defaultCsp, pageSecurity, securityHeaders } from './security-headers';
import { anySimulator, simulatorsRouter } from '../providers/simulators';
import { reportPages } from '../../facades/pages/report';
import { connectPages, type ConnectPageDeps } from '../../facades/pages/connect';
import { signedUnsubscribeLink, unsubscribePages } from '../../facades/pages/unsubscribe';
import { feedbackPages } from '../../facades/pages/feedback';
import { inboundWebhook } from '../../facades/inbound/webhook';
import { docsPages } from './docs-page';
import { observeJsonAnswers, type ApiAnswer } from './observe-answers';
import { mcpAuthChallenge, oauthRoutes, type OAuthDeps } from './oauth';
import { NO_IDEMPOTENCY_KEY } from '../../facades/rest/customer';
import { openApiRouter } from '../../facades/rest/openapi';
import { graphiqlPages } from './graphiql-page';
import type { Sequelize } from 'sequelize';
import { OutboxEvent } from '../models';
import { httpMetrics } from '../observability/http-metrics';
import { observeOutbox } from '../observability/metrics';
import type { ReadinessDeps } from '../observability/readiness';
import { observabilityRoutes } from '../observability/routes';
import { requestLog } from './request-log';
import { idempotentPosts } from './idempotency';
import { mcpOriginGuard } from './mcp-origin';
import { trustProxyOf } from '../net/trust-proxy';

export interface AppDeps {
  config: Pick<Config, 'RATE_LIMIT_PER_MINUTE' | 'BODY_LIMIT' | 'TRUST_PROXY'> &
    Partial<
      Pick<
        Config,
        'METRICS_TOKEN' | 'NODE_ENV' | 'PUBLIC_URL' | 'CORS_ORIGINS' | 'AGENCY_RATE_LIMIT_PER_MINUTE' | 'PAGE_RATE_LIMIT_PER_MINUTE' | 'PAGE_POST_RATE_LIMIT_PER_MINUTE' | 'UNSUBSCRIBE_RATE_LIMIT_PER_MINUTE' | 'OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE' | 'OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE' | 'INBOUND_RATE_LIMIT_PER_IP' | 'MCP_ALLOWED_ORIGINS' | 'MCP_ALLOWED_HOSTS' | 'MCP_APP_TILE_URL' | 'MCP_APP_TILE_ATTRIBUTION'
      >
    > &
    Partial<GraphQLLimitsConfig>;
  schema: GraphQLSchema;
  logger: Logger;
  redis?: Redis | null;
  clock?: Clock;
  /** Test seams of the connect page (platform client, review-sync start). */
  connectPage?: Omit<ConnectPageDeps, 'schema' | 'logger' | 'clock'>;
  /** Inbound contact webhook: submissions per minute per endpoint token (default 120). */
  inboundWebhook?: { perMinute?: number; perIpMinute?: number };
  /**
   * Public pages: reads and posts per client address per minute (defaults PAGE_RATE_LIMIT_PER_MINUTE, _POST_), and
   * unsubscribes with a signed link (default UNSUBSCRIBE_RATE_LIMIT_PER_MINUTE).
   */
  pages?: { perMinute?: number; postsPerMinute?: number; unsubscribesPerMinute?: number; redisPrefix?: string };
  /**
   * MCP endpoint: limits per minute (defaults MCP_RATE_LIMIT_PER_TOKEN / _PER_WORKSPACE, 120 and 600), the Redis key
   * prefix of its counters, how often the audit buffer is written, the tool catalogue (tests add fixtures) and the map
   * tiles of the scan-grid View (default MCP_APP_TILE_URL; null: none).
   */
  mcp?: { perToken?: number; perWorkspace?: number; redisPrefix?: string; auditFlushMs?: number; tools?: Parameters<typeof mcpApi>[0]['tools']; tiles?: TileConfig | null };
  /**
   * `/health/ready`: what it checks (read per probe; default: the database, its migrations and Redis when given);
   * `/metrics`: the Temporal SDK exporter of an in-process worker, appended to the page.
   */
  observability?: { readiness?: () => ReadinessDeps; temporalMetricsUrl?: string | null };
  /** Sees every JSON answer of the two REST APIs (the contract tests check each against the OpenAPI documents). */
  observeApiResponse?: (answer: ApiAnswer) => void;
  /**
   * OAuth for MCP: the access token lifetime in seconds (default one hour), how client metadata documents are fetched,
   * and the per-address limits of its token and revocation endpoints and of registration (defaults
   * OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE, OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE).
   */
  oauth?: Pick<OAuthDeps, 'accessTokenTtl' | 'fetch'> & { tokensPerMinute?: number; registrationsPerMinute?: number; redisPrefix?: string };
}

/**
 * The OAuth endpoints under `/oauth` that clients' servers POST to: oidc-provider's default routes (src/oauth/provider.ts
 * sets none of its own), the token and revocation endpoints, and registration. Only these exact paths get their
 * budgets; any other spelling is limited as a page (the stricter budget).
 */
const OAUTH_TOKEN_PATHS = new Set(['/token', '/token/revocation']);
const OAUTH_REGISTRATION_PATH = '/reg';

/** The database the models are bound to (the app's readiness and outbox gauges when nothing else is given). */
function modelsDatabase(): Sequelize {
  const sequelize = OutboxEvent.sequelize;
  if (!sequelize) throw new Error('Database not initialised');
  return sequelize as unknown as Sequelize;
}

/** Apollo's error shape for GraphQL clients: domain errors carry code, reason and fields; others say nothing. */
function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof DomainError) {
    return {
      message: original.message,
      path: formatted.path,
      extensions: { code: original.code, reason: original.reason ?? null, fields: original.fields ?? null },
    };
  }
  const code = formatted.extensions?.code;
  if (code === 'INTERNAL_SERVER_ERROR' || !code) {
    logger.error({ err: loggable(original) }, 'graphql internal error');
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return formatted;
}

/**
 * The context of a `/graphql` request. AI tokens are the MCP endpoint's: their abilities (`mcp:writes` for write
 * tools, `reviews:pii` for personal data) are enforced there, by the tool catalogue and its redaction, which
 * `/graphql` does not go through; so here they are refused (403 FORBIDDEN `wrong_token_kind`).
 */
function graphqlContext(ctx: Context): Context {
  if (ctx.principal?.tokenKind === 'ai') {
    throw new GraphQLError('GraphQL takes customer and agency tokens; this is an ai token (use the MCP endpoint, /api/mcp).', {
      extensions: { code: 'FORBIDDEN', reason: 'wrong_token_kind', http: { status: 403 } },
    });
  }
  return ctx;
}

export async function createApp(deps: AppDeps): Promise<{ app: Express; stop: () => Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  // API answers are not cached by validators; hashing every body for an ETag is cost without use.
  app.set('etag', false);
  app.set('query parser', 'extended');
  const trustProxy = trustProxyOf(deps.config.TRUST_PROXY);
  app.set('trust proxy', trustProxy);

  // First, so the latency histogram covers every middleware of the request.
  app.use(httpMetrics());
  app.use(securityHeaders(deps.config), defaultCsp());
  // Origin-form request targets only (`/path?query`, RFC 9112 3.2.1): an absolute-form one (`GET http://evil.example/x`,
  // meant for proxies) is routed by its path, but some libraries build URLs from the whole target (Koa's `href`, so
  // oidc-provider's endpoint URLs): the host would be the request's choice, not the Host the tenant is decided by.
  app.use((req, res, next) => {
    if (req.url.startsWith('/') || (req.method === 'OPTIONS' && req.url === '*')) return next();
    res.status(400).json({ message: 'The request target must be a path (origin-form).', code: 'bad_request_target' });
  });
  observeOutbox(() => OutboxEvent.sequelize as unknown as Sequelize | null);
  app.use(requestLog(deps.logger));

  app.use(
    observabilityRoutes({
      readiness: deps.observability?.readiness ?? (() => ({ sequelize: modelsDatabase(), redis: deps.redis, role: 'api' })),
      metricsToken: deps.config.METRICS_TOKEN,
      trustProxy: trustProxy !== false,
      temporalMetricsUrl: deps.observability?.temporalMetricsUrl,
    }),
  );
  // Public pages: per client address, reads and form posts apart (Redis-shared when configured).
  const pageLimit = pageRateLimit({
    perMinute: deps.pages?.perMinute ?? deps.config.PAGE_RATE_LIMIT_PER_MINUTE ?? 120,
    postsPerMinute: deps.pages?.postsPerMinute ?? deps.config.PAGE_POST_RATE_LIMIT_PER_MINUTE ?? 20,
    redis: deps.redis,
    prefix: deps.pages?.redisPrefix ?? 'rl:pages',
  });
  // The agency logos the pages show (each fetched from the agency's URL once in a while; a key unknown costs a look-up).
  app.use('/brand', pageLimit);
  app.use(assetRoutes());
  // The inbound contact webhook: no bearer token (the endpoint token is the credential), its own 256 KB raw body
  // parser and rate limit, so it is mounted before every API router and body parser.
  app.use(
    '/api/webhooks/inbound',
    inboundWebhook({
      schema: deps.schema,
      logger: deps.logger,
      clock: deps.clock,
      redis: deps.redis,
      perMinute: deps.inboundWebhook?.perMinute,
      perIpMinute: deps.inboundWebhook?.perIpMinute ?? deps.config.INBOUND_RATE_LIMIT_PER_IP,
    }),
  );

  // Production: the schema is described to signed-in callers only. Apollo's landing page (loaded from a CDN) is off
  // everywhere: a browser opening /graphql gets our self-hosted GraphiQL (graphiqlPages below). Every environment:
  // depth, alias, cost, token and directive limits, and no batched operations.
  const production = deps.config.NODE_ENV === 'production';
  const armor = graphqlLimits(deps.config);
  app.use(['/graphql', '/api/v1', '/api/agency/v1', '/api/mcp'], apiCors(deps.config.CORS_ORIGINS));
  const apollo = new ApolloServer<Context>({
    schema: deps.schema,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    // The process stops Apollo itself (`stop` below) once the server has drained its requests in flight; Apollo's
    // own SIGTERM handler (installed outside NODE_ENV=test) stopped it at once and failed those requests with 500.
    stopOnTerminationSignals: false,
    validationRules: armor.validationRules,
    plugins: [
      ...(armor.plugins as ApolloServerPlugin<Context>[]),
      ApolloServerPluginLandingPageDisabled(),
      ...(production ? [introspectionForSignedInOnly()] : []),
    ],
    formatError: (formatted, error) => formatGraphQLError(formatted, error, deps.logger),
  });
  await apollo.start();
  const restLimit = restRateLimit({ perMinute: deps.config.RATE_LIMIT_PER_MINUTE, redis: deps.redis, prefix: 'rl:rest' });
  const failures = failedAuthentications({ perMinute: deps.config.RATE_LIMIT_PER_MINUTE, redis: deps.redis, prefix: 'rl:auth-failures' });
  app.use(
    '/graphql',
    restLimit,
    // Anonymous callers go on (the schema answers UNAUTHENTICATED for anything but introspection).
    authenticateRequests({ clock: deps.clock, failures, anonymous: true }),
    // A browser's GET (Accept prefers HTML): the GraphiQL page; anything else goes on to Apollo.
    graphiqlPages({ logger: deps.logger }),
    jsonBody(deps.config.BODY_LIMIT),
    tokenLimit(deps.config.GRAPHQL_MAX_TOKENS),
    expressMiddleware<BaseContext & Context>(apollo, {
      context: async ({ res }) => {
        const locals = (res as Response).locals;
        if (locals.authError) throw locals.authError;
        return graphqlContext(contextOf(res as Response));
      },
    }),
  );

  // The contract of both REST APIs, generated from their route records: public JSON and YAML (facades/rest/openapi.ts).
  app.use(openApiRouter());
  if (deps.observeApiResponse) app.use(['/api/v1', '/api/agency/v1'], observeJsonAnswers(deps.observeApiResponse));

  const rest = express.Router();
  rest.use(restLimit);
  rest.use(authenticateRequests({ kinds: ['customer'], clock: deps.clock, failures }));
  rest.use(jsonBody(deps.config.BODY_LIMIT), express.urlencoded({ extended: true, limit: deps.config.BODY_LIMIT, parameterLimit: 200 }));
  rest.use(idempotentPosts({ logger: deps.logger, clock: deps.clock, ignore: NO_IDEMPOTENCY_KEY }));
  rest.use(customerApi({ schema: deps.schema, logger: deps.logger, clock: deps.clock }));
  rest.use((_req, res) => {
    res.status(404).json({ message: 'Not found.' });
  });
  app.use('/api/v1', rest);

  // The agency API: agency tokens of tenant owners (any other kind is 403), same limits and JSON errors.
  const agencyRest = express.Router();
  agencyRest.use(
    restRateLimit({ perMinute: deps.config.AGENCY_RATE_LIMIT_PER_MINUTE ?? deps.config.RATE_LIMIT_PER_MINUTE, redis: deps.redis, prefix: 'rl:agency', limiter: 'agency' }),
  );
  agencyRest.use(authenticateRequests({ kinds: ['agency'], clock: deps.clock, failures }));
  agencyRest.use(jsonBody(deps.config.BODY_LIMIT), express.urlencoded({ extended: true, limit: deps.config.BODY_LIMIT, parameterLimit: 200 }));
  agencyRest.use(idempotentPosts({ logger: deps.logger, clock: deps.clock }));
  agencyRest.use(agencyApi({ schema: deps.schema, logger: deps.logger, clock: deps.clock }));
  agencyRest.use((_req, res) => {
    res.status(404).json({ message: 'Not found.' });
  });
  app.use('/api/agency/v1', agencyRest);

  // The MCP endpoint (JSON-RPC 2.0): its own body parsing, token check, limits and errors, all JSON-RPC envelopes.
  const mcpAudit = createAuditWriter({ logger: deps.logger, flushMs: deps.mcp?.auditFlushMs });
  const mcpConfig = deps.config as Partial<Pick<Config, 'MCP_RATE_LIMIT_PER_TOKEN' | 'MCP_RATE_LIMIT_PER_WORKSPACE'>>;
  app.use(
    '/api/mcp',
    // A 401 names where to get a token (RFC 9728).
    mcpAuthChallenge(),
    // DNS-rebinding protection: Host and Origin before anything reads the request (src/http/mcp-origin.ts).
    mcpOriginGuard({
      publicUrl: deps.config.PUBLIC_URL,
      allowedOrigins: deps.config.MCP_ALLOWED_ORIGINS,
      allowedHosts: deps.config.MCP_ALLOWED_HOSTS,
      corsOrigins: deps.config.CORS_ORIGINS,
    }),
    mcpApi({
      schema: deps.schema,
      logger: deps.logger,
      clock: deps.clock,
      bodyLimit: deps.config.BODY_LIMIT,
      audit: mcpAudit,
      tools: deps.mcp?.tools,
      apps: { tiles: deps.mcp?.tiles !== undefined ? deps.mcp.tiles : tilesFromConfig(deps.config.MCP_APP_TILE_URL, deps.config.MCP_APP_TILE_ATTRIBUTION) },
      limits: {
        perToken: deps.mcp?.perToken ?? mcpConfig.MCP_RATE_LIMIT_PER_TOKEN ?? 120,
        perWorkspace: deps.mcp?.perWorkspace ?? mcpConfig.MCP_RATE_LIMIT_PER_WORKSPACE ?? 600,
        redis: deps.redis,
        prefix: deps.mcp?.redisPrefix,
      },
    }),
  );

  // OAuth 2.1 for MCP clients: metadata, the authorization server at /oauth and its branded pages (src/http/oauth.ts).
  // The endpoints clients' servers call (hosted connectors, for all their users from a few addresses) have budgets of
  // their own, refused as OAuth errors; the pages a person reads and posts (authorization, sign-in, consent), the
  // metadata and the rest keep the pages' limit.
  const oauthPrefix = deps.oauth?.redisPrefix ?? 'rl:oauth';
  const oauthTokenLimit = oauthRateLimit({
    perMinute: deps.oauth?.tokensPerMinute ?? deps.config.OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE ?? 600,
    limiter: 'oauth_token',
    redis: deps.redis,
    prefix: oauthPrefix,
  });
  const oauthRegistrationLimit = oauthRateLimit({
    perMinute: deps.oauth?.registrationsPerMinute ?? deps.config.OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE ?? 60,
    limiter: 'oauth_registration',
    redis: deps.redis,
    prefix: oauthPrefix,
  });
  // What a client's server reads before those calls counts with them: the discovery documents and the signing keys
  // (an SDK client reads the metadata again on every renewal after a 401; refused, it falls back to other URLs and
  // drops its registration). Client management (`/reg/<id>`) counts with registration.
  const oauthLimitOf = (req: Request) => {
    if (req.method === 'POST' && OAUTH_TOKEN_PATHS.has(req.path)) return oauthTokenLimit;
    if (req.path === OAUTH_REGISTRATION_PATH || req.path.startsWith(`${OAUTH_REGISTRATION_PATH}/`)) return oauthRegistrationLimit;
    if (req.method === 'GET' && (req.path === '/jwks' || req.path.startsWith('/.well-known/'))) return oauthTokenLimit;
    return pageLimit;
  };
  app.use('/oauth', (req, res, next) => oauthLimitOf(req)(req, res, next));
  app.use('/.well-known', (req, res, next) => (req.method === 'GET' ? oauthTokenLimit : pageLimit)(req, res, next));
  app.use(
    oauthRoutes({
      logger: deps.logger,
      publicUrl: deps.config.PUBLIC_URL ?? `http://127.0.0.1`,
      trustProxy: trustProxy !== false,
      accessTokenTtl: deps.oauth?.accessTokenTtl,
      fetch: deps.oauth?.fetch,
      redis: deps.redis,
    }),
  );
  app.use(['/connect', '/reports', '/r'], pageLimit);
  // An unsubscribe with a signed link (a mail provider's one-click from its servers, or the page's button) has its own
  // budget; a made-up token is limited with the page posts.
  const unsubscribeLimit = unsubscribeRateLimit({
    perMinute: deps.pages?.unsubscribesPerMinute ?? deps.config.UNSUBSCRIBE_RATE_LIMIT_PER_MINUTE ?? 600,
    redis: deps.redis,
    prefix: deps.pages?.redisPrefix ?? 'rl:pages',
  });
  app.use('/u', (req, res, next) => (req.method === 'POST' && signedUnsubscribeLink(req) ? unsubscribeLimit : pageLimit)(req, res, next));
  // The customer-facing connect page (HTML), and the third-party simulators of the embedded default.
  app.use('/connect', pageSecurity({ connect: true }), connectPages({ schema: deps.schema, logger: deps.logger, clock: deps.clock, ...deps.connectPage }));
  // The public white-label scan report (`report_url`); the scan UUID is the share key.
  app.use('/reports', pageSecurity(), reportPages({ schema: deps.schema, logger: deps.logger, clock: deps.clock }));
  // The unsubscribe link of review requests (`/u/{token}`: confirmation page, form and RFC 8058 one-click POST).
  app.use('/u', pageSecurity(), unsubscribePages({ schema: deps.schema, logger: deps.logger, clock: deps.clock }));
  // The review link of invites (`/r/<invite uuid>`): the rating gate and the private feedback form.
  app.use('/r', pageSecurity(), feedbackPages({ schema: deps.schema, logger: deps.logger, clock: deps.clock }));
  // The simulator routers carry their full paths (`/simulators/{provider}/...`).
  if (anySimulator()) app.use('/simulators', pageSecurity()).use(simulatorsRouter());
  // Developer pages: API references, the webhook receiver guide, and the assets of those and GraphiQL (docs-page.ts).
  app.use('/docs', docsPages({ logger: deps.logger, pageLimit }));

  app.use((_req, res) => {
    res.status(404).json({ message: 'Not found.' });
  });
  app.use(jsonErrorHandler(deps.logger));

  return {
    app,
    stop: async () => {
      await mcpAudit.stop();
      await apollo.stop();
    },
  };
}
