import { request as httpRequest } from 'node:http';
import { deflateSync } from 'node:zlib';
import type request from 'supertest';
import { MAX_MULTIPART_FIELD_BYTES } from '../../../facades/rest/route';
import { ConnectLink, Location, Organization, Review, StoredFile } from '../../../src/models';
import { serveApp, useApp, type ServedApp } from '../../support/app';
import { agencyTokenFor, makeOrgOwner, makeTenant, makeWorld, testimonialsOf, tokenFor } from '../../support/factories';

/**
 * Multipart bodies (facades/rest/route.ts). Multer used to take 50 fields of 1 MB each on every route, before the
 * permission check: a read-only token held ~49 MB per request in memory (30 at once took the server to 1.85 GB). Now:
 *  - every route reads its fields from multipart as before; only those that take a file (`files`: reviews' avatar,
 *    organisations' logo) keep one;
 *  - where it is read, the whole body stops at BODY_LIMIT ('1mb' in tests), counted as it arrives: 413 JSON, as the
 *    JSON and form parsers answer;
 *  - a field value is at most MAX_MULTIPART_FIELD_BYTES (64 KB): a review's `message` (a TEXT column, 65,535 bytes,
 *    no limit in the spec) still fits.
 */
const BODY_LIMIT = 1024 * 1024;
const TOO_LARGE = { message: 'The request body is too large.' };

/** A 1x1 PNG (signature, IHDR, IDAT, IEND; the CRCs are not checked by the sniffer). */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('multipart bodies: only where a file is taken, at most BODY_LIMIT, fields of at most 64 KB', () => {
  const t = useApp();
  const bearer = (token: string) => `Bearer ${token}`;

  const expectJson = (res: request.Response, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  };

  /** `n` fields of `bytes` bytes each (a field the routes ignore). */
  const withFields = (req: request.Test, n: number, bytes: number) => {
    for (let i = 0; i < n; i++) req = req.field(`pad${i}`, 'x'.repeat(bytes));
    return req;
  };

  describe('the whole body: BODY_LIMIT', () => {
    it('2 MB of fields (40 of 50 KB, each under the field limit) to POST /organizations is 413 JSON, nothing created', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      // A token that may only read: the body is refused before the permission check is reached, for any token.
      for (const permissions of [['organizations:read'], ['organizations:read', 'organizations:create']]) {
        const token = await tokenFor(owner, permissions);
        const req = t.http().post('/api/v1/organizations').set('Authorization', bearer(token)).field('name', 'Padded Co');
        const res = await withFields(req, 40, 50 * 1024).attach('logo', png(), 'logo.png');
        expectJson(res, 413);
        expect(res.body).toEqual(TOO_LARGE);
      }
      expect(await Organization.count({ where: { customerId: owner.customerId! } })).toBe(0);
      expect(await StoredFile.count({ where: { tenantId: tenant.id } })).toBe(0);
    });

    it('a body over BODY_LIMIT is 413 JSON whatever its framing (chunked, no Content-Length)', async () => {
      const served: ServedApp = await serveApp();
      try {
        const w = await makeWorld();
        const boundary = 'xBoundaryx';
        const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
          const req = httpRequest(`${served.origin}/api/v1/organizations`, {
            method: 'POST',
            headers: { Authorization: bearer(w.tokens.orgOwner), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
          });
          req.on('response', (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
          });
          req.on('error', reject);
          req.write(part('name', 'Chunked Co'));
          // 48 fields of 48 KB: 2.25 MB, sent in pieces.
          for (let i = 0; i < 48; i++) req.write(part(`pad${i}`, 'y'.repeat(48 * 1024)));
          req.end(`--${boundary}--\r\n`);
        });
        expect(answer.status).toBe(413);
        expect(answer.type).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
        expect(await Organization.count({ where: { name: 'Chunked Co' } })).toBe(0);
      } finally {
        await served.close();
      }
    });

    it('a body just under BODY_LIMIT with a logo is read: 201 with the logo', async () => {
      const { tenant } = await makeTenant();
      const owner = await makeOrgOwner(tenant.id);
      const token = await tokenFor(owner);
      // 14 fields of 64 KB (the field limit) and a logo: about 0.9 MB.
      const req = withFields(t.http().post('/api/v1/organizations').set('Authorization', bearer(token)).field('name', 'Logo Co'), 14, MAX_MULTIPART_FIELD_BYTES);
      const res = await req.attach('logo', png(), 'logo.png');
      expectJson(res, 201);
      expect(res.body).toMatchObject({ name: 'Logo Co', logo: expect.stringMatching(/\/files\/[0-9a-f-]{36}$/) });
      expect(await StoredFile.count({ where: { tenantId: tenant.id } })).toBe(1);
      expect(14 * MAX_MULTIPART_FIELD_BYTES).toBeLessThan(BODY_LIMIT);
    });
  });

  describe('field values: MAX_MULTIPART_FIELD_BYTES', () => {
    async function reviewPost() {
      const w = await makeWorld();
      const src = await testimonialsOf(w.home);
      const post = (message: string) =>
        t
          .http()
          .post('/api/v1/reviews')
          .set('Authorization', bearer(w.tokens.orgOwner))
          .field('author', 'Long Writer')
          .field('rating', '4')
          .field('published_on', '2026-04-01')
          .field('organization_id', String(w.org.id))
          .field('location_id', String(w.home.id))
          .field('source', String(src.id))
          .field('message', message)
          .attach('avatar', png(), 'face.png');
      return { w, post };
    }
    /** Words, not one long word: the sentiment hook's tokenizer is slow on a single long word (test/security/bounded-input.test.ts). */
    const textOf = (bytes: number) => 'good service '.repeat(Math.ceil(bytes / 13)).slice(0, bytes);

    it('the longest review message (65,535 bytes, a TEXT column) is taken as multipart: 201, stored whole', async () => {
      expect(MAX_MULTIPART_FIELD_BYTES).toBeGreaterThanOrEqual(65_535);
      const { w, post } = await reviewPost();
      const message = textOf(65_535);
      const res = await post(message);
      expectJson(res, 201);
      const stored = (await Review.findByPk(res.body.data.id))!;
      expect(stored.message).toBe(message);
      expect(await StoredFile.count({ where: { tenantId: w.tenant.id } })).toBe(1);
    });

    it('a field one byte over MAX_MULTIPART_FIELD_BYTES is 422 errors.body, nothing stored', async () => {
      const { w, post } = await reviewPost();
      const res = await post(textOf(MAX_MULTIPART_FIELD_BYTES + 1));
      expectJson(res, 422);
      expect(res.body.errors).toEqual({ body: ['The multipart body could not be read: Field value too long.'] });
      expect(await Review.count({ where: { tenantId: w.tenant.id } })).toBe(0);
      expect(await StoredFile.count({ where: { tenantId: w.tenant.id } })).toBe(0);
    });
  });

  describe('routes that take no file: their fields as a form, within the same bounds', () => {
    it('POST /api/v1/locations as multipart is read as before: 201', async () => {
      const w = await makeWorld();
      const multipart = await t.as(w.tokens.orgOwner).post('/api/v1/locations').field('organization_id', String(w.org.id)).field('name', 'Multipart Branch');
      expectJson(multipart, 201);
      expect(multipart.body.data).toMatchObject({ organization_id: w.org.id, name: 'Multipart Branch' });
    });

    it('a 2 MB multipart body to a route without files is 413 JSON, nothing changed (never 5xx)', async () => {
      const w = await makeWorld();
      const res = await withFields(t.as(w.tokens.orgOwner).put(`/api/v1/locations/${w.branch.id}`).field('name', 'Renamed'), 40, 50 * 1024);
      expectJson(res, 413);
      expect(res.body).toEqual(TOO_LARGE);
      expect((await Location.findByPk(w.branch.id))!.name).toBe('Branch');
    });

    it('the agency API: POST /connect-links as multipart creates the link', async () => {
      const w = await makeWorld();
      const token = await agencyTokenFor(w.owner);
      const res = await t.as(token).post('/api/agency/v1/connect-links').field('provider', 'google').field('location_id', String(w.home.id));
      expectJson(res, 201);
      expect(await ConnectLink.count({ where: { tenantId: w.tenant.id } })).toBe(1);
    });
  });
});
