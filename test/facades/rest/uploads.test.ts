import { deflateSync } from 'node:zlib';
import type request from 'supertest';
import { Location, Organization, Review, StoredFile } from '../../../src/models';
import { useApp } from '../../support/app';
import { makeOrganization, makeOrgOwner, makeReview, makeTenant, makeWorld, syncedSourceOf, testimonialsOf, tokenFor } from '../../support/factories';

const KB = 1024;
const LIMIT = 250 * KB;
const bearer = (token: string) => `Bearer ${token}`;
const FILE_URL = /^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f-]{36}$/;

// ---------------------------------------------------------------------------------------------------------------
// Small, valid image files built in memory.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A 1x1 red RGB PNG; with `size`, padded by a private ancillary chunk to exactly that many bytes. */
function png(size?: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const head = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0])))]);
  const tail = pngChunk('IEND', Buffer.alloc(0));
  if (size === undefined) return Buffer.concat([head, tail]);
  const padding = size - head.length - tail.length - 12;
  if (padding < 0) throw new Error('size too small for a PNG');
  return Buffer.concat([head, pngChunk('prVt', Buffer.alloc(padding, 0x61)), tail]);
}

/** A minimal JFIF JPEG (SOI, APP0, EOI): enough for content sniffing. */
function jpeg(): Buffer {
  return Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff,
    0xd9,
  ]);
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

const SIMPLE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" viewBox="0 0 8 8"><rect width="8" height="8" fill="#0a0"/></svg>';

const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64" viewBox="0 0 64 64" onload="alert('onload')">
  <script type="text/javascript">alert('script')</script>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
  <rect id="box" x="0" y="0" width="64" height="64" fill="url(#g)" onclick="alert('click')"/>
  <circle cx="32" cy="32" r="16" fill="url(http://evil.example/paint.svg#p)" onmouseover="alert('over')"/>
  <path d="M0 0 L64 64" stroke="#000" style="stroke: url( 'http://evil.example/s.svg#s' )"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="http://evil.example/frame"></iframe></div></foreignObject>
  <image href="http://evil.example/pixel.png" width="1" height="1"/>
  <use xlink:href="http://evil.example/sprite.svg#icon"/>
  <use href="https://evil.example/sprite.svg#icon2"/>
  <a href="javascript:alert('a')"><text x="1" y="10">link</text></a>
  <style>@import url(http://evil.example/x.css); rect { fill: url(http://evil.example/f) }</style>
</svg>`;

/** The SVG a browser would get must be inert: no script, handler, foreign content or external reference. */
function expectInertSvg(svg: string) {
  expect(svg.trimStart()).toMatch(/^<svg[\s>]/);
  expect(svg).not.toMatch(/<script/i);
  expect(svg).not.toMatch(/\son[a-z]+\s*=/i);
  expect(svg).not.toMatch(/foreignObject/i);
  expect(svg).not.toMatch(/<iframe/i);
  expect(svg).not.toMatch(/evil\.example/);
  expect(svg).not.toMatch(/javascript:/i);
  expect(svg).not.toMatch(/url\(\s*['"]?\s*https?:/i);
  expect(svg).not.toMatch(/@import/i);
  expect(svg).not.toMatch(/alert\(/);
  // The drawing itself survives, with its coordinate system and paint servers.
  expect(svg).toMatch(/<svg\b[^>]*viewBox="0 0 64 64"/);
  expect(svg).toMatch(/<linearGradient\b[^>]*id="g"/);
  expect(svg).toMatch(/<rect\b[^>]*width="64"/);
  expect(svg).toMatch(/<rect\b[^>]*fill="url\(#g\)"/);
  expect(svg).toMatch(/<circle\b[^>]*r="16"/);
  expect(svg).toMatch(/<path\b[^>]*d="M0 0 L64 64"/);
}

describe('avatar and logo uploads', () => {
  const t = useApp();

  /** GETs an absolute URL returned by the API and answers the raw bytes. */
  async function download(url: string) {
    const u = new URL(url);
    const res = await t
      .http()
      .get(u.pathname + u.search)
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), bytes: res.body as Buffer };
  }

  const files = (tenantId: number) => StoredFile.count({ where: { tenantId } });
  const reviews = (tenantId: number) => Review.count({ where: { tenantId } });

  async function reviewWorld() {
    const w = await makeWorld();
    const src = await testimonialsOf(w.home);
    const fields = {
      author: 'Uploader',
      rating: '5',
      published_on: '2026-04-01',
      organization_id: String(w.org.id),
      location_id: String(w.home.id),
      source: String(src.id),
    };
    const post = (file?: { bytes: Buffer; name: string; field?: string }) => {
      const req = t.http().post('/api/v1/reviews').set('Authorization', bearer(w.tokens.orgOwner));
      for (const [k, v] of Object.entries(fields)) req.field(k, v);
      if (file) req.attach(file.field ?? 'avatar', file.bytes, file.name);
      return req;
    };
    return { w, src, post };
  }

  function expectFieldError(res: request.Response, field: string) {
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(typeof res.body.message).toBe('string');
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.errors[field].length).toBeGreaterThan(0);
    for (const m of res.body.errors[field]) expect(typeof m).toBe('string');
  }

  describe('POST /api/v1/reviews with an avatar', () => {
    it.each([
      ['png', 'face.png', () => png(), 'image/png'],
      ['jpg', 'face.jpg', () => jpeg(), 'image/jpeg'],
      ['jpeg', 'face.jpeg', () => jpeg(), 'image/jpeg'],
      ['upper-case PNG', 'FACE.PNG', () => png(), 'image/png'],
    ])('accepts a %s avatar and serves the same bytes as %s from the returned URL', async (_label, name, make, type) => {
      const { w, post } = await reviewWorld();
      const bytes = make();
      const res = await post({ bytes, name });
      expect(res.status).toBe(201);
      expect(res.body.data.avatar).toMatch(FILE_URL);
      const served = await download(res.body.data.avatar);
      expect(served.status).toBe(200);
      expect(served.contentType.split(';')[0]).toBe(type);
      expect(served.bytes.equals(bytes)).toBe(true);
      // The stored review points at the upload; a GET answers the same URL path.
      const again = await t.http().get(`/api/v1/reviews/${res.body.data.id}`).set('Authorization', bearer(w.tokens.orgOwner));
      expect(new URL(again.body.data.avatar).pathname).toBe(new URL(res.body.data.avatar).pathname);
    });

    it('accepts an svg avatar and serves it as image/svg+xml', async () => {
      const { post } = await reviewWorld();
      const res = await post({ bytes: Buffer.from(SIMPLE_SVG), name: 'face.svg' });
      expect(res.status).toBe(201);
      expect(res.body.data.avatar).toMatch(FILE_URL);
      const served = await download(res.body.data.avatar);
      expect(served.status).toBe(200);
      expect(served.contentType).toMatch(/^image\/svg\+xml/);
      expect(served.bytes.toString('utf8')).toMatch(/<rect\b[^>]*fill="#0a0"/);
    });

    it.each([
      ['an XML declaration', `<?xml version="1.0" encoding="UTF-8"?>\n${SIMPLE_SVG}`],
      ['an XML declaration and an editor comment', `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!-- Generator: Some Editor 1.0 -->\n${SIMPLE_SVG}`],
      ['a DOCTYPE', `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n${SIMPLE_SVG}`],
      ['a byte order mark', `\uFEFF${SIMPLE_SVG}`],
    ])('accepts an svg avatar starting with %s, as editors export them', async (_label, svg) => {
      const { post } = await reviewWorld();
      const res = await post({ bytes: Buffer.from(svg, 'utf8'), name: 'exported.svg' });
      expect(res.status).toBe(201);
      const served = await download(res.body.data.avatar);
      expect(served.contentType).toMatch(/^image\/svg\+xml/);
      const text = served.bytes.toString('utf8');
      expect(text).toMatch(/^<svg[\s>]/);
      expect(text).toMatch(/<rect\b[^>]*fill="#0a0"/);
    });

    it('keeps viewBox, gradients, clip paths, masks and filters of a clean svg', async () => {
      const { post } = await reviewWorld();
      const svg = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" preserveAspectRatio="xMidYMid meet">',
        '<defs>',
        '<linearGradient id="lg" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="32" y2="32"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>',
        '<radialGradient id="rg"><stop offset="0" stop-color="#fff"/></radialGradient>',
        '<clipPath id="cp"><circle cx="16" cy="16" r="12"/></clipPath>',
        '<filter id="soft"><feGaussianBlur stdDeviation="1.5"/></filter>',
        '</defs>',
        '<rect width="32" height="32" fill="url(#lg)" clip-path="url(#cp)"/>',
        '<circle cx="16" cy="16" r="4" fill="url(#rg)" filter="url(#soft)"/>',
        '</svg>',
      ].join('');
      const res = await post({ bytes: Buffer.from(svg), name: 'logo.svg' });
      expect(res.status).toBe(201);
      const text = (await download(res.body.data.avatar)).bytes.toString('utf8');
      expect(text).toMatch(/<svg\b[^>]*viewBox="0 0 32 32"/);
      expect(text).toMatch(/preserveAspectRatio="xMidYMid meet"/);
      expect(text).toMatch(/<linearGradient\b[^>]*id="lg"[^>]*gradientUnits="userSpaceOnUse"/);
      expect(text).toMatch(/<radialGradient\b[^>]*id="rg"/);
      expect(text).toMatch(/<clipPath\b[^>]*id="cp"><circle\b/);
      expect(text).toMatch(/<filter\b[^>]*id="soft"><feGaussianBlur\b[^>]*stdDeviation="1.5"/);
      expect(text).toMatch(/<rect\b[^>]*fill="url\(#lg\)"[^>]*clip-path="url\(#cp\)"/);
    });

    it('never expands entities declared in an svg doctype', async () => {
      const { post } = await reviewWorld();
      const svg = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "EXPANDEDEXPANDED"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text><rect width="1" height="1"/></svg>`;
      const res = await post({ bytes: Buffer.from(svg), name: 'entities.svg' });
      expect([201, 422]).toContain(res.status);
      if (res.status === 201) expect((await download(res.body.data.avatar)).bytes.toString('utf8')).not.toMatch(/EXPANDED/);
      else expectFieldError(res, 'avatar');
    });

    it('accepts an avatar of exactly 250 KB', async () => {
      const { post } = await reviewWorld();
      const bytes = png(LIMIT);
      expect(bytes.length).toBe(256_000);
      const res = await post({ bytes, name: 'big.png' });
      expect(res.status).toBe(201);
      const served = await download(res.body.data.avatar);
      expect(served.bytes.length).toBe(LIMIT);
    });

    it.each([
      ['one byte over 250 KB', LIMIT + 1],
      ['300 KB', 300 * KB],
      ['1 MB', 1024 * KB],
    ])('answers 422 errors.avatar for a png of %s, and stores neither review nor file', async (_label, size) => {
      const { w, post } = await reviewWorld();
      const res = await post({ bytes: png(size), name: 'huge.png' });
      expectFieldError(res, 'avatar');
      expect(await reviews(w.tenant.id)).toBe(0);
      expect(await files(w.tenant.id)).toBe(0);
    });

    it('answers 422 errors.avatar for an svg over 250 KB', async () => {
      const { w, post } = await reviewWorld();
      const svg = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(LIMIT)}</desc><rect width="1" height="1"/></svg>`;
      const res = await post({ bytes: Buffer.from(svg), name: 'huge.svg' });
      expectFieldError(res, 'avatar');
      expect(await reviews(w.tenant.id)).toBe(0);
      expect(await files(w.tenant.id)).toBe(0);
    });

    it.each([
      ['a .png name with text content', 'fake.png', Buffer.from('this is not an image at all')],
      ['a .png name with HTML content', 'page.png', Buffer.from('<html><script>alert(1)</script></html>')],
      ['a .jpg name with text content', 'fake.jpg', Buffer.from('GIF? no, text')],
      ['a .svg name with HTML content', 'page.svg', Buffer.from('<html><body><script>alert(1)</script></body></html>')],
      ['a .svg name with PNG content', 'image.svg', png()],
      ['a .gif', 'anim.gif', GIF],
      ['a .txt', 'notes.txt', Buffer.from('hello')],
      ['a .txt holding PNG bytes', 'notes.txt', png()],
      ['a name without extension', 'avatar', png()],
      ['an .html', 'x.html', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['an empty .png', 'empty.png', Buffer.alloc(0)],
    ])('answers 422 errors.avatar for %s, and stores neither review nor file', async (_label, name, bytes) => {
      const { w, post } = await reviewWorld();
      const res = await post({ bytes, name });
      expectFieldError(res, 'avatar');
      expect(await reviews(w.tenant.id)).toBe(0);
      expect(await files(w.tenant.id)).toBe(0);
    });

    it('answers 401 without a valid token and 403 without reviews:create when an avatar is attached, storing nothing', async () => {
      const { w, src } = await reviewWorld();
      for (const [token, status] of [
        ['rg_not-a-token', 401],
        [await tokenFor(w.orgOwner, ['reviews:read']), 403],
      ] as const) {
        const res = await t
          .http()
          .post('/api/v1/reviews')
          .set('Authorization', bearer(token))
          .field('author', 'Uploader')
          .field('rating', '5')
          .field('published_on', '2026-04-01')
          .field('organization_id', String(w.org.id))
          .field('location_id', String(w.home.id))
          .field('source', String(src.id))
          .attach('avatar', png(200 * KB), 'face.png');
        expect(res.status).toBe(status);
        expect(typeof res.body.message).toBe('string');
      }
      expect(await reviews(w.tenant.id)).toBe(0);
      expect(await files(w.tenant.id)).toBe(0);
    });

    it('keeps no file when the review itself is refused', async () => {
      const { w, src } = await reviewWorld();
      const google = await syncedSourceOf(w.home);
      const res = await t
        .http()
        .post('/api/v1/reviews')
        .set('Authorization', bearer(w.tokens.orgOwner))
        .field('author', 'Uploader')
        .field('rating', '5')
        .field('published_on', '2026-04-01')
        .field('organization_id', String(w.org.id))
        .field('location_id', String(w.home.id))
        .field('source', String(google.id))
        .attach('avatar', png(), 'face.png');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['source']);
      expect(await reviews(w.tenant.id)).toBe(0);
      expect(await files(w.tenant.id)).toBe(0);
      expect(src.id).toBeGreaterThan(0);
    });

    it('accepts a hostile svg but serves it without scripts, handlers, foreign objects or external references', async () => {
      const { post } = await reviewWorld();
      const res = await post({ bytes: Buffer.from(HOSTILE_SVG), name: 'hostile.svg' });
      expect(res.status).toBe(201);
      const served = await download(res.body.data.avatar);
      expect(served.status).toBe(200);
      expect(served.contentType).toMatch(/^image\/svg\+xml/);
      expectInertSvg(served.bytes.toString('utf8'));
    });
  });

  describe('PUT /api/v1/reviews/{id} with an avatar', () => {
    it('replaces the avatar and changes nothing else', async () => {
      const w = await makeWorld();
      const r = await makeReview(await testimonialsOf(w.home), { author: 'Kept', rating: 4 });
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).attach('avatar', jpeg(), 'new.jpg');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ author: 'Kept', rating: 4 });
      expect(res.body.data.avatar).toMatch(FILE_URL);
      const served = await download(res.body.data.avatar);
      expect(served.contentType.split(';')[0]).toBe('image/jpeg');
      expect(served.bytes.equals(jpeg())).toBe(true);
    });

    it('answers 422 errors.avatar for a bad file and keeps the old avatar', async () => {
      const w = await makeWorld();
      const r = await makeReview(await testimonialsOf(w.home), { rating: 4 });
      for (const [bytes, name] of [
        [png(LIMIT + 1), 'huge.png'],
        [Buffer.from('text'), 'fake.png'],
        [GIF, 'a.gif'],
      ] as const) {
        const res = await t
          .http()
          .put(`/api/v1/reviews/${r.id}`)
          .set('Authorization', bearer(w.tokens.orgOwner))
          .field('rating', '1')
          .attach('avatar', bytes, name);
        expectFieldError(res, 'avatar');
      }
      const stored = (await Review.findByPk(r.id))!;
      expect(stored.avatarFileId).toBeNull();
      expect(stored.rating).toBe(4);
      expect(await files(w.tenant.id)).toBe(0);
    });

    it('refuses an avatar on a synced review with 403 and stores no file', async () => {
      const w = await makeWorld();
      const r = await makeReview(await syncedSourceOf(w.home));
      const res = await t.http().put(`/api/v1/reviews/${r.id}`).set('Authorization', bearer(w.tokens.orgOwner)).attach('avatar', png(), 'a.png');
      expect(res.status).toBe(403);
      expect(await files(w.tenant.id)).toBe(0);
    });
  });

  describe('POST /api/v1/organizations with a logo', () => {
    async function owner() {
      const { tenant } = await makeTenant();
      const user = await makeOrgOwner(tenant.id);
      const token = await tokenFor(user);
      const count = () => Organization.count({ where: { customerId: user.customerId! } });
      const post = (name: string, file?: { bytes: Buffer; name: string }) => {
        const req = t.http().post('/api/v1/organizations').set('Authorization', bearer(token)).field('name', name);
        if (file) req.attach('logo', file.bytes, file.name);
        return req;
      };
      return { tenant, user, token, count, post };
    }

    it.each([
      ['png', 'logo.png', () => png(), 'image/png'],
      ['jpg', 'logo.jpg', () => jpeg(), 'image/jpeg'],
      ['jpeg', 'logo.jpeg', () => jpeg(), 'image/jpeg'],
      ['svg', 'logo.svg', () => Buffer.from(SIMPLE_SVG), 'image/svg+xml'],
    ])('accepts a %s logo and serves it from /files/... named in `logo`', async (_label, name, make, type) => {
      const o = await owner();
      const bytes = make();
      const res = await o.post('Logo Co', { bytes, name });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Logo Co' });
      expect(res.body.logo).toMatch(FILE_URL);
      const served = await download(res.body.logo);
      expect(served.status).toBe(200);
      expect(served.contentType.split(';')[0]).toBe(type);
      if (type !== 'image/svg+xml') expect(served.bytes.equals(bytes)).toBe(true);
      else expect(served.bytes.toString('utf8')).toMatch(/<rect\b/);
      const again = await t.http().get(`/api/v1/organizations/${res.body.id}`).set('Authorization', bearer(o.token));
      expect(new URL(again.body.logo).pathname).toBe(new URL(res.body.logo).pathname);
    });

    it('answers logo null when none was uploaded', async () => {
      const o = await owner();
      const res = await o.post('Plain Co');
      expect(res.status).toBe(201);
      expect(res.body.logo).toBeNull();
    });

    it.each([
      ['over 250 KB', () => png(LIMIT + 1), 'huge.png'],
      ['a .png name with text content', () => Buffer.from('not a picture'), 'logo.png'],
      ['a .gif', () => GIF, 'logo.gif'],
      ['a .txt', () => Buffer.from('hello'), 'logo.txt'],
      ['a .svg name with HTML content', () => Buffer.from('<html><script>alert(1)</script></html>'), 'logo.svg'],
    ])('answers 422 errors.logo for a logo %s, and leaves no organisation, location or file behind', async (_label, make, name) => {
      const o = await owner();
      const before = await o.count();
      const locations = await Location.count({ where: { customerId: o.user.customerId! } });
      const res = await o.post('Broken Logo Co', { bytes: make(), name });
      expectFieldError(res, 'logo');
      expect(await o.count()).toBe(before);
      expect(await Organization.count({ where: { name: 'Broken Logo Co' } })).toBe(0);
      expect(await Location.count({ where: { customerId: o.user.customerId! } })).toBe(locations);
      expect(await files(o.tenant.id)).toBe(0);
    });

    it('keeps no file when the organisation itself is refused (name taken)', async () => {
      const o = await owner();
      await makeOrganization(o.user, 'Taken Co');
      const before = await o.count();
      const res = await o.post('Taken Co', { bytes: png(), name: 'logo.png' });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['name']);
      expect(await o.count()).toBe(before);
      expect(await files(o.tenant.id)).toBe(0);
    });

    it('accepts a hostile svg logo but serves it inert, keeping the shapes', async () => {
      const o = await owner();
      const res = await o.post('Hostile Co', { bytes: Buffer.from(HOSTILE_SVG), name: 'logo.svg' });
      expect(res.status).toBe(201);
      const served = await download(res.body.logo);
      expect(served.contentType).toMatch(/^image\/svg\+xml/);
      expectInertSvg(served.bytes.toString('utf8'));
    });
  });

  describe('PUT /api/v1/organizations/{id} with a logo', () => {
    it('replaces the logo; a bad logo is refused with 422 errors.logo and the old one stays', async () => {
      const { tenant } = await makeTenant();
      const user = await makeOrgOwner(tenant.id);
      const token = await tokenFor(user);
      const org = await makeOrganization(user, 'Relogo Co');
      const ok = await t.http().put(`/api/v1/organizations/${org.id}`).set('Authorization', bearer(token)).attach('logo', png(), 'logo.png');
      expect(ok.status).toBe(200);
      const first = (await Organization.findByPk(org.id))!.logoFileId;
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      const shown = await t.http().get(`/api/v1/organizations/${org.id}`).set('Authorization', bearer(token));
      expect(shown.body.logo).toMatch(FILE_URL);
      expect((await download(shown.body.logo)).bytes.equals(png())).toBe(true);

      const bad = await t
        .http()
        .put(`/api/v1/organizations/${org.id}`)
        .set('Authorization', bearer(token))
        .field('name', 'Renamed Co')
        .attach('logo', png(LIMIT + 1), 'logo.png');
      expectFieldError(bad, 'logo');
      const after = (await Organization.findByPk(org.id))!;
      expect(after.logoFileId).toBe(first);
      expect(after.name).toBe('Relogo Co');
      expect(await files(tenant.id)).toBe(1);
    });
  });

  describe('GET /files/{id}', () => {
    it('answers 404 JSON for an unknown or malformed file id', async () => {
      for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-file', '..%2F..%2Fetc%2Fpasswd']) {
        const res = await t.http().get(`/files/${id}`);
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
      }
    });
  });
});
