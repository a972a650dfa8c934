import fs from 'node:fs';
import http, { type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { reviewLinkOf } from '../../src/messaging/links';
import { Invite, OutboxEvent, PrivateFeedback } from '../../src/models';
import { serveApp, type ServedApp } from '../support/app';
import { launchChromium } from '../support/browser';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { makeCampaign, makeSentInvite } from '../inbound/support';

/**
 * The customer's side of a review request in headless Chromium: the review link of the message, the stars, and
 * either the private feedback form (low rating) or the public review site (high rating, a local server here).
 */
const PAYLOAD_KEYS = [
  'webhook_event', 'id', 'organization_id', 'location_id', 'rating', 'author', 'email', 'phone', 'message', 'replied',
  'reply_message', 'reply_published_on', 'source', 'source_name', 'updated_at', 'created_at', 'meta',
];

describe('review link in a browser', () => {
  jest.setTimeout(60_000);
  afterAll(async () => {
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useDatabase();
  const savedPublicUrl = process.env.PUBLIC_URL;
  let served: ServedApp;
  let reviewSite: Server;
  let reviewSiteUrl: string;
  /** Where the review site's short link leads. */
  let reviewFormUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveApp();
    process.env.PUBLIC_URL = served.origin;
    // Stands in for the public review site. The campaign's URL is its short link on another origin, as Google's
    // `https://g.page/r/<id>/review` redirects to `search.google.com`: a form's redirects are all checked against
    // form-action, so the page must admit more than the review URL's own origin.
    reviewSite = await new Promise<Server>((resolve) => {
      const s = http
        .createServer((req, res) => {
          const { port } = s.address() as AddressInfo;
          if (req.url?.startsWith('/short')) return void res.writeHead(302, { Location: `http://localhost:${port}/review?place=harbour` }).end();
          res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Write a review</title><h1>Public review site</h1>');
        })
        .listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = reviewSite.address() as AddressInfo;
    reviewSiteUrl = `http://127.0.0.1:${port}/short/harbour`;
    reviewFormUrl = `http://localhost:${port}/review?place=harbour`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (reviewSite ? reviewSite.close(() => resolve()) : resolve()));
    await served?.close();
    if (savedPublicUrl === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = savedPublicUrl;
  });

  async function invited() {
    const w = await makeWorld();
    await w.tenant.update({ brandName: 'Harbour Marketing' });
    const campaign = await makeCampaign(w.org, w.home, { reviewUrl: reviewSiteUrl, feedbackThreshold: 3 });
    const { contact, invite } = await makeSentInvite(campaign, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.test' });
    return { w, campaign, contact, invite, link: reviewLinkOf(invite.uuid) };
  }

  async function inPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    try {
      return await fn(page);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nat ${page.url()}:\n${(await page.content()).slice(0, 3000)}`);
    } finally {
      await page.close();
    }
  }

  it('low rating: the link, two stars, the prefilled form, send; the feedback row and private-feedback-created', async () => {
    const { w, campaign, invite, link } = await invited();
    await inPage(async (page) => {
      const landing = await page.goto(link);
      expect(landing?.status()).toBe(200);
      expect(await page.textContent('header')).toContain('Harbour Marketing');
      expect(await page.textContent('h1')).toContain(w.org.name);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('a[href*="/rate"]').count()).toBe(0);
      // Looking at the page counts nothing; choosing a star (the form's POST) is the click.
      expect((await Invite.findByPk(invite.id))!.clickedAt).toBeNull();
      await page.getByRole('button', { name: '2 stars' }).click();

      await page.waitForURL(/\/feedback\?rating=2$/);
      expect(await page.getByLabel('Name').inputValue()).toBe('Grace Hopper');
      expect(await page.getByLabel('Email').inputValue()).toBe('grace@navy.test');
      expect(await page.getByLabel('2 stars').isChecked()).toBe(true);
      await page.getByLabel('Your message').fill('We waited forty minutes past our appointment.');
      await page.getByRole('button', { name: 'Send feedback' }).click();

      await page.getByRole('heading', { name: 'Thank you' }).waitFor();
      expect(page.url()).toBe(`${link}/thanks`);
    });

    expect((await Invite.findByPk(invite.id))!.clickedAt).not.toBeNull();
    const feedback = await PrivateFeedback.findOne({ where: { inviteId: invite.id } });
    expect(feedback).toMatchObject({ rating: 2, author: 'Grace Hopper', email: 'grace@navy.test', message: 'We waited forty minutes past our appointment.', source: 'link' });
    const event = await OutboxEvent.findOne({ where: { aggregateType: 'private_feedback', aggregateId: String(feedback!.id) } });
    expect(event!.event).toBe('private-feedback-created');
    expect(Object.keys(event!.payload)).toEqual(PAYLOAD_KEYS);
    expect(event!.payload).toMatchObject({
      id: feedback!.id,
      organization_id: w.org.id,
      location_id: w.home.id,
      rating: 2,
      author: 'Grace Hopper',
      email: 'grace@navy.test',
      phone: '',
      replied: false,
      source: 'link',
      source_name: campaign.name,
      meta: { name: 'Grace Hopper', email: 'grace@navy.test', phone: '', message: 'We waited forty minutes past our appointment.', rating: '2', source: 'link', source_id: campaign.uuid, source_name: campaign.name },
    });
  });

  it("high rating: five stars lead to the campaign's public review site; nothing is stored", async () => {
    const { invite, link } = await invited();
    await inPage(async (page) => {
      await page.goto(link);
      expect((await Invite.findByPk(invite.id))!.clickedAt).toBeNull();
      const artifacts = path.resolve(__dirname, '..', '..', 'artifacts');
      fs.mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, 'review-rating-page.png'), fullPage: true });
      // The form's POST answered by a 303 to another origin, which redirects to a third: form-action admits both.
      await page.getByRole('button', { name: '5 stars' }).click();
      await page.waitForURL(reviewFormUrl);
      expect(await page.textContent('h1')).toBe('Public review site');
    });
    expect((await Invite.findByPk(invite.id))!.clickedAt).not.toBeNull();
    expect(await PrivateFeedback.count({ where: { inviteId: invite.id } })).toBe(0);
  });

  it('an unknown invite is a 404 page', async () => {
    await inPage(async (page) => {
      const res = await page.goto(`${process.env.PUBLIC_URL}/r/00000000-0000-4000-8000-000000000000`);
      expect(res?.status()).toBe(404);
      expect(await page.textContent('h1')).toBe('Link not found');
    });
  });
});
