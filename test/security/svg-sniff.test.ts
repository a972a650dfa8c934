import { Organization, Review, StoredFile } from '../../src/models';
import { useApp } from '../support/app';
import { postReviewWithAvatar } from '../support/avatar-upload';
import { makeOrgOwner, makeTenant, makeWorld, tokenFor } from '../support/factories';

/**
 * An uploaded SVG's content check (src/services/files.service.ts `sniff`) is the linear scan of src/reports/logo.ts.
 * It was `^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]`: on comments followed by
 * anything but `<svg` the repeated lazy comment group tries every way of cutting the comments apart, so a 281-byte
 * logo.svg of `<!---->` x 40 and an `x` held the API process for minutes (the work doubles with each comment).
 *
 * No timed assertion: the files below carry 200 comments, which the old pattern would never finish; on such code these
 * tests hang past Jest's timeout.
 */
describe('SVG uploads: the content check is linear', () => {
  const t = useApp();
  const bearer = (token: string) => `Bearer ${token}`;

  /** `<!---->` x 200 and an `x`: not an SVG document. */
  const HOSTILE = Buffer.from(`${'<!---->'.repeat(200)}x`);
  /** 100 comments (700 bytes: the check reads the first 1,024) and then a real `<svg>`. */
  const COMMENTED = Buffer.from(`${'<!---->'.repeat(100)}<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#0a0"/></svg>`);
  const PROLOG = Buffer.from(
    [
      '\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
      '<!-- Generator: an editor -->',
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">',
      '<!-- second comment -->',
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"/></svg>',
    ].join('\n'),
  );

  async function orgOwner() {
    const { tenant } = await makeTenant();
    const user = await makeOrgOwner(tenant.id);
    return { tenant, user, token: await tokenFor(user) };
  }
  const postOrg = (token: string, name: string, logo: Buffer) =>
    t.http().post('/api/v1/organizations').set('Authorization', bearer(token)).field('name', name).attach('logo', logo, 'logo.svg');

  it('a logo.svg of 200 empty comments and an `x` is 422 errors.logo (a bad file type), nothing stored', async () => {
    const o = await orgOwner();
    const res = await postOrg(o.token, 'Comment Bomb Co', HOSTILE);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message: 'The logo content does not match a svg image.', errors: { logo: ['The logo content does not match a svg image.'] } });
    expect(await Organization.count({ where: { customerId: o.user.customerId! } })).toBe(0);
    expect(await StoredFile.count({ where: { tenantId: o.tenant.id } })).toBe(0);
  });

  it('a review avatar of the same bytes is 422 errors.avatar, nothing stored', async () => {
    const w = await makeWorld();
    const res = await postReviewWithAvatar(t, w, 'Bomb', HOSTILE);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ avatar: ['The avatar content does not match a svg image.'] });
    expect(await Review.count({ where: { tenantId: w.tenant.id } })).toBe(0);
    expect(await StoredFile.count({ where: { tenantId: w.tenant.id } })).toBe(0);
  });

  it('the same bytes through GraphQL (createOrganization with a logo) are a validation error on `logo`', async () => {
    const o = await orgOwner();
    const res = await t
      .http()
      .post('/graphql')
      .set('Authorization', bearer(o.token))
      .send({
        query: 'mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }',
        variables: { input: { name: 'GraphQL Bomb Co', logo: { filename: 'logo.svg', base64: HOSTILE.toString('base64') } } },
      });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', fields: { logo: ['The logo content does not match a svg image.'] } });
    expect(await StoredFile.count({ where: { tenantId: o.tenant.id } })).toBe(0);
  });

  it.each([
    ['100 leading comments', COMMENTED, /<rect\b/],
    ['a byte-order mark, XML declaration, comments and a doctype', PROLOG, /<circle\b/],
  ])('a valid SVG with %s is still accepted and served', async (_label, bytes, shape) => {
    const o = await orgOwner();
    const res = await postOrg(o.token, `Fine Co ${Math.random().toString(36).slice(2, 8)}`, bytes);
    expect(res.status).toBe(201);
    const served = await t.http().get(new URL(res.body.logo).pathname).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(served.text ?? served.body)).toMatch(shape);
  });
});
