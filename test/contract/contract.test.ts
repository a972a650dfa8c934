import { AGENCY_ROUTES } from '../../facades/rest/agency';
import { CUSTOMER_ROUTES } from '../../facades/rest/customer';
import { openApiDocument, openApiPath } from '../../facades/rest/openapi';
import { contractViolation, webhookContractViolation } from '../support/contract';
import { useApp } from '../support/app';
import { makeTenant } from '../support/factories';

/**
 * The contract check itself: the documents hold every route record, and the checker that every REST test runs after
 * each test (test/support/contract-hooks.ts) refuses answers the documents do not show.
 */
describe('the OpenAPI documents', () => {
  it('hold one operation per route record, with its permissions, and every error status the API answers', () => {
    for (const [api, routes] of [['customer', CUSTOMER_ROUTES], ['agency', AGENCY_ROUTES]] as const) {
      const doc = openApiDocument(api);
      const ops = Object.values(doc.paths ?? {}).flatMap((p) => Object.keys(p as object));
      expect(ops).toHaveLength(routes.length);
      for (const def of routes) {
        const op = (doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; security: unknown; 'x-permissions': string[] }>>)[
          openApiPath(def.path)
        ][def.method];
        expect(op.operationId).toBe(def.operationId);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429', ...Object.keys(def.responses)]));
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(op['x-permissions']).toEqual(api === 'agency' ? ['agency'] : (def.permissions ?? []));
      }
    }
  });

  it('document every outbound webhook event in the customer document', () => {
    const doc = openApiDocument('customer');
    expect(Object.keys(doc.webhooks ?? {})).toEqual(
      expect.arrayContaining(['review-created', 'review-updated', 'private-feedback-created', 'organization-deleted', 'location-created', 'scan-completed', 'scan-failed']),
    );
    expect(openApiDocument('agency').webhooks).toBeUndefined();
  });
});

describe('the contract checker', () => {
  const review = {
    id: 1,
    organization_id: 2,
    location_id: 3,
    integration_id: 4,
    author: 'Ada',
    date: '2026-11-01T10:00:00.000Z',
    rating: 5,
    title: null,
    message: 'Great',
    source: 'Custom',
    source_logo: 'http://localhost/logo.svg',
    avatar: 'http://localhost/a.png',
    reply: null,
    reply_date: null,
    hidden: false,
    verified: false,
  };

  it('accepts an answer the documents show', () => {
    expect(contractViolation({ method: 'GET', path: '/api/v1/reviews/1', status: 200, body: { data: review } })).toBeNull();
    expect(contractViolation({ method: 'GET', path: '/api/v1/reviews/1', status: 404, body: { message: 'Review not found.' } })).toBeNull();
  });

  it('refuses a body of another shape, an undocumented status and an unknown operation', () => {
    const { rating: _rating, ...withoutRating } = review;
    expect(contractViolation({ method: 'GET', path: '/api/v1/reviews/1', status: 200, body: { data: withoutRating } })).toMatch(/rating/);
    expect(contractViolation({ method: 'GET', path: '/api/v1/reviews/1', status: 200, body: { data: { ...review, rating: '5' } } })).toMatch(/rating/);
    expect(contractViolation({ method: 'GET', path: '/api/v1/reviews/1', status: 500, body: { message: 'Server Error' } })).toMatch(/not documented/);
    expect(contractViolation({ method: 'PATCH', path: '/api/v1/reviews/1', status: 200, body: {} })).toMatch(/no operation/);
    // `/reviews/sources` is its own operation, not `/reviews/{id}`.
    expect(contractViolation({ method: 'GET', path: '/api/v1/reviews/sources', status: 200, body: { data: review } })).toMatch(/does not match/);
  });

  it('checks webhook bodies against the documented events', () => {
    expect(webhookContractViolation({ webhook_event: 'scan-failed', uuid: 'u', status: 'failed', error_message: 'x', failed_at: '2026-11-01T10:00:00.000Z' })).toBeNull();
    expect(webhookContractViolation({ webhook_event: 'scan-failed', uuid: 'u', status: 'completed', error_message: 'x', failed_at: '2026-11-01T10:00:00.000Z' })).toMatch(/status/);
    expect(webhookContractViolation({ webhook_event: 'nope' })).toMatch(/unknown event/);
  });
});

describe('served documents', () => {
  const t = useApp();

  it('serves both documents as JSON and YAML without a token, equal to the generated ones', async () => {
    await makeTenant();
    for (const [base, api] of [['/api/v1', 'customer'], ['/api/agency/v1', 'agency']] as const) {
      const json = await t.http().get(`${base}/openapi.json`);
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toMatch(/application\/json/);
      expect(json.body).toEqual(JSON.parse(JSON.stringify(openApiDocument(api))));
      const yaml = await t.http().get(`${base}/openapi.yaml`);
      expect(yaml.status).toBe(200);
      expect(yaml.headers['content-type']).toMatch(/yaml/);
      expect(yaml.text).toContain('openapi: 3.1.0');
    }
  });

  it('answers JSON 404, never HTML, for an unknown path under /api', async () => {
    for (const path of ['/api/nothing', '/api/v2/reviews', '/api/v1/nothing', '/api/agency/v1/nothing']) {
      const res = await t.http().get(path).set('Accept', 'text/html');
      expect(res.status).toBe(path.startsWith('/api/v1/') || path.startsWith('/api/agency/') ? 401 : 404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
  });
});
