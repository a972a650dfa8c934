import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { unsubscribePages } from '../../facades/pages/unsubscribe';
import { unsubscribeLinkOf, unsubscribeTokenOf } from '../../src/messaging/links';
import { Contact, ContactActivity, Invite } from '../../src/models';
import { useApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { makeWorld } from '../support/factories';
import { makeCampaign, makeContact, makeInvite } from './fixtures';
import { useAgencyLogo } from '../support/agency-logo';
import { logoKey } from '../../src/reports/logo';

/**
 * The unsubscribe link every review request carries: `/u/{token}` shows a confirmation page in the agency's brand,
 * a POST (the page's button, or a mail client's RFC 8058 one-click) unsubscribes the contact, logs an
 * `unsubscribed` activity and cancels its waiting invites; forged tokens get a 404 page.
 */
describe('unsubscribe page /u/{token}', () => {
  const t = useApp();

  async function setup() {
    const w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    const campaign = await makeCampaign(w);
    const other = await makeCampaign(w); // a second campaign, its own list
    const contact = await makeContact(campaign);
    const waiting = await makeInvite(campaign, contact, new Date(Date.now() + 3_600_000));
    const sent = await makeInvite(campaign, contact, new Date(Date.now() - 3_600_000));
    await sent.update({ status: 'sent', sentAt: new Date() });
    const stranger = await makeContact(other);
    const strangersInvite = await makeInvite(other, stranger, new Date(Date.now() + 3_600_000));
    return { w, campaign, contact, waiting, sent, stranger, strangersInvite };
  }

  it('shows a branded confirmation page with an Unsubscribe button, and a GET changes nothing', async () => {
    const { w, contact } = await setup();
    const res = await t.http().get(`/u/${unsubscribeTokenOf(contact.uuid)}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.text).toContain('Harbour Marketing');
    expect(res.text).toContain(`review requests from <strong>${w.org.name}</strong>`);
    expect(res.text).toContain(`<form method="post" action="/u/${unsubscribeTokenOf(contact.uuid)}">`);
    expect(res.text).toContain('<button type="submit">Unsubscribe</button>');
    expect((await Contact.findByPk(contact.id))!.unsubscribedAt).toBeNull();
  });

  it('unsubscribes on the form POST: marks the contact, logs the activity once and cancels only its waiting invites', async () => {
    const { contact, waiting, sent, strangersInvite } = await setup();
    const res = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are unsubscribed');
    expect((await Contact.findByPk(contact.id))!.unsubscribedAt).not.toBeNull();
    expect(await Invite.findByPk(waiting.id)).toMatchObject({ status: 'canceled', reason: 'The contact unsubscribed.' });
    expect((await Invite.findByPk(sent.id))!.status).toBe('sent');
    expect((await Invite.findByPk(strangersInvite.id))!.status).toBe('scheduled');
    const activity = await ContactActivity.findAll({ where: { contactId: contact.id, type: 'unsubscribed' } });
    expect(activity).toHaveLength(1);

    // Again: still 200, nothing more happens; the page now says so on GET too.
    expect((await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({})).status).toBe(200);
    expect(await ContactActivity.count({ where: { contactId: contact.id, type: 'unsubscribed' } })).toBe(1);
    expect((await t.http().get(`/u/${unsubscribeTokenOf(contact.uuid)}`)).text).toContain('You are unsubscribed');
  });

  it('accepts the RFC 8058 one-click POST (List-Unsubscribe=One-Click) that mail clients send', async () => {
    const { contact, waiting } = await setup();
    const res = await t
      .http()
      .post(`/u/${unsubscribeTokenOf(contact.uuid)}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect((await Contact.findByPk(contact.id))!.unsubscribedAt).not.toBeNull();
    expect((await Invite.findByPk(waiting.id))!.status).toBe('canceled');
  });

  describe("the agency's logo", () => {
    const logo = useAgencyLogo();

    it("a one-click POST does not wait for it (never fetched; the page wears the brand's name), the button's POST shows it", async () => {
      const { w, contact, waiting, stranger } = await setup();
      const logoUrl = logo.reachable();
      await w.tenant.update({ logoUrl });
      const oneClick = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).set('Content-Type', 'application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click');
      expect(oneClick.status).toBe(200);
      expect(oneClick.text).toContain('Harbour Marketing');
      expect(oneClick.text).not.toContain('/brand/logo/');
      expect((await Contact.findByPk(contact.id))!.unsubscribedAt).not.toBeNull();
      expect((await Invite.findByPk(waiting.id))!.status).toBe('canceled');
      expect(logo.fetches(logoUrl)).toBe(0);

      // A person's POST (the confirmation page's button) gets the branded page with the logo, fetched for it.
      const button = await t.http().post(`/u/${unsubscribeTokenOf(stranger.uuid)}`).set('Content-Type', 'application/x-www-form-urlencoded').send('');
      expect(button.status).toBe(200);
      expect(button.text).toContain(`/brand/logo/${logoKey(logoUrl)}`);
      expect(logo.fetches(logoUrl)).toBe(1);
    });
  });

  it('answers 404 pages for forged, malformed and unknown tokens, and changes nothing', async () => {
    const { contact } = await setup();
    const real = unsubscribeTokenOf(contact.uuid);
    const forged = `${real.split('.')[0]}.${unsubscribeTokenOf(randomUUID()).split('.')[1]}`;
    for (const token of [forged, 'not-a-token', unsubscribeTokenOf(randomUUID())]) {
      const get = await t.http().get(`/u/${encodeURIComponent(token)}`);
      expect(get.status).toBe(404);
      expect(get.text).toContain('Link not found');
      const post = await t.http().post(`/u/${encodeURIComponent(token)}`).set('Content-Type', 'application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click');
      expect(post.status).toBe(404);
    }
    expect((await Contact.findByPk(contact.id))!.unsubscribedAt).toBeNull();
  });

  it('answers HTML pages with a neutral name for any other path or method, a path it cannot decode and a failure, never JSON', async () => {
    const neutral = (text: string) => {
      expect(text).toContain('<span class="brand">Review request</span>');
      expect(text).not.toContain('Review connection');
    };
    for (const [method, path] of [['get', '/u/'], ['get', '/u/a/b'], ['put', '/u/x'], ['delete', `/u/${unsubscribeTokenOf(randomUUID())}`]] as const) {
      const res = await t.http()[method](path);
      expect([method, path, res.status, res.headers['content-type']]).toEqual([method, path, 404, expect.stringMatching(/text\/html/)]);
      expect(res.text).toContain('<title>Link not found - Review request</title>');
      expect(res.text).toContain('This unsubscribe link is not valid.');
      neutral(res.text);
    }
    // A damaged link (percent-encoding cut short): 400, saying so; the button's POST to it as well.
    for (const res of [await t.http().get('/u/%zz'), await t.http().post('/u/abc%E0%A4').type('form').send({ confirm: '1' })]) {
      expect([res.status, res.headers['content-type']]).toEqual([400, expect.stringMatching(/text\/html/)]);
      expect(res.text).toContain('<title>The link could not be read - Review request</title>');
      expect(res.text).toContain('This link is incomplete or damaged.');
      neutral(res.text);
    }
    // A failure behind the page (here a schema without the operation's fields): the error page, nothing of the error.
    const broken = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { nothing: { type: GraphQLString } } }) });
    const failing = express().use('/u', unsubscribePages({ schema: broken, logger: pino({ level: 'silent' }) }));
    const failed = await request(failing).get(`/u/${unsubscribeTokenOf(randomUUID())}`);
    expect([failed.status, failed.headers['content-type']]).toEqual([500, expect.stringMatching(/text\/html/)]);
    expect(failed.text).toContain('<title>Something went wrong - Review request</title>');
    expect(failed.text).not.toMatch(/unsubscribePage|Cannot query/);
    neutral(failed.text);
  });

  describe('in a browser', () => {
    let server: Server;
    let browser: Browser;
    let base: string;
    const saved = process.env.PUBLIC_URL;

    beforeAll(async () => {
      server = await new Promise<Server>((resolve) => {
        const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.PUBLIC_URL = base;
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (saved === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = saved;
    });

    it('opens the link from a message, presses Unsubscribe and sees the confirmation', async () => {
      const { contact, waiting } = await setup();
      const page = await browser.newPage();
      try {
        await page.goto(unsubscribeLinkOf(contact.uuid));
        expect(await page.locator('header .brand').textContent()).toBe('Harbour Marketing');
        await Promise.all([page.waitForURL(unsubscribeLinkOf(contact.uuid)), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
        await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
      } finally {
        await page.close();
      }
      expect((await Contact.findByPk(contact.id))!.unsubscribedAt).not.toBeNull();
      expect((await Invite.findByPk(waiting.id))!.status).toBe('canceled');
    }, 60_000);
  });
});
