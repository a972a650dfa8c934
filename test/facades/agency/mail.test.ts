import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { mailLogger, setMailLogger } from '../../../src/providers/smtp/platform-mailer';
import { ConnectLink, Customer, Organization, TenantDomain } from '../../../src/models';
import { setLinkDomain } from '../../../src/services/link-domain.service';
import { useApp } from '../../support/app';
import { agencyTokenFor, makeTenant } from '../../support/factories';
import { addressesOf, startSmtpServer, useSmtpServer, withSmtpGone } from '../../support/providers/smtp';

/** Log lines the mailer writes, parsed. */
function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

describe('agency API: e-mails on customer creation (loopback SMTP server)', () => {
  const t = useApp();
  const smtp = useSmtpServer();
  const logs = captureLogs();
  let previousLogger: ReturnType<typeof mailLogger>;
  beforeAll(() => {
    previousLogger = mailLogger();
    setMailLogger(logs.logger);
  });
  afterAll(() => setMailLogger(previousLogger));

  async function world(brandName = 'Sparkle Reviews') {
    const { tenant, owner, plan } = await makeTenant();
    await tenant.update({ brandName });
    return { tenant, plan, token: await agencyTokenFor(owner) };
  }
  const body = (planId: number, extra: Record<string, unknown> = {}) => ({
    name: 'Dana Dentist',
    company: 'Bright Smiles Dental',
    email: `dana-${Math.random().toString(36).slice(2, 10)}@brightsmiles.test`,
    password: 'Sup3r-secret-pass',
    custom_plan_id: String(planId),
    ...extra,
  });

  it('send_invite e-mails the login e-mail and where to start under the tenant brand, never the password', async () => {
    const w = await world();
    const sent = body(w.plan.id, { send_invite: true });
    const res = await t.as(w.token).post('/api/agency/v1/customers').set('Host', 'reviews.sparkle.test').send(sent);
    expect(res.status).toBe(201);
    const mails = (await smtp().waitFor(1)).filter((m) => addressesOf(m).includes(sent.email));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe('Your Sparkle Reviews account is ready');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Sparkle Reviews', address: 'no-reply@reviewgrid.localhost' });
    expect(mail.headers.get('x-mail-kind')).toBe('customer-invite');
    expect(mail.text).toContain('Get started: http://reviews.sparkle.test/docs');
    expect(mail.text).toContain(`Your login e-mail: ${sent.email}`);
    expect(mail.text).toContain('Bright Smiles Dental');
    expect(mail.text).not.toContain(sent.password);
    expect(mail.text).not.toMatch(/forgot password|\/login/i);
    expect(JSON.stringify(mail)).not.toContain(sent.password);
  });

  it("the invitation's link, asked on the agency's white-label domain, answers 200 with a page in the agency's brand", async () => {
    const w = await world();
    const domain = (await TenantDomain.findOne({ where: { tenantId: w.tenant.id } }))!.domain;
    const sent = body(w.plan.id, { send_invite: true });
    expect((await t.as(w.token).post('/api/agency/v1/customers').set('Host', domain).send(sent)).status).toBe(201);
    await smtp().waitFor(1);
    const [mail] = smtp().to(sent.email);
    const links = (mail.text ?? '').match(/https?:\/\/\S+/g) ?? [];
    expect(links).toEqual([`http://${domain}/docs`]);
    for (const link of links) {
      const url = new URL(link);
      const page = await t.http().get(url.pathname).set('Host', url.host).set('Accept', 'text/html');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('Sparkle Reviews');
    }
  });

  it('sends nothing when no flag asks for it', async () => {
    const w = await world();
    const sent = body(w.plan.id, { send_invite: false });
    expect((await t.as(w.token).post('/api/agency/v1/customers').send(sent)).status).toBe(201);
    // Sends happen before the answer, so none can still be on its way.
    expect(smtp().to(sent.email)).toEqual([]);
    expect(await ConnectLink.count({ where: { tenantId: w.tenant.id } })).toBe(0);
  });

  it('creates a 7-day connect link per requested provider on the Default Location and e-mails each connect URL', async () => {
    const w = await world();
    const sent = body(w.plan.id, { send_google_connect_link: true, send_facebook_connect_link: true });
    const res = await t.as(w.token).post('/api/agency/v1/customers').send(sent);
    expect(res.status).toBe(201);
    const org = (await Organization.findByPk(res.body.data.organizations[0].id))!;
    const links = await ConnectLink.findAll({ where: { tenantId: w.tenant.id } });
    expect(links.map((l) => [l.provider, l.locationId, l.customerId]).sort()).toEqual([
      ['facebook', org.defaultLocationId, res.body.data.id],
      ['google', org.defaultLocationId, res.body.data.id],
    ]);
    for (const link of links) {
      expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(7 * 86_400_000);
      expect(link.usedAt).toBeNull();
      expect(link.revokedAt).toBeNull();
    }
    await smtp().waitFor(2);
    const mails = smtp().to(sent.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Connect your Facebook page to Sparkle Reviews',
      'Connect your Google Business Profile to Sparkle Reviews',
    ]);
    for (const link of links) {
      const mail = mails.find((m) => m.headers.get('x-mail-kind') === `connect-link-${link.provider}`)!;
      expect(mail.text).toMatch(new RegExp(`https?://[^\\s]+/connect/${link.token}`));
    }
  });

  it("e-mails the connect URL on the agency's link domain when it has one", async () => {
    const w = await world();
    const domain = (await TenantDomain.findOne({ where: { tenantId: w.tenant.id } }))!.domain;
    await setLinkDomain(w.tenant.id, domain);
    const sent = body(w.plan.id, { send_google_connect_link: true });
    const res = await t.as(w.token).post('/api/agency/v1/customers').send(sent);
    expect(res.status).toBe(201);
    const link = (await ConnectLink.findOne({ where: { tenantId: w.tenant.id } }))!;
    await smtp().waitFor(1);
    const [mail] = smtp().to(sent.email);
    expect(mail.text).toMatch(new RegExp(`https?://${domain.replace(/\./g, '\\.')}(:\\d+)?/connect/${link.token}`));
  });

  it('treats the two provider flags independently', async () => {
    const w = await world();
    const sent = body(w.plan.id, { send_facebook_connect_link: true, send_google_connect_link: false });
    expect((await t.as(w.token).post('/api/agency/v1/customers').send(sent)).status).toBe(201);
    const links = await ConnectLink.findAll({ where: { tenantId: w.tenant.id } });
    expect(links.map((l) => l.provider)).toEqual(['facebook']);
    await smtp().waitFor(1);
    expect(smtp().to(sent.email).map((m) => m.headers.get('x-mail-kind'))).toEqual(['connect-link-facebook']);
  });

  it('still creates the customer and its links when the SMTP server refuses the mail, and logs the failure', async () => {
    const refusing = await startSmtpServer({ reject: true });
    const previous = process.env.SMTP_URL;
    process.env.SMTP_URL = refusing.url;
    try {
      const w = await world();
      const sent = body(w.plan.id, { send_invite: true, send_google_connect_link: true });
      const from = logs.lines.length;
      const res = await t.as(w.token).post('/api/agency/v1/customers').send(sent);
      expect(res.status).toBe(201);
      expect(await Customer.findByPk(res.body.data.id)).not.toBeNull();
      expect(await ConnectLink.count({ where: { customerId: res.body.data.id, provider: 'google' } })).toBe(1);
      expect(refusing.messages).toEqual([]);
      // The log names the recipient's domain, never the address (personal data).
      const failures = logs.lines.slice(from).filter((l) => l.msg === 'mail could not be sent' && l.toDomain === 'brightsmiles.test');
      expect(failures.map((f) => f.kind).sort()).toEqual(['connect-link-google', 'customer-invite']);
      expect(failures[0]).toMatchObject({ level: 50, responseCode: 550 });
      expect(JSON.stringify(failures)).not.toContain(sent.password);
      expect(JSON.stringify(failures)).not.toContain(sent.email.split('@')[0]);
    } finally {
      process.env.SMTP_URL = previous;
      await refusing.close();
    }
  });

  it('still creates the customer when no SMTP server listens at all', async () => {
    await withSmtpGone(async () => {
      const w = await world();
      const sent = body(w.plan.id, { send_invite: true });
      const from = logs.lines.length;
      const res = await t.as(w.token).post('/api/agency/v1/customers').send(sent);
      expect(res.status).toBe(201);
      expect(logs.lines.slice(from).some((l) => l.msg === 'mail could not be sent' && l.toDomain === 'brightsmiles.test' && l.code === 'ESOCKET')).toBe(true);
    });
  });

  it('writes each message as an .eml file under DATA_DIR/mail when SMTP_URL is unset, and logs its path', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rg-mail-'));
    const previous = { smtp: process.env.SMTP_URL, data: process.env.DATA_DIR };
    delete process.env.SMTP_URL;
    process.env.DATA_DIR = dir;
    try {
      const w = await world('File Brand');
      const sent = body(w.plan.id, { send_invite: true });
      expect((await t.as(w.token).post('/api/agency/v1/customers').send(sent)).status).toBe(201);
      const written = logs.lines.find((l) => l.msg === 'mail written to file (SMTP_URL is not set)' && l.to === sent.email.toLowerCase());
      expect(written).toBeDefined();
      const file = String(written!.file);
      expect(path.dirname(file)).toBe(path.join(dir, 'mail'));
      expect(file).toMatch(/\.eml$/);
      const eml = await readFile(file, 'utf8');
      expect(eml).toMatch(/^Subject: Your File Brand account is ready$/m);
      expect(eml).toMatch(new RegExp(`^To: ${sent.email}$`, 'm'));
      expect(eml).toMatch(/^From: "?File Brand"? <no-reply@reviewgrid\.localhost>$/m);
    } finally {
      process.env.SMTP_URL = previous.smtp;
      if (previous.data === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = previous.data;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
