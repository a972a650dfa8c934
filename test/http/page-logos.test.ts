import { randomBytes } from 'node:crypto';
import { JSDOM } from 'jsdom';
import { unsubscribeTokenOf } from '../../src/messaging/links';
import { TenantDomain } from '../../src/models';
import { logoKey } from '../../src/reports/logo';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { makeCampaign as makeInviteCampaign, makeSentInvite } from '../inbound/support';
import { makeCampaign, makeContact } from '../invites/fixtures';
import { useAgencyLogo } from '../support/agency-logo';
import { useApp } from '../support/app';
import { makeTenant, makeWorld } from '../support/factories';
import { seedReportScan } from '../support/scan-report';

/**
 * The agency's logo on every page that wears its brand (docs/decisions/api-conventions.md, "The agency's logo on
 * pages"): shown from the platform's own `/brand/logo/<key>` when the platform can fetch it, and otherwise no `<img>` at
 * all, the brand's name alone (an image that answers 404 would show its alt text beside the name). The pages' brands
 * pass through GraphQL's `PageBrand.logoUrl` and `ScanReportBrand.logoUrl`; the developer pages' through
 * `requestBrand`, the monthly report's through `reportHtml`. The MCP sign-in pages: test/oauth/consent-browser.test.ts.
 */
jest.setTimeout(60_000);

describe("the agency's logo on the pages", () => {
  const t = useApp();
  const logo = useAgencyLogo();

  const documentOf = (html: string) => new JSDOM(html).window.document;
  const brandName = () => `Harbour Marketing ${randomBytes(3).toString('hex')}`;

  /** A world whose agency wears `brand` and the logo at `logoUrl`. */
  async function brandedWorld(brand: string, logoUrl: string) {
    const w = await makeWorld();
    await w.tenant.update({ brandName: brand, logoUrl });
    return w;
  }

  /** A page family: the HTML it answers for an agency named `brand` whose logo is at `logoUrl`. */
  interface Family {
    name: string;
    open: (brand: string, logoUrl: string) => Promise<{ status: number; html: string }>;
    /** Where its logo is named: the page's own host (a path), or, for a document read elsewhere, an absolute URL. */
    absolute?: boolean;
  }

  const get = async (path: string, host?: string) => {
    const req = t.http().get(path);
    const res = await (host ? req.set('Host', host) : req);
    return { status: res.status, html: res.text };
  };

  const lastMonth = () => {
    const d = new Date();
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  };

  const families: Family[] = [
    {
      name: 'the rating page of a review link',
      async open(brand, logoUrl) {
        const w = await brandedWorld(brand, logoUrl);
        const { invite } = await makeSentInvite(await makeInviteCampaign(w.org, w.home), { firstName: 'Grace' });
        return get(`/r/${invite.uuid}`);
      },
    },
    {
      name: 'the private feedback form',
      async open(brand, logoUrl) {
        const w = await brandedWorld(brand, logoUrl);
        const { invite } = await makeSentInvite(await makeInviteCampaign(w.org, w.home), { firstName: 'Grace' });
        return get(`/r/${invite.uuid}/feedback?rating=2`);
      },
    },
    {
      name: 'the unsubscribe page',
      async open(brand, logoUrl) {
        const contact = await makeContact(await makeCampaign(await brandedWorld(brand, logoUrl)));
        return get(`/u/${unsubscribeTokenOf(contact.uuid)}`);
      },
    },
    {
      name: 'the unsubscribed page (the POST)',
      async open(brand, logoUrl) {
        const contact = await makeContact(await makeCampaign(await brandedWorld(brand, logoUrl)));
        const res = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' });
        return { status: res.status, html: res.text };
      },
    },
    {
      name: 'the connect page',
      async open(brand, logoUrl) {
        const w = await brandedWorld(brand, logoUrl);
        const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' });
        return get(`/connect/${link.token}`);
      },
    },
    {
      name: 'the refused connect callback whose state names a link (connectBrandForState)',
      async open(brand, logoUrl) {
        const w = await brandedWorld(brand, logoUrl);
        const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' });
        // The link's open sign-in; this browser holds no sign-in cookie of it (the answer reached another browser).
        const state = `logo-${randomBytes(16).toString('hex')}`;
        await link.update({ oauthState: state });
        const res = await get(`/connect/callback?state=${state}&code=x`);
        expect(res.status).toBe(400);
        return res;
      },
    },
    {
      name: 'the scan report page',
      async open(brand, logoUrl) {
        const { tenant } = await makeTenant();
        await tenant.update({ brandName: brand, logoUrl });
        const scan = await seedReportScan({ tenantId: tenant.id, snapshots: [{ at: new Date('2026-11-20T09:00:00Z'), results: () => [] }] });
        return get(`/reports/scans/${scan.uuid}`);
      },
    },
    {
      name: "the scan report's problem page (an unknown keyword, in the scan's brand)",
      async open(brand, logoUrl) {
        const { tenant } = await makeTenant();
        await tenant.update({ brandName: brand, logoUrl });
        const scan = await seedReportScan({ tenantId: tenant.id, snapshots: [{ at: new Date('2026-11-20T09:00:00Z'), results: () => [] }] });
        const res = await get(`/reports/scans/${scan.uuid}?keyword=nothing-like-it`);
        expect(res.status).toBe(404);
        return res;
      },
    },
    {
      name: "the API reference on the agency's domain (/docs)",
      async open(brand, logoUrl) {
        const { tenant } = await makeTenant();
        await tenant.update({ brandName: brand, logoUrl });
        const host = `docs-${randomBytes(4).toString('hex')}.example.test`;
        await TenantDomain.create({ tenantId: tenant.id, domain: host });
        return get('/docs', host);
      },
    },
    {
      name: 'the monthly report handed to API clients (REST)',
      absolute: true,
      async open(brand, logoUrl) {
        const w = await brandedWorld(brand, logoUrl);
        const res = await t.as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}/reports/${lastMonth()}`);
        return { status: res.status, html: res.text };
      },
    },
    {
      name: 'the monthly report handed to API clients (GraphQL html)',
      absolute: true,
      async open(brand, logoUrl) {
        const w = await brandedWorld(brand, logoUrl);
        const res = await t
          .as(w.tokens.orgOwner)
          .post('/graphql')
          .send({ query: `{ organizationReport(organizationId: ${w.org.id}, month: "${lastMonth()}") { html } }` });
        expect(res.body.errors).toBeUndefined();
        return { status: res.status, html: res.body.data.organizationReport.html as string };
      },
    },
  ];

  describe.each(families)('$name', (family) => {
    it("shows the brand's name alone, no <img>, when the platform cannot fetch the logo", async () => {
      const brand = brandName();
      const { status, html } = await family.open(brand, logo.unreachable());
      expect(status).toBeLessThan(500);
      const d = documentOf(html);
      expect(d.querySelector('header')?.textContent).toContain(brand);
      expect(d.querySelectorAll('img')).toHaveLength(0);
      expect(html).not.toContain('/brand/logo/');
    });

    it("shows the logo from the platform's own /brand/logo/<key>, which serves the agency's image", async () => {
      const brand = brandName();
      const logoUrl = logo.reachable();
      const { html } = await family.open(brand, logoUrl);
      const d = documentOf(html);
      expect(d.querySelector('header')?.textContent).toContain(brand);
      const imgs = [...d.querySelectorAll('header img')];
      expect(imgs).toHaveLength(1);
      const src = imgs[0].getAttribute('src')!;
      const path = `/brand/logo/${logoKey(logoUrl)}`;
      if (family.absolute) expect(src).toMatch(new RegExp(`^http://[^/]+${path}$`));
      else expect(src).toBe(path);
      expect(html).not.toContain(logoUrl.split('?')[0]);
      // The image loads: the route answers the agency's bytes.
      const image = await t
        .http()
        .get(path)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect([image.status, image.headers['content-type']]).toEqual([200, 'image/png']);
      expect(Buffer.compare(image.body as Buffer, logo.png)).toBe(0);
    });
  });
});
