import { connect } from 'node:net';
import { QueryTypes } from 'sequelize';
import type request from 'supertest';
import { unsubscribeTokenOf } from '../../src/messaging/links';
import { MAX_MULTIPART_FIELD_BYTES } from '../../facades/rest/route';
import { MAX_IMAGE_BYTES } from '../../src/domain/limits';
import { ConnectLink, Contact } from '../../src/models';
import { issueConnectLink, startFormToken } from '../../src/services/connect-links.service';
import { makeCampaign as makeFeedbackCampaign, makeSentInvite } from '../inbound/support';
import { makeCampaign, makeContact } from '../invites/fixtures';
import { serveApp, useApp, type ServedApp } from '../support/app';
import { agencyTokenFor, makeWorld, testimonialsOf } from '../support/factories';

/**
 * Bounded input (issue 14): every request-size limit holds, and a request over one is a clear client error (a JSON
 * 4xx on the APIs), never a 5xx or an HTML error page. The limits: BODY_LIMIT ('1mb' in tests) for JSON and
 * url-encoded bodies with 200 parameters at most on /api/v1 and /api/agency/v1 (src/http/app.ts); multer's
 * files 5, fields 50, field size MAX_MULTIPART_FIELD_BYTES (64 KB) and file size MAX_IMAGE_BYTES + 1, the whole
 * multipart body BODY_LIMIT, on the routes that take a file only (facades/rest/route.ts; more in
 * test/facades/rest/multipart-limits.test.ts); the url-encoded
 * limits of the public page forms (src/http/{unsubscribe,feedback,connect}-page.ts); Node's 16 KB of headers.
 *
 * Asserted elsewhere and not repeated here:
 *  - test/facades/rest/uploads.test.ts: an avatar or logo one byte over 250 KB (and 300 KB, 1 MB) is 422
 *    errors.avatar / errors.logo with neither review nor file stored;
 *  - test/facades/rest/hardening.test.ts: 1,100 url-encoded fields are 413 JSON; a gzip body the JSON parser
 *    will not inflate and a malformed percent-encoding in the path are JSON 4xx;
 *  - test/inbound/webhook.test.ts: the inbound webhook's raw body (MAX_INBOUND_BODY_BYTES, 256 KB) takes exactly 256 KB
 *    and answers 413 `payload_too_large` for one byte more.
 */
const BODY_LIMIT = 1024 * 1024; // '1mb' of test/support/app.ts, as body-parser counts it
const TOO_LARGE = { message: 'The request body is too large.' };

describe('bounded input', () => {
  const t = useApp();

  const expectJson = (res: request.Response, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  };

  const countOf = async (table: 'reviews' | 'stored_files' | 'connect_links' | 'private_feedback' | 'locations', tenantId: number) => {
    const [row] = await t.db().query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE tenant_id = ?`, {
      replacements: [tenantId],
      type: QueryTypes.SELECT,
    });
    return Number(row.n);
  };

  /** A JSON text of exactly `bytes` bytes: `fields` plus an ASCII `pad` field. */
  const jsonOfSize = (fields: Record<string, unknown>, pad: string, bytes: number) => {
    const room = bytes - Buffer.byteLength(JSON.stringify({ ...fields, [pad]: '' }));
    const text = JSON.stringify({ ...fields, [pad]: 'x'.repeat(room) });
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  };

  async function reviewWorld() {
    const w = await makeWorld();
    const src = await testimonialsOf(w.home);
    const fields = {
      author: 'Bounded',
      rating: 5,
      published_on: '2026-04-01',
      organization_id: w.org.id,
      location_id: w.home.id,
      source: src.id,
    };
    return { w, fields, auth: { Authorization: `Bearer ${w.tokens.orgOwner}` } };
  }

  describe('JSON bodies: BODY_LIMIT', () => {
    // The padding goes in a field the routes ignore, not in a review's `message`: wink-nlp's tokenizer (the
    // sentiment hook of the Review model, src/analytics/sentiment.ts) takes time quadratic in the length of one
    // word, and a 1 MB word would hold the event loop for minutes. Known, not fixed here.
    it('POST /api/v1/reviews: a body of exactly BODY_LIMIT is read; one byte more is 413 JSON and stores nothing', async () => {
      const { w, fields, auth } = await reviewWorld();
      const at = await t.http().post('/api/v1/reviews').set(auth).set('Content-Type', 'application/json').send(jsonOfSize(fields, 'note', BODY_LIMIT));
      expectJson(at, 201);
      expect(at.body.data).toMatchObject({ author: 'Bounded', rating: 5 });
      expect(await countOf('reviews', w.tenant.id)).toBe(1);

      const over = await t.http().post('/api/v1/reviews').set(auth).set('Content-Type', 'application/json').send(jsonOfSize(fields, 'note', BODY_LIMIT + 1));
      expectJson(over, 413);
      expect(over.body).toEqual(TOO_LARGE);
      expect(await countOf('reviews', w.tenant.id)).toBe(1);
    });

    it('POST /api/agency/v1/connect-links: a body of exactly BODY_LIMIT is read; one byte more is 413 JSON and stores nothing', async () => {
      const w = await makeWorld();
      const auth = { Authorization: `Bearer ${await agencyTokenFor(w.owner)}` };
      const fields = { provider: 'google', location_id: w.home.id };
      const at = await t.http().post('/api/agency/v1/connect-links').set(auth).set('Content-Type', 'application/json').send(jsonOfSize(fields, 'note', BODY_LIMIT));
      expectJson(at, 201);
      expect(at.body.data).toMatchObject({ provider: 'google', location_id: w.home.id, status: 'active' });
      const links = await countOf('connect_links', w.tenant.id);
      expect(links).toBe(1);

      const over = await t.http().post('/api/agency/v1/connect-links').set(auth).set('Content-Type', 'application/json').send(jsonOfSize(fields, 'note', BODY_LIMIT + 1));
      expectJson(over, 413);
      expect(over.body).toEqual(TOO_LARGE);
      expect(await countOf('connect_links', w.tenant.id)).toBe(links);
    });
  });

  describe('url-encoded bodies: parameterLimit 200, depth', () => {
    const form = (params: Record<string, string | number>, fill: number) =>
      [...Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`), ...Array.from({ length: fill }, (_, i) => `f${i}=1`)].join('&');

    it('customer API: 200 parameters are read; 201 are 413 JSON and store nothing', async () => {
      const w = await makeWorld();
      const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
      const at = await t.http().post('/api/v1/locations').set(auth).type('form').send(form({ organization_id: w.org.id, name: 'Form 200' }, 198));
      expectJson(at, 201);
      expect(at.body.data).toMatchObject({ name: 'Form 200', organization_id: w.org.id });
      const locations = await countOf('locations', w.tenant.id);

      const over = await t.http().post('/api/v1/locations').set(auth).type('form').send(form({ organization_id: w.org.id, name: 'Form 201' }, 199));
      expectJson(over, 413);
      expect(over.body).toEqual(TOO_LARGE);
      expect(await countOf('locations', w.tenant.id)).toBe(locations);
    });

    it('agency API: 201 parameters are 413 JSON and store nothing', async () => {
      const w = await makeWorld();
      const auth = { Authorization: `Bearer ${await agencyTokenFor(w.owner)}` };
      const over = await t.http().post('/api/agency/v1/connect-links').set(auth).type('form').send(form({ provider: 'google', location_id: w.home.id }, 199));
      expectJson(over, 413);
      expect(over.body).toEqual(TOO_LARGE);
      expect(await countOf('connect_links', w.tenant.id)).toBe(0);
    });

    it('a field nested 50 deep (body-parser admits 32) is 400 JSON', async () => {
      const w = await makeWorld();
      const res = await t
        .http()
        .post('/api/v1/locations')
        .set('Authorization', `Bearer ${w.tokens.orgOwner}`)
        .type('form')
        .send(`organization_id=${w.org.id}&name${'[a]'.repeat(50)}=x`);
      expectJson(res, 400);
      expect(res.body).toEqual({ message: 'The request could not be read.' });
    });
  });

  describe('multipart bodies: multer limits (files 5, fields 50, field MAX_MULTIPART_FIELD_BYTES, file MAX_IMAGE_BYTES + 1)', () => {
    const tiny = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

    /** POST /api/v1/reviews as multipart with a valid review's fields plus `extra`: answers 422, stores nothing. */
    async function refused(extra: (req: request.Test) => request.Test): Promise<Record<string, string[]>> {
      const { w, fields, auth } = await reviewWorld();
      const before = { reviews: await countOf('reviews', w.tenant.id), files: await countOf('stored_files', w.tenant.id) };
      let req = t.http().post('/api/v1/reviews').set(auth);
      for (const [k, v] of Object.entries(fields)) req = req.field(k, String(v));
      const res = await extra(req);
      expectJson(res, 422);
      const fieldNames = Object.keys(res.body.errors);
      expect(fieldNames).toHaveLength(1);
      expect(res.body.message).toBe(res.body.errors[fieldNames[0]][0]);
      expect(await countOf('reviews', w.tenant.id)).toBe(before.reviews);
      expect(await countOf('stored_files', w.tenant.id)).toBe(before.files);
      return res.body.errors;
    }

    it('6 files are 422 errors.body "Too many files"', async () => {
      const errors = await refused((req) => {
        for (let i = 0; i < 6; i++) req = req.attach(i === 0 ? 'avatar' : `file${i}`, tiny, `f${i}.png`);
        return req;
      });
      expect(errors).toEqual({ body: ['The multipart body could not be read: Too many files.'] });
    });

    // An avatar over the limit: test/facades/rest/uploads.test.ts. Here a file field the route does not take:
    // multer still reads it, and one byte past its fileSize (MAX_IMAGE_BYTES + 1) it stops with the field named.
    it('a file over the limit in a field the route ignores is 422 naming that field', async () => {
      for (const size of [MAX_IMAGE_BYTES + 2, 1024 * 1024]) {
        const errors = await refused((req) => req.attach('attachment', Buffer.alloc(size, 0x61), 'big.png'));
        expect(errors).toEqual({ attachment: ['The attachment must not be greater than 250 kilobytes.'] });
      }
    });

    // parts: 60 cannot be met first: 5 files and 50 fields are 55 parts, and the 51st field or 6th file is refused.
    it('61 parts (5 files, 56 fields) are 422 errors.body "Too many fields"', async () => {
      const errors = await refused((req) => {
        for (let i = 0; i < 5; i++) req = req.attach(`file${i}`, tiny, `f${i}.png`);
        for (let i = 0; i < 50; i++) req = req.field(`x${i}`, '1');
        return req;
      });
      expect(errors).toEqual({ body: ['The multipart body could not be read: Too many fields.'] });
    });

    it('a field value over MAX_MULTIPART_FIELD_BYTES is 422 errors.body "Field value too long"', async () => {
      const errors = await refused((req) => req.field('message', 'x'.repeat(MAX_MULTIPART_FIELD_BYTES + 1)));
      expect(errors).toEqual({ body: ['The multipart body could not be read: Field value too long.'] });
    });

    it('a field value over 1 MB is past BODY_LIMIT first: 413 JSON, nothing stored', async () => {
      const { w, fields, auth } = await reviewWorld();
      let req = t.http().post('/api/v1/reviews').set(auth);
      for (const [k, v] of Object.entries(fields)) req = req.field(k, String(v));
      const res = await req.field('message', 'x'.repeat(BODY_LIMIT + 1));
      expectJson(res, 413);
      expect(res.body).toEqual(TOO_LARGE);
      expect(await countOf('reviews', w.tenant.id)).toBe(0);
    });
  });

  describe('query strings (extended parser): never 5xx', () => {
    const PAGE = ['The page must be an integer.'];
    it.each([
      ['1,000 a[]= parameters', Array.from({ length: 1000 }, (_, i) => `a[]=${i}`).join('&'), null],
      ['a key nested 50 deep', `a${Array.from({ length: 50 }, (_, i) => `[b${i}]`).join('')}=1`, null],
      ['a 15,000-character page', `page=${'9'.repeat(15_000)}`, PAGE],
      ['page=1&page=2', 'page=1&page=2', PAGE],
      ['page[a]=1', 'page[a]=1', PAGE],
    ])('%s: the customer and agency lists answer JSON (200 envelope, or 422 errors.page)', async (_label, qs, pageErrors) => {
      const w = await makeWorld();
      for (const [path, token] of [
        ['/api/v1/reviews', w.tokens.owner],
        ['/api/agency/v1/connect-links', await agencyTokenFor(w.owner)],
      ] as const) {
        const res = await t.http().get(`${path}?${qs}`).set('Authorization', `Bearer ${token}`);
        if (pageErrors) {
          expectJson(res, 422);
          expect(Object.keys(res.body.errors)).toEqual(['page']);
          // A number too long to be an integer breaks two rules with one message: it is listed once.
          expect(res.body.errors.page).toEqual(pageErrors);
          expect(res.body.message).toBe('The page must be an integer.');
        } else {
          expectJson(res, 200);
          expect(Array.isArray(res.body.data)).toBe(true);
          expect(res.body.links).toEqual(expect.objectContaining({ first: expect.any(String), last: expect.any(String), prev: null, next: null }));
          expect(res.body.meta).toMatchObject({ current_page: 1, per_page: expect.any(Number), total: 0 });
        }
      }
    });
  });

  describe("Node's header limit (16 KB)", () => {
    let served: ServedApp;
    beforeAll(async () => {
      served = await serveApp();
    });
    afterAll(async () => {
      await served.close();
    });

    it('a request line and headers over 16 KB are 431 from Node, before the app', async () => {
      const port = Number(new URL(served.origin).port);
      const head = [`GET /api/v1/me?q=${'a'.repeat(9 * 1024)} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `X-Filler: ${'b'.repeat(9 * 1024)}`, 'Connection: close', '', ''].join('\r\n');
      expect(head.length).toBeGreaterThan(16 * 1024);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(head));
        const chunks: Buffer[] = [];
        socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    });
  });

  describe('public page forms: their own url-encoded limits', () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');

    it('POST /u/{token} (8 KB, 10 parameters): a body past them is not read, and the POST still unsubscribes (RFC 8058: the POST is the request)', async () => {
      const w = await makeWorld();
      for (const body of [`List-Unsubscribe=One-Click&pad=${'x'.repeat(8 * 1024)}`, `List-Unsubscribe=One-Click&${filler(10)}`]) {
        const contact = await makeContact(await makeCampaign(w));
        const res = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send(body);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('You are unsubscribed');
        expect((await Contact.findByPk(contact.id))!.unsubscribedAt).not.toBeNull();
      }
    });

    it('POST /r/{uuid}/feedback (100 KB, 20 parameters): 413 from its own handler, as a page, and no feedback stored', async () => {
      const w = await makeWorld();
      const { invite } = await makeSentInvite(await makeFeedbackCampaign(w.org, w.home));
      for (const body of [`rating=2&name=Grace&message=${'x'.repeat(100 * 1024)}`, filler(21)]) {
        const res = await t.http().post(`/r/${invite.uuid}/feedback`).type('form').send(body);
        expect(res.status).toBe(413);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('The form could not be read');
      }
      expect(await countOf('private_feedback', w.tenant.id)).toBe(0);
    });

    it('POST /connect/{token}/start and /select (16 KB, 20 parameters): 413 as a page, the link is not started', async () => {
      const w = await makeWorld();
      const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' });
      const csrf = `csrf=${encodeURIComponent(startFormToken(link.token))}`;
      for (const [action, body] of [
        ['start', `${csrf}&pad=${'x'.repeat(16 * 1024)}`],
        ['start', `${csrf}&${filler(20)}`],
        ['select', `nonce=x&business=y&pad=${'x'.repeat(16 * 1024)}`],
      ]) {
        const res = await t.http().post(`/connect/${link.token}/${action}`).type('form').send(body);
        expect(res.status).toBe(413);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('The form could not be read');
      }
      const stored = (await ConnectLink.findByPk(link.token))!;
      expect(stored).toMatchObject({ lastStartedAt: null, oauthState: null, usedAt: null, integrationId: null });
    });
  });
});
