import { QueryTypes } from 'sequelize';
import { purgeExpiredIdempotencyKeys } from '../../../src/services/idempotency.service';
import { useApp } from '../../support/app';
import { agencyTokenFor, makePlan, makeWorld, testimonialsOf } from '../../support/factories';
import { Contact } from '../../../src/models';
import { makeCampaign } from '../../inbound/support';
import { solidPng } from '../../support/png';

/**
 * `Idempotency-Key` on REST POSTs (issue 15 item 6; docs/decisions/api-conventions.md "Idempotent writes"): the same key with the same
 * request within 24 h answers the first response without doing the work again; another request with the key is 422
 * `idempotency_key_reused`; while the first still runs, 409 `idempotency_key_in_use`; keys are per token.
 */
describe('Idempotency-Key on REST POSTs', () => {
  const t = useApp();
  const count = async (table: string, where: string, value: number) =>
    (await t.db().query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where} = ?`, { replacements: [value], type: QueryTypes.SELECT }))[0].n;

  async function reviewWorld() {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const body = { author: 'Ada', rating: 5, published_on: '2026-01-02', organization_id: w.org.id, location_id: w.home.id, source: source.id, message: 'Lovely.' };
    return { w, body, post: (token: string, key: string | null, b: object = body) => {
      const r = t.http().post('/api/v1/reviews').set('Authorization', `Bearer ${token}`);
      return (key === null ? r : r.set('Idempotency-Key', key)).send(b);
    } };
  }

  it('ignores the header on the invite, whose spec accepts no idempotency key (rule 9): each send is matched to its contact', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const invite = (first: string) =>
      t.http().post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).set('Authorization', `Bearer ${w.tokens.orgOwner}`).set('Idempotency-Key', 'same-key').send({ email: 'ada@example.test', first_name: first });
    const a = await invite('Ada');
    const b = await invite('Adeline');
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    // Not a replay and not "reused": the second send ran and its details were saved on the same contact.
    expect(b.body.id).toBe(a.body.id);
    expect((await Contact.findOne({ where: { uuid: a.body.id } }))!.firstName).toBe('Adeline');
    const keys = await t.db().query<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = 'same-key'", { type: QueryTypes.SELECT });
    expect(Number(keys[0].n)).toBe(0);
  });

  it('ignores it too on the spellings of the invite path that reach the route (a trailing slash, other letter case)', async () => {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    const invite = (path: string, first: string) =>
      t.http().post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/${path}`).set('Authorization', `Bearer ${w.tokens.orgOwner}`).set('Idempotency-Key', 'spelt-key').send({ email: 'ada@example.test', first_name: first });
    const answers = [await invite('invite/', 'Ada'), await invite('invite/', 'Adeline'), await invite('INVITE', 'Adela')];
    expect(answers.map((a) => [a.status, a.headers['idempotent-replayed']])).toEqual([
      [202, undefined],
      [202, undefined],
      [202, undefined],
    ]);
    expect((await Contact.findOne({ where: { uuid: answers[0].body.id } }))!.firstName).toBe('Adela');
    const keys = await t.db().query<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = 'spelt-key'", { type: QueryTypes.SELECT });
    expect(Number(keys[0].n)).toBe(0);
  });

  it('replays the first answer for the same key and body, without creating a second review', async () => {
    const { w, body, post } = await reviewWorld();
    const first = await post(w.tokens.orgOwner, 'create-ada-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post(w.tokens.orgOwner, 'create-ada-1', reordered);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count('reviews', 'location_id', w.home.id)).toBe(1);
    // Without a key, or with another one, the work is done again.
    expect((await post(w.tokens.orgOwner, 'create-ada-2')).status).toBe(201);
    expect((await post(w.tokens.orgOwner, null)).status).toBe(201);
    expect(await count('reviews', 'location_id', w.home.id)).toBe(3);
  });

  it('refuses the key with another body (422) and keeps keys per token', async () => {
    const { w, body, post } = await reviewWorld();
    expect((await post(w.tokens.orgOwner, 'k-1')).status).toBe(201);
    const reused = await post(w.tokens.orgOwner, 'k-1', { ...body, rating: 1 });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: 'idempotency_key_reused' });
    // Another token may use the same key for its own request.
    expect((await post(w.tokens.owner, 'k-1')).status).toBe(201);
    expect(await count('reviews', 'location_id', w.home.id)).toBe(2);
  });

  it('tells keys apart by letter case: each spelling is a key of its own', async () => {
    const { w, body, post } = await reviewWorld();
    const first = await post(w.tokens.orgOwner, 'CaseKey-1');
    expect([first.status, first.headers['idempotent-replayed']]).toEqual([201, undefined]);
    // Another body under the lower-case spelling: a new key, so it runs (it was 422 idempotency_key_reused).
    const lower = await post(w.tokens.orgOwner, 'casekey-1', { ...body, author: 'Bea' });
    expect([lower.status, lower.headers['idempotent-replayed']]).toEqual([201, undefined]);
    // The first body under the upper-case spelling: a new key too, so it runs rather than replaying the first.
    const upper = await post(w.tokens.orgOwner, 'CASEKEY-1');
    expect([upper.status, upper.headers['idempotent-replayed']]).toEqual([201, undefined]);
    expect(new Set([first.body.data.id, lower.body.data.id, upper.body.data.id]).size).toBe(3);
    // Each spelling answers its own first request again.
    const again = await post(w.tokens.orgOwner, 'casekey-1', { ...body, author: 'Bea' });
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', lower.body]);
    expect(await count('reviews', 'location_id', w.home.id)).toBe(3);
    const keys = await t.db().query<{ k: string }>("SELECT idem_key AS k FROM idempotency_keys WHERE idem_key IN ('CaseKey-1', 'casekey-1', 'CASEKEY-1') ORDER BY id", {
      type: QueryTypes.SELECT,
    });
    expect(keys.map((r) => r.k)).toEqual(['CaseKey-1', 'casekey-1', 'CASEKEY-1']);
  });

  describe('multipart bodies: their fields and files are the request, not their framing', () => {
    type Part = { name: string; value: string } | { name: string; file: Buffer; filename: string; type: string };
    /** A multipart/form-data body written by hand, with the boundary given. */
    const multipart = (boundary: string, parts: Part[]) =>
      Buffer.concat([
        ...parts.map((p) =>
          'value' in p
            ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`)
            : Buffer.concat([
                Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`),
                p.file,
                Buffer.from('\r\n'),
              ]),
        ),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
    // Two logos of one size, other pixels.
    const logoA = solidPng(2, 2, [10, 20, 30]);
    const logoB = solidPng(2, 2, [30, 20, 10]);
    const name = (value: string): Part => ({ name: 'name', value });
    const logo = (file: Buffer): Part => ({ name: 'logo', file, filename: 'logo.png', type: 'image/png' });

    async function orgWorld() {
      const w = await makeWorld();
      const post = (key: string, body: Buffer, boundary: string) =>
        t.http().post('/api/v1/organizations').set('Authorization', `Bearer ${w.tokens.orgOwner}`).set('Idempotency-Key', key).set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
      const orgs = async (names: string[]) =>
        Number(
          (await t.db().query<{ n: number }>('SELECT COUNT(*) AS n FROM organizations WHERE customer_id = ? AND name IN (?)', { replacements: [w.orgOwner.customerId, names], type: QueryTypes.SELECT }))[0].n,
        );
      return { post, orgs };
    }

    it('another request under the key, of the same length and boundary, is 422 idempotency_key_reused: other fields, other file bytes', async () => {
      const { post, orgs } = await orgWorld();
      const boundary = 'same-boundary-0001';
      const first = multipart(boundary, [name('Multi AAAA'), logo(logoA)]);
      const otherName = multipart(boundary, [name('Multi BBBB'), logo(logoA)]);
      const otherLogo = multipart(boundary, [name('Multi AAAA'), logo(logoB)]);
      // The length (and the boundary) alone cannot tell them apart.
      expect(new Set([first.length, otherName.length, otherLogo.length]).size).toBe(1);

      const created = await post('multi-1', first, boundary);
      expect([created.status, created.headers['idempotent-replayed'], created.body.name]).toEqual([201, undefined, 'Multi AAAA']);
      for (const other of [otherName, otherLogo]) {
        const reused = await post('multi-1', other, boundary);
        expect([reused.status, reused.headers['idempotent-replayed'], reused.body.code]).toEqual([422, undefined, 'idempotency_key_reused']);
      }
      // Without a file: fields only, other values, same length.
      expect((await post('multi-2', multipart(boundary, [name('Solo CCCC')]), boundary)).status).toBe(201);
      const fieldsOnly = await post('multi-2', multipart(boundary, [name('Solo DDDD')]), boundary);
      expect([fieldsOnly.status, fieldsOnly.body.code]).toEqual([422, 'idempotency_key_reused']);
      expect(await orgs(['Multi AAAA', 'Multi BBBB', 'Solo CCCC', 'Solo DDDD'])).toBe(2);
    });

    it('the same fields and files with another boundary (and another order of the parts) replay the first answer', async () => {
      const { post, orgs } = await orgWorld();
      const created = await post('multi-3', multipart('AaB03x', [name('Bound Co'), logo(logoA)]), 'AaB03x');
      expect([created.status, created.headers['idempotent-replayed']]).toEqual([201, undefined]);
      const boundary = '----another-boundary-of-another-length-7f3a';
      const again = await post('multi-3', multipart(boundary, [logo(logoA), name('Bound Co')]), boundary);
      expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', created.body]);
      expect(await orgs(['Bound Co'])).toBe(1);
    });
  });

  it('a refused first request is replayed as refused (422), a malformed key is 422', async () => {
    const { w, body, post } = await reviewWorld();
    const bad = await post(w.tokens.orgOwner, 'k-bad', { ...body, rating: 9 });
    expect(bad.status).toBe(422);
    const again = await post(w.tokens.orgOwner, 'k-bad', { ...body, rating: 9 });
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([422, 'true', bad.body]);
    const malformed = await post(w.tokens.orgOwner, 'with space');
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toHaveProperty('idempotency_key');
  });

  it('concurrent requests with one key: one does the work, the others get 409 or its answer', async () => {
    const { w, post } = await reviewWorld();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(w.tokens.orgOwner, 'race-1')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toMatchObject({ code: 'idempotency_key_in_use' });
    const created = answers.filter((a) => a.status === 201);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect(await count('reviews', 'location_id', w.home.id)).toBe(1);
  });

  it('works on the agency API too, and a key older than 24 hours is gone', async () => {
    const w = await makeWorld();
    const token = await agencyTokenFor(w.owner);
    await makePlan(w.tenant.id);
    const grant = () => t.http().post(`/api/agency/v1/customers/${w.orgOwner.customerId}/add-credits`).set('Authorization', `Bearer ${token}`).set('Idempotency-Key', 'grant-1').send({ type: 'email', credits: 10 });
    const first = await grant();
    expect(first.body).toMatchObject({ balance: 10 });
    const again = await grant();
    expect([again.status, again.body.balance, again.headers['idempotent-replayed']]).toEqual([200, 10, 'true']);

    // A day later the key is purged and the same request does the work again.
    await t.db().query("UPDATE idempotency_keys SET created_at = DATE_SUB(created_at, INTERVAL 25 HOUR) WHERE idem_key = 'grant-1'");
    expect(await purgeExpiredIdempotencyKeys(new Date())).toBeGreaterThanOrEqual(1);
    const later = await grant();
    expect([later.status, later.body.balance, later.headers['idempotent-replayed']]).toEqual([200, 20, undefined]);
  });
});
