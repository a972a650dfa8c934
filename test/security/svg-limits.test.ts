import { Organization, Review, StoredFile } from '../../src/models';
import { SVG_LIMITS, svgLimitBreach, svgShape } from '../../src/services/svg-shape';
import { useApp } from '../support/app';
import { postReviewWithAvatar } from '../support/avatar-upload';
import { makeOrganization, makeOrgOwner, makeTenant, makeWorld, tokenFor } from '../support/factories';

/**
 * An uploaded SVG is measured by a linear scan (src/services/svg-shape.ts) before jsdom and DOMPurify parse it: a 35 KB
 * logo.svg of 5,000 nested `<g>` held the API process 13 s (and a create transaction open), 30,000 (210 KB) 79 s.
 * Past 64 levels, 5,000 nodes or 20,000 attributes (256 on one element) the upload is 422 on its field, unparsed.
 *
 * No timed assertion. The refused files below are ones the old code accepted (201) or answered only after the parse.
 */

const NS = 'xmlns="http://www.w3.org/2000/svg"';
/** `levels` nested groups inside the root: `levels + 1` elements deep. */
const nested = (levels: number) => `<svg ${NS}>${'<g>'.repeat(levels)}<rect width="1" height="1"/>${'</g>'.repeat(levels)}</svg>`;
/** The reviewer's file: 5,000 nested `<g>` (35 KB). */
const GROUP_BOMB = `<svg ${NS}>${'<g>'.repeat(5000)}${'</g>'.repeat(5000)}</svg>`;
/** The root and 5,000 shapes: one node over the limit. */
const TOO_MANY = `<svg ${NS}>${'<rect width="1" height="1"/>'.repeat(SVG_LIMITS.nodes)}</svg>`;

/**
 * What an editor exports for a logo: prolog, a layer, defs with gradients and a clip path, groups 10 deep, a few hundred
 * paths; and the markup a naive count gets wrong (a comment and a CDATA section full of `<g>`, attribute values with `>`
 * and the other quote), which the scan must not count as elements.
 */
function realisticLogo(): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<!-- Generator: Adobe Illustrator 28.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->',
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">',
    `<svg version="1.1" id="Layer_1" ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px" viewBox="0 0 512 512" xml:space="preserve">`,
    `<!-- ${'<g>'.repeat(200)} a commented-out group -->`,
    '<defs>',
    '<linearGradient id="brand" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="512" y2="512">',
    '<stop offset="0" stop-color="#ff6a00"/><stop offset="0.5" stop-color="#ee0979"/><stop offset="1" stop-color="#6a00ff"/>',
    '</linearGradient>',
    '<radialGradient id="glow" cx="256" cy="256" r="200" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#fff" stop-opacity="0.8"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>',
    '<clipPath id="badge"><circle cx="256" cy="256" r="240"/></clipPath>',
    '</defs>',
  ];
  // Groups 10 deep (a layer and 9 levels inside the root), each level carrying shapes.
  out.push('<g id="layer" clip-path="url(#badge)">');
  for (let level = 1; level <= 9; level++) {
    out.push(`<g id="level-${level}" transform="translate(${level} ${level})" data-note="a &gt; b > c" data-say='she said "hi"'>`);
    for (let i = 0; i < 30; i++) {
      out.push(`<path fill="url(#brand)" d="M${i} ${level}c1.5 0 2.7 1.2 2.7 2.7s-1.2 2.7-2.7 2.7S${i} ${level + 4} ${i} ${level + 2.7}z"/>`);
    }
  }
  out.push(`<text x="10" y="20"><![CDATA[ ${'<g>'.repeat(200)} ]]>Brand</text>`);
  out.push('<circle id="deepest" cx="256" cy="256" r="64" fill="url(#glow)"/>');
  out.push('</g>'.repeat(10));
  out.push('</svg>');
  return out.join('\n');
}

describe('svgShape: one scan over the markup', () => {
  it.each([
    ['self-closing and open elements', '<svg><g><g/><g></g></g></svg>', { depth: 3, nodes: 4, attributes: 0, elementAttributes: 0 }],
    ['a comment holding tags', '<svg><!-- <g><g><g> </g> --><rect/></svg>', { depth: 2, nodes: 3, attributes: 0, elementAttributes: 0 }],
    ['a CDATA section holding tags', '<svg><text><![CDATA[ <g><g></g> ]]></text></svg>', { depth: 2, nodes: 3, attributes: 0, elementAttributes: 0 }],
    ['processing instructions with `>`', '<?xml version="1.0"?><svg><?pi a > <g> ?><g/></svg>', { depth: 2, nodes: 4, attributes: 0, elementAttributes: 0 }],
    [
      'attribute values with `>`, `<`, `/>` and the other quote',
      `<svg a="1"><path d="M0 0" data-x="a>b/>" title='say "hi" > <g>'/><g b = "x>"></g></svg>`,
      { depth: 2, nodes: 3, attributes: 5, elementAttributes: 3 },
    ],
    ['attributes over several lines', '<svg>\n<rect\n  width="1"\n\theight=\'2\'\n/>\n</svg>', { depth: 2, nodes: 2, attributes: 2, elementAttributes: 2 }],
    ['a doctype', '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg/>', { depth: 1, nodes: 2, attributes: 0, elementAttributes: 0 }],
    ['text with `>` and a stray `<`', '<svg><text>a > b < c</text></svg>', { depth: 2, nodes: 2, attributes: 0, elementAttributes: 0 }],
    ['an unterminated comment', '<svg><!-- <g><g>', { depth: 1, nodes: 2, attributes: 0, elementAttributes: 0 }],
    ['an unterminated attribute value', '<svg><g a="<g><g>', { depth: 2, nodes: 2, attributes: 1, elementAttributes: 1 }],
  ])('%s', (_label, text, shape) => {
    expect(svgShape(text)).toEqual(shape);
  });

  it('counts the realistic logo right: 12 deep, its comments and CDATA section as one node each', () => {
    const shape = svgShape(realisticLogo());
    expect(shape.depth).toBe(12); // the root, the layer, 9 levels and the shapes inside the last
    expect(shape.nodes).toBeGreaterThan(270);
    expect(shape.nodes).toBeLessThan(300);
    expect(svgLimitBreach(realisticLogo())).toBeNull();
  });

  it('depth: 64 levels pass, 65 are refused', () => {
    expect(svgShape(nested(63)).depth).toBe(65);
    expect(svgLimitBreach(nested(62))).toBeNull();
    expect(svgLimitBreach(nested(63))).toBe('must not nest SVG elements more than 64 deep');
  });

  it('nodes: 5,000 pass, 5,001 are refused (comments count)', () => {
    const rects = (n: number) => `<svg>${'<rect/>'.repeat(n)}</svg>`;
    expect(svgLimitBreach(rects(SVG_LIMITS.nodes - 1))).toBeNull();
    expect(svgLimitBreach(rects(SVG_LIMITS.nodes))).toMatch(/^must not have more than 5000 SVG elements, comments/);
    expect(svgLimitBreach(`<svg>${'<!---->'.repeat(SVG_LIMITS.nodes)}</svg>`)).toMatch(/more than 5000 SVG elements/);
  });

  it('attributes: 256 on one element and 20,000 in all pass, one more is refused', () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="1"`).join('');
    expect(svgLimitBreach(`<svg><rect${attrs(256)}/></svg>`)).toBeNull();
    expect(svgLimitBreach(`<svg><rect${attrs(257)}/></svg>`)).toBe('must not have more than 256 attributes on one SVG element');
    const many = `<svg>${`<rect${attrs(250)}/>`.repeat(80)}`;
    expect(svgLimitBreach(`${many}</svg>`)).toBeNull();
    expect(svgLimitBreach(`${many}<rect a="1"/></svg>`)).toBe('must not have more than 20000 SVG attributes');
  });
});

describe('SVG uploads past the shape limits are refused before any parse', () => {
  const t = useApp();
  const bearer = (token: string) => `Bearer ${token}`;

  async function orgOwner() {
    const { tenant } = await makeTenant();
    const user = await makeOrgOwner(tenant.id);
    return { tenant, user, token: await tokenFor(user) };
  }
  const postOrg = (token: string, name: string, svg: string) =>
    t.http().post('/api/v1/organizations').set('Authorization', bearer(token)).field('name', name).attach('logo', Buffer.from(svg), 'logo.svg');

  it.each([
    ['65 levels deep', nested(63), 'The logo must not nest SVG elements more than 64 deep.'],
    ['5,000 nested groups (35 KB)', GROUP_BOMB, 'The logo must not nest SVG elements more than 64 deep.'],
    [
      '5,001 elements',
      TOO_MANY,
      'The logo must not have more than 5000 SVG elements, comments, CDATA sections and processing instructions.',
    ],
  ])('POST /api/v1/organizations with a logo %s: 422 errors.logo, nothing stored', async (_label, svg, message) => {
    const o = await orgOwner();
    const res = await postOrg(o.token, 'Shape Co', svg);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message, errors: { logo: [message] } });
    expect(await Organization.count({ where: { customerId: o.user.customerId! } })).toBe(0);
    expect(await StoredFile.count({ where: { tenantId: o.tenant.id } })).toBe(0);
  });

  it('PUT /api/v1/organizations/{id} with a too-deep logo: 422 errors.logo, the organisation unchanged', async () => {
    const o = await orgOwner();
    const org = await makeOrganization(o.user, 'Keep Co');
    const res = await t
      .http()
      .put(`/api/v1/organizations/${org.id}`)
      .set('Authorization', bearer(o.token))
      .field('name', 'Renamed Co')
      .attach('logo', Buffer.from(GROUP_BOMB), 'logo.svg');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ logo: ['The logo must not nest SVG elements more than 64 deep.'] });
    const after = (await Organization.findByPk(org.id))!;
    expect(after.name).toBe('Keep Co');
    expect(after.logoFileId).toBeNull();
    expect(await StoredFile.count({ where: { tenantId: o.tenant.id } })).toBe(0);
  });

  it('POST /api/v1/reviews with a too-deep avatar: 422 errors.avatar, no review and no file', async () => {
    const w = await makeWorld();
    const res = await postReviewWithAvatar(t, w, 'Deep', Buffer.from(nested(100)));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ avatar: ['The avatar must not nest SVG elements more than 64 deep.'] });
    expect(await Review.count({ where: { tenantId: w.tenant.id } })).toBe(0);
    expect(await StoredFile.count({ where: { tenantId: w.tenant.id } })).toBe(0);
  });

  it('a refused logo keeps the earlier checks first: a taken name is still errors.name', async () => {
    const o = await orgOwner();
    await makeOrganization(o.user, 'Taken Shape Co');
    const res = await postOrg(o.token, 'Taken Shape Co', GROUP_BOMB);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ name: ['The name has already been taken.'] });
    expect(await StoredFile.count({ where: { tenantId: o.tenant.id } })).toBe(0);
  });

  it('a realistic logo (prolog, gradients, defs, 10 groups deep, ~280 elements) is accepted and served whole', async () => {
    const o = await orgOwner();
    const res = await postOrg(o.token, 'Real Logo Co', realisticLogo());
    expect(res.status).toBe(201);
    const served = await t.http().get(new URL(res.body.logo).pathname).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const text = String(served.text ?? served.body);
    expect(text).toMatch(/<linearGradient\b[^>]*id="brand"/);
    expect(text).toMatch(/<radialGradient\b[^>]*id="glow"/);
    expect(text).toMatch(/<clipPath\b[^>]*id="badge"/);
    expect(text).toMatch(/<g\b[^>]*id="level-9"/);
    expect(text).toMatch(/<circle\b[^>]*id="deepest"/);
    expect(text.match(/<path\b/g)).toHaveLength(270);
  });
});
