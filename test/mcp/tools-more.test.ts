import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ASPECTS } from '../../src/analytics/lexicon';
import { fixedClock } from '../../src/domain/clock';
import { McpAuditEntry, ReplyDraft, Review } from '../../src/models';
import { principalFor } from '../../src/services/auth.service';
import * as autoRespond from '../../src/services/auto-respond.service';
import { logActivity } from '../../src/services/invites.service';
import { submitFeedback } from '../../src/services/private-feedback.service';
import { setAutoRespondFeature } from '../auto-respond/support';
import { putKeywords, putMetrics } from '../gbp/support';
import { makeCampaign, makeSentInvite } from '../inbound/support';
import { ALL, tokenFor } from '../support/factories';
import { waitUntil } from '../support/wait';
import { call, connect, mcpWorld, useMcpApp, type RawAnswer } from './support';

/**
 * The second slice of MCP tools (issue 8): analytics, campaigns and contacts, private feedback, auto-respond rules,
 * business-profile performance, reply drafts and tags. Through the official SDK client (which validates each
 * structuredContent against the published outputSchema) and raw HTTP for bounds, scope, permissions and PII.
 */
jest.setTimeout(60_000);

const NEW_TOOLS = [
  'get_metrics',
  'list_campaigns',
  'get_ai_insights',
  'get_report',
  'list_private_feedback',
  'list_contacts',
  'get_contact_activity',
  'list_auto_respond_rules',
  'list_gbp_metrics',
  'list_gbp_search_terms',
  'draft_review_response',
  'tag_reviews',
];
/** Everything an organisation owner's assistant may do except reading personal data and writing. */
const AI_NO_PII = ['mcp:access', 'reviews:read', 'reviews:update', 'organizations:read', 'request:read'];
const AI_PII = [...AI_NO_PII, 'reviews:pii', 'mcp:writes'];

const PAT = { name: 'Pat Doe', email: 'pat.doe@example.test' };
const GRACE = { firstName: 'Grace', lastName: 'Hopper', email: 'grace.hopper@example.test', phone: '+14155552671' };

async function seed() {
  const w = await mcpWorld({ scan: false });
  const campaign = await makeCampaign(w.org, w.home, { name: 'After the visit' });
  const { contact, invite } = await makeSentInvite(campaign, GRACE);
  await logActivity({ tenantId: campaign.tenantId, customerId: campaign.customerId, contactId: contact.id, campaignId: campaign.id, type: 'sent', channel: 'email', detail: 'Step 1 (email) sent.', occurredAt: new Date('2026-01-06T09:00:00Z') });
  // Grace chose a star on the review page (what stamps clicked_at and logs the `clicked` activity), then sent feedback.
  await invite.update({ clickedAt: new Date('2026-01-06T10:00:00Z') });
  await logActivity({ tenantId: campaign.tenantId, customerId: campaign.customerId, contactId: contact.id, campaignId: campaign.id, type: 'clicked', detail: 'Opened the review link.', occurredAt: new Date('2026-01-06T10:00:00Z') });
  const { feedback } = await submitFeedback(invite.uuid, { ...PAT, phone: '', message: 'The wait was too long.', rating: '2' }, { clock: fixedClock(new Date('2026-01-07T12:00:00Z')) });
  await setAutoRespondFeature(w.orgOwner.customerId!, true);
  const ownerP = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: ALL });
  const rule = await autoRespond.createRule(ownerP, { organizationId: w.org.id, name: 'Thank five stars', ratings: [5], template: 'Thank you, {first_name}!' });
  const aiRule = await autoRespond.createRule(ownerP, { organizationId: w.org.id, locationId: w.branch.id, name: 'AI for the rest', ratings: [1, 2, 3, 4], useAi: true, paused: true, priority: 5 });
  await putMetrics(w.home, [
    ['2026-01-10', 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH', 40],
    ['2026-01-10', 'BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 10],
    ['2026-01-11', 'CALL_CLICKS', 3],
    ['2026-01-11', 'WEBSITE_CLICKS', 7],
    ['2025-12-31', 'BUSINESS_DIRECTION_REQUESTS', 2],
  ]);
  await putKeywords(w.home, [
    { keyword: 'dentist near me', year: 2025, month: 11, impressions: 120 },
    { keyword: 'teeth whitening', year: 2025, month: 11, impressions: 45 },
    { keyword: 'emergency dentist', year: 2025, month: 12, threshold: 15 },
  ]);
  return {
    ...w,
    campaign,
    contact,
    feedback,
    rule,
    aiRule,
    tokens: {
      ...w.tokens,
      pii: await tokenFor(w.orgOwner, AI_PII, 'ai'),
      noPii: await tokenFor(w.orgOwner, AI_NO_PII, 'ai'),
    },
  };
}

describe('MCP tools: analytics, campaigns, contacts, feedback, auto-respond, business profile, drafts, tags', () => {
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof seed>>;
  let other: Awaited<ReturnType<typeof seed>>;
  const clients: Client[] = [];
  const open = async (token: string) => {
    const c = await connect(app, token);
    clients.push(c);
    await c.listTools(); // the SDK validates structuredContent against the outputSchemas it listed
    return c;
  };
  beforeAll(async () => {
    world = await seed();
    other = await seed();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  const structured = (res: RawAnswer) => {
    expect(res.status).toBe(200);
    expect(res.json.error).toBeUndefined();
    return res.json.result.structuredContent;
  };
  const expectCode = (res: RawAnswer, code: number, reason?: string) => {
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', error: { code, message: expect.any(String) } });
    if (reason) expect(res.json.error.data.reason).toBe(reason);
  };

  describe('tools/list', () => {
    it('publishes the twelve tools in the spec order (get_report added after get_ai_insights) with schemas, titles and annotations', async () => {
      const client = await open(world.ai.owner);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual([
        'list_reviews',
        'get_review',
        'list_organizations',
        'list_locations',
        ...NEW_TOOLS.slice(0, 10),
        'list_scans',
        'get_scan',
        'get_scan_data_points',
        'list_scan_snapshots',
        'get_scan_insights',
        'get_scan_report',
        'create_scan',
        'run_scan',
        'schedule_scan',
        'draft_review_response',
        'tag_reviews',
      ]);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      for (const name of NEW_TOOLS) {
        const t = byName[name];
        expect(t.title).toEqual(expect.any(String));
        expect(t.description!.length).toBeGreaterThan(100);
        expect(t.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(t.outputSchema).toMatchObject({ type: 'object' });
        expect(t.annotations).toMatchObject({ readOnlyHint: !name.match(/^(draft|tag)_/), openWorldHint: false });
      }
      expect(byName.draft_review_response.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
      expect(byName.tag_reviews.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
      expect(byName.get_ai_insights.inputSchema.required).toEqual(['organization_id']);
      expect(byName.get_contact_activity.inputSchema.properties!.limit).toMatchObject({ minimum: 1, maximum: 100, default: 25 });
      expect(byName.list_gbp_search_terms.inputSchema.properties!.per_page).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
      for (const name of ['list_campaigns', 'list_private_feedback', 'list_contacts', 'list_auto_respond_rules']) {
        expect(byName[name].inputSchema.properties!.per_page).toMatchObject({ minimum: 1, maximum: 50, default: 25 });
      }
      expect(Object.keys(byName.list_private_feedback.inputSchema.properties!).sort()).toEqual(
        ['date_from', 'date_to', 'include_pii', 'location_id', 'organization_id', 'page', 'per_page', 'ratings', 'responded'].sort(),
      );
    });

    it('shows a token only the tools its permissions allow: no campaigns, contacts, rules or writes without them', async () => {
      const client = await open(world.ai.orgOwner); // reviews:read + organizations:read
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(['list_reviews', 'get_review', 'list_organizations', 'list_locations', 'get_metrics', 'get_ai_insights', 'get_report', 'list_private_feedback', 'list_gbp_metrics', 'list_gbp_search_terms']);
      const noWrites = await open(world.tokens.noPii);
      expect((await noWrites.listTools()).tools.map((t) => t.name)).toEqual(expect.not.arrayContaining(['draft_review_response', 'tag_reviews']));
    });
  });

  describe('through the official SDK client', () => {
    it('get_metrics: totals, star and sentiment distributions, a breakdown and the comparison period asked for', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({
        name: 'get_metrics',
        arguments: { organization_id: world.org.id, date_from: '2026-01-01', date_to: '2026-01-31', group_by: 'rating', compare_to_date_from: '2025-12-01', compare_to_date_to: '2025-12-31' },
      });
      expect(res.isError).toBeFalsy();
      const m = res.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(m.period).toEqual({ from: '2026-01-01', to: '2026-01-31' });
      expect(m.filters).toEqual({ organization_id: world.org.id, location_id: null, source_name: null });
      expect(m.totals).toMatchObject({ total_reviews: 3, avg_rating: 3.67, responded: 0, response_rate: 0, star_distribution: { 5: 1, 4: 1, 3: 0, 2: 1, 1: 0 } });
      const s = m.totals.sentiment_distribution;
      expect(Object.keys(s).sort()).toEqual(['negative', 'neutral', 'positive']);
      expect(s.positive + s.neutral + s.negative).toBe(3);
      expect(m.breakdown).toEqual([
        { bucket: '5', total_reviews: 1, avg_rating: 5, responded: 0, response_rate: 0 },
        { bucket: '4', total_reviews: 1, avg_rating: 4, responded: 0, response_rate: 0 },
        { bucket: '3', total_reviews: 0, avg_rating: null, responded: 0, response_rate: null },
        { bucket: '2', total_reviews: 1, avg_rating: 2, responded: 0, response_rate: 0 },
        { bucket: '1', total_reviews: 0, avg_rating: null, responded: 0, response_rate: null },
      ]);
      expect(m.comparison).toMatchObject({ period: { from: '2025-12-01', to: '2025-12-31' }, totals: { total_reviews: 0, avg_rating: null } });

      // Without compare bounds there is no comparison; a location and a source narrow the totals.
      const plain = await client.callTool({ name: 'get_metrics', arguments: { organization_id: world.org.id, location_id: world.home.id, source_name: 'Testimonials', date_from: '2026-01-01', date_to: '2026-01-31' } });
      const p = plain.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(Object.keys(p).sort()).toEqual(['breakdown', 'filters', 'period', 'totals']);
      expect(p.totals).toMatchObject({ total_reviews: 2, avg_rating: 3.5 });
      expect(p.breakdown).toEqual([]);
    });

    it('get_ai_insights: totals of both periods, themes, changes and a narrative', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({ name: 'get_ai_insights', arguments: { organization_id: world.org.id, period_start: '2026-01-01', period_end: '2026-01-31' } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({
        organization_id: world.org.id,
        location_id: null,
        period: { from: '2026-01-01', to: '2026-01-31' },
        previous_period: { from: '2025-12-01', to: '2025-12-31' },
        totals: { total_reviews: 3 },
        previous_totals: { total_reviews: 0 },
        analysed_reviews: 3,
        narrative: expect.any(String),
        narrative_source: 'deterministic',
      });
      expect((res.structuredContent as { changes: unknown[] }).changes.length).toBeGreaterThan(0);
    });

    it('get_report: the monthly report of an organisation (totals against the month before, twelve months, what changed, REST paths); a foreign organisation is not found, a bad month invalid', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({ name: 'get_report', arguments: { organization_id: world.org.id, month: '2026-01' } });
      expect(res.isError).toBeFalsy();
      const r = res.structuredContent as Record<string, unknown> & { months: Array<{ month: string; total_reviews: number }>; changes: string[] };
      expect(r).toMatchObject({
        organization_id: world.org.id,
        language: 'en',
        month: '2026-01',
        previous_month: '2025-12',
        title: `${world.org.name}: review report, January 2026`,
        period: { from: '2026-01-01', to: '2026-01-31' },
        totals: { total_reviews: 3, avg_rating: 3.67 },
        previous_totals: { total_reviews: 0, avg_rating: null },
        html_url: `/api/v1/organizations/${world.org.id}/reports/2026-01`,
        pdf_url: `/api/v1/organizations/${world.org.id}/reports/2026-01.pdf`,
      });
      expect(r.months).toHaveLength(12);
      expect(r.months[11]).toMatchObject({ month: '2026-01', total_reviews: 3 });
      expect(r.months[0].month).toBe('2025-02');
      // Each month's aspects, keyed like the totals' aspect_distribution, with mentions and net sentiment: January's
      // are the month's totals; a month without reviews has no mention and a null net sentiment (the SDK client has
      // checked the whole result against the listed outputSchema, which declares them).
      const months = r.months as unknown as Array<{ aspect_distribution: Record<string, { mentions: number; positive: number; neutral: number; negative: number; net_sentiment: number | null }> }>;
      const totals = (r.totals as { aspect_distribution: Record<string, { positive: number; neutral: number; negative: number }> }).aspect_distribution;
      expect(Object.keys(months[11].aspect_distribution)).toEqual([...ASPECTS]);
      for (const aspect of ASPECTS) {
        const { mentions, net_sentiment, ...tones } = months[11].aspect_distribution[aspect];
        expect({ aspect, tones, mentions }).toEqual({ aspect, tones: totals[aspect], mentions: tones.positive + tones.neutral + tones.negative });
        expect(net_sentiment).toBe(mentions ? Math.round(((tones.positive - tones.negative) / mentions) * 1000) / 10 : null);
        expect(months[0].aspect_distribution[aspect]).toEqual({ mentions: 0, positive: 0, neutral: 0, negative: 0, net_sentiment: null });
      }
      expect(Object.values(months[11].aspect_distribution).some((a) => a.mentions > 0)).toBe(true);
      const listed = (await client.listTools()).tools.find((t) => t.name === 'get_report')!.outputSchema as unknown as { properties: { months: { items: { properties: Record<string, unknown> } } } };
      expect(listed.properties.months.items.properties.aspect_distribution).toMatchObject({ type: 'object', required: [...ASPECTS] });
      expect(r.changes).toContain('Reviews rose from 0 to 3.');
      const foreign = await client.callTool({ name: 'get_report', arguments: { organization_id: other.org.id, month: '2026-01' } }).catch((e: { code?: number }) => e);
      expect(foreign).toMatchObject({ code: -32002 });
      const bad = await client.callTool({ name: 'get_report', arguments: { organization_id: world.org.id, month: '2026-13' } }).catch((e: { code?: number }) => e);
      expect(bad).toMatchObject({ code: -32602 });
    });

    it('list_campaigns: integer id and uuid, steps and metrics; filters by campaign_id and creation dates', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({ name: 'list_campaigns', arguments: { organization_id: world.org.id } });
      expect(res.structuredContent).toEqual({
        data: [
          expect.objectContaining({
            id: world.campaign.id,
            uuid: world.campaign.uuid,
            name: 'After the visit',
            organization_id: world.org.id,
            location_id: world.home.id,
            contact_list_id: world.campaign.contactListId,
            paused: false,
            steps: [{ channel: 'email', delay_hours: 0 }],
            metrics: { invites_sent: 1, invites_failed: 0, invites_scheduled: 0, clicks: 1, feedback_count: 1 },
          }),
        ],
        pagination: { page: 1, per_page: 25, total: 1, last_page: 1, has_more: false },
      });
      const one = await client.callTool({ name: 'list_campaigns', arguments: { campaign_id: world.campaign.id } });
      expect((one.structuredContent as { data: Array<{ uuid: string }> }).data.map((c) => c.uuid)).toEqual([world.campaign.uuid]);
      const none = await client.callTool({ name: 'list_campaigns', arguments: { campaign_id: other.campaign.id } });
      expect((none.structuredContent as { pagination: { total: number } }).pagination.total).toBe(0);
      const before = await client.callTool({ name: 'list_campaigns', arguments: { date_to: '2020-01-01' } });
      expect((before.structuredContent as { pagination: { total: number } }).pagination.total).toBe(0);
    });

    it('list_contacts and get_contact_activity: engagement counters and the history, newest first', async () => {
      const client = await open(world.tokens.pii);
      const list = await client.callTool({ name: 'list_contacts', arguments: { organization_id: world.org.id, subscribed: true, include_pii: true } });
      expect(list.structuredContent).toMatchObject({
        data: [
          {
            id: world.contact.id,
            uuid: world.contact.uuid,
            contact_list_id: world.campaign.contactListId,
            first_name: 'Grace',
            last_name: 'Hopper',
            email: GRACE.email,
            phone: GRACE.phone,
            subscribed: true,
            unsubscribed_at: null,
            engagement: { invites_sent: 1, clicks: 1, feedback_count: 1, last_invited_at: expect.any(String) },
          },
        ],
        pagination: { total: 1 },
      });
      const unsubscribed = await client.callTool({ name: 'list_contacts', arguments: { subscribed: false } });
      expect((unsubscribed.structuredContent as { data: unknown[] }).data).toEqual([]);

      const activity = await client.callTool({ name: 'get_contact_activity', arguments: { contact_id: world.contact.id, include_pii: true } });
      const a = activity.structuredContent as { contact: Record<string, unknown>; data: Array<{ type: string; campaign_uuid: string | null }> };
      expect(a.contact).toMatchObject({ id: world.contact.id, first_name: 'Grace', email: GRACE.email });
      // The feedback (2026-01-07) is newest, then the click and the send of 2026-01-06.
      expect(a.data.map((e) => e.type)).toEqual(['feedback', 'clicked', 'sent']);
      expect(a.data[2]).toMatchObject({ channel: 'email', campaign_uuid: world.campaign.uuid, campaign_name: 'After the visit', occurred_at: '2026-01-06T09:00:00.000Z' });
      const limited = await client.callTool({ name: 'get_contact_activity', arguments: { contact_id: world.contact.id, limit: 1 } });
      expect((limited.structuredContent as { data: Array<{ type: string }> }).data.map((e) => e.type)).toEqual(['feedback']);
    });

    it('list_private_feedback: the form as submitted, with rating, campaign and reply state', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({ name: 'list_private_feedback', arguments: { location_id: world.home.id, ratings: [1, 2], responded: false, include_pii: true } });
      expect(res.structuredContent).toEqual({
        data: [
          {
            id: world.feedback.id,
            organization_id: world.org.id,
            location_id: world.home.id,
            campaign_uuid: world.campaign.uuid,
            contact_uuid: world.contact.uuid,
            rating: 2,
            name: PAT.name,
            email: PAT.email,
            phone: null,
            message: 'The wait was too long.',
            reply: null,
            reply_date: null,
            replied: false,
            source: 'link',
            source_name: 'After the visit',
            created_at: '2026-01-07T12:00:00.000Z',
          },
        ],
        pagination: { page: 1, per_page: 25, total: 1, last_page: 1, has_more: false },
      });
      const high = await client.callTool({ name: 'list_private_feedback', arguments: { ratings: [4, 5] } });
      expect((high.structuredContent as { data: unknown[] }).data).toEqual([]);
    });

    it('list_auto_respond_rules: evaluation order, filters; an account without the plan feature gets upgrade_required', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({ name: 'list_auto_respond_rules', arguments: { organization_id: world.org.id } });
      expect((res.structuredContent as { data: Array<Record<string, unknown>> }).data).toEqual([
        expect.objectContaining({ id: world.rule.id, location_id: null, ratings: [5], use_ai: false, template: 'Thank you, {first_name}!', paused: false, priority: 0, keyword_match: 'any' }),
        expect.objectContaining({ id: world.aiRule.id, location_id: world.branch.id, ratings: [1, 2, 3, 4], use_ai: true, template: null, paused: true, priority: 5 }),
      ]);
      const ai = await client.callTool({ name: 'list_auto_respond_rules', arguments: { use_ai: true } });
      expect((ai.structuredContent as { data: Array<{ id: number }> }).data.map((r) => r.id)).toEqual([world.aiRule.id]);
      const home = await client.callTool({ name: 'list_auto_respond_rules', arguments: { location_id: world.home.id } });
      expect((home.structuredContent as { data: Array<{ id: number }> }).data.map((r) => r.id)).toEqual([world.rule.id]);

      await setAutoRespondFeature(other.orgOwner.customerId!, false);
      const refused = await (await open(other.tokens.pii)).callTool({ name: 'list_auto_respond_rules', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text)).toMatchObject({ error: { reason: 'upgrade_required' } });
    });

    it('list_gbp_metrics and list_gbp_search_terms: totals with the previous period, daily rows, keyword rows with masked counts', async () => {
      const client = await open(world.tokens.pii);
      const res = await client.callTool({ name: 'list_gbp_metrics', arguments: { location_id: world.home.id, from: '2026-01-10', to: '2026-01-11' } });
      expect(res.structuredContent).toEqual({
        location_id: world.home.id,
        organization_id: world.org.id,
        period: { from: '2026-01-10', to: '2026-01-11' },
        totals: { impressions_total: 50, impressions_search: 40, impressions_maps: 10, impressions_desktop: 10, impressions_mobile: 40, call_clicks: 3, website_clicks: 7, direction_requests: 0 },
        previous_period: {
          from: '2026-01-08',
          to: '2026-01-09',
          totals: { impressions_total: 0, impressions_search: 0, impressions_maps: 0, impressions_desktop: 0, impressions_mobile: 0, call_clicks: 0, website_clicks: 0, direction_requests: 0 },
        },
      });
      const daily = await client.callTool({ name: 'list_gbp_metrics', arguments: { location_id: world.home.id, from: '2026-01-10', to: '2026-01-11', include_daily: true } });
      const rows = (daily.structuredContent as { daily: Array<{ date: string; impressions_total: number; call_clicks: number }> }).daily;
      expect(rows.map((r) => [r.date, r.impressions_total, r.call_clicks])).toEqual([
        ['2026-01-10', 50, 0],
        ['2026-01-11', 0, 3],
      ]);

      const terms = await client.callTool({ name: 'list_gbp_search_terms', arguments: { location_id: world.home.id, year: 2025 } });
      expect(terms.structuredContent).toEqual({
        data: [
          expect.objectContaining({ keyword: 'dentist near me', month: 11, impressions: 120, below_threshold: false, month_label: expect.any(String) }),
          expect.objectContaining({ keyword: 'teeth whitening', month: 11, impressions: 45, below_threshold: false }),
          expect.objectContaining({ keyword: 'emergency dentist', month: 12, impressions: 15, below_threshold: true, location_id: world.home.id, organization_id: world.org.id }),
        ],
        pagination: { page: 1, per_page: 50, total: 3, last_page: 1, has_more: false },
        meta: { location_id: world.home.id, organization_id: world.org.id, year: 2025, month: null },
      });
      const december = await client.callTool({ name: 'list_gbp_search_terms', arguments: { location_id: world.home.id, year: 2025, month: 12, per_page: 1 } });
      expect(december.structuredContent).toMatchObject({ data: [{ keyword: 'emergency dentist' }], pagination: { total: 1, per_page: 1 }, meta: { month: 12 } });
    });

    it('draft_review_response holds the reply for approval and publishes nothing; a replied review is refused', async () => {
      const client = await open(world.tokens.pii);
      const review = world.reviews[1];
      const res = await client.callTool({ name: 'draft_review_response', arguments: { review_id: review.id, message: '  Sorry about the wait, Bob.  ' } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({ review_id: review.id, organization_id: world.org.id, location_id: world.home.id, message: 'Sorry about the wait, Bob.', status: 'pending', created_via: 'ai' });
      const draft = await ReplyDraft.findByPk((res.structuredContent as { id: number }).id);
      expect(draft).toMatchObject({ status: 'pending', reviewId: review.id });
      expect((await Review.findByPk(review.id))!.reply).toBeNull();

      const replied = world.reviews[2];
      await Review.update({ reply: 'Already answered.', replyDate: new Date() }, { where: { id: replied.id } });
      const refused = await client.callTool({ name: 'draft_review_response', arguments: { review_id: replied.id, message: 'Hello' } });
      expect(refused.isError).toBe(true);
      expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text)).toMatchObject({ error: { reason: 'already_replied' } });
    });

    it('tag_reviews attaches and detaches normalised tags and answers each review with its tags', async () => {
      const client = await open(world.tokens.pii);
      const ids = [world.reviews[0].id, world.reviews[1].id];
      const res = await client.callTool({ name: 'tag_reviews', arguments: { review_ids: ids, attach_tags: ['VIP', '  Parking  Lot '] } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual({
        data: [
          { review_id: ids[0], tags: ['parking lot', 'vip'] },
          { review_id: ids[1], tags: ['parking lot', 'vip'] },
        ],
      });
      const detached = await client.callTool({ name: 'tag_reviews', arguments: { review_ids: [ids[0]], detach_tags: ['vip'] } });
      expect(detached.structuredContent).toEqual({ data: [{ review_id: ids[0], tags: ['parking lot'] }] });
    });
  });

  describe('bounds (-32602) over raw HTTP', () => {
    const required = (): Record<string, object> => ({
      get_ai_insights: { organization_id: world.org.id },
      get_report: { organization_id: world.org.id, month: '2026-01' },
      get_contact_activity: { contact_id: world.contact.id },
      list_gbp_metrics: { location_id: world.home.id },
      list_gbp_search_terms: { location_id: world.home.id },
      draft_review_response: { review_id: world.reviews[0].id, message: 'Thanks' },
      tag_reviews: { review_ids: [world.reviews[0].id], attach_tags: ['x'] },
    });

    it.each(NEW_TOOLS)('%s refuses an unknown argument', async (name) => {
      const res = await app.post(call(name, { ...(required()[name] ?? {}), bogus: 1 }), { token: world.tokens.pii });
      expectCode(res, -32602, 'invalid_arguments');
      expect(res.json.error.data.errors).toEqual({ bogus: ['Unknown argument "bogus".'] });
    });

    it.each(['list_campaigns', 'list_private_feedback', 'list_contacts', 'list_auto_respond_rules'])('%s refuses per_page 51 and page 0', async (name) => {
      const res = await app.post(call(name, { per_page: 51, page: 0 }), { token: world.tokens.pii });
      expectCode(res, -32602, 'invalid_arguments');
      expect(Object.keys(res.json.error.data.errors).sort()).toEqual(['page', 'per_page']);
      expect(structured(await app.post(call(name, { per_page: 50 }), { token: world.tokens.pii })).pagination.per_page).toBe(50);
    });

    it('list_gbp_search_terms takes per_page up to 200 and month 1-12; get_contact_activity limit 1-100', async () => {
      const token = world.tokens.pii;
      expectCode(await app.post(call('list_gbp_search_terms', { location_id: world.home.id, per_page: 201 }), { token }), -32602);
      expectCode(await app.post(call('list_gbp_search_terms', { location_id: world.home.id, month: 13 }), { token }), -32602);
      expect(structured(await app.post(call('list_gbp_search_terms', { location_id: world.home.id, per_page: 200 }), { token })).pagination.per_page).toBe(200);
      expectCode(await app.post(call('get_contact_activity', { contact_id: world.contact.id, limit: 101 }), { token }), -32602);
      expectCode(await app.post(call('get_contact_activity', { contact_id: world.contact.id, limit: 0 }), { token }), -32602);
      expectCode(await app.post(call('get_contact_activity', {}), { token }), -32602);
      expect(structured(await app.post(call('get_contact_activity', { contact_id: world.contact.id, limit: 100 }), { token })).data).toHaveLength(3);
    });

    it('get_metrics checks dates, group_by and that both compare bounds come together; the 540-day range is the service rule', async () => {
      const token = world.tokens.pii;
      const bad = await app.post(call('get_metrics', { date_from: '2026-02-30x', group_by: 'year' }), { token });
      expectCode(bad, -32602);
      expect(Object.keys(bad.json.error.data.errors).sort()).toEqual(['date_from', 'group_by']);
      const lone = await app.post(call('get_metrics', { compare_to_date_from: '2025-01-01' }), { token });
      expectCode(lone, -32602);
      expect(lone.json.error.message).toContain('compare_to_date_to');
      const long = await app.post(call('get_metrics', { date_from: '2024-01-01', date_to: '2026-01-01' }), { token });
      expectCode(long, -32602, 'invalid_date_range');
    });

    it('draft_review_response takes a message of at most 8000 characters', async () => {
      const token = world.tokens.pii;
      const res = await app.post(call('draft_review_response', { review_id: world.reviews[0].id, message: 'a'.repeat(8001) }), { token });
      expectCode(res, -32602, 'invalid_arguments');
      expect(res.json.error.data.errors).toHaveProperty('message');
      expectCode(await app.post(call('draft_review_response', { review_id: world.reviews[0].id, message: '' }), { token }), -32602);
      expectCode(await app.post(call('draft_review_response', { review_id: world.reviews[0].id }), { token }), -32602);
      const max = await app.post(call('draft_review_response', { review_id: world.reviews[0].id, message: 'a'.repeat(8000) }), { token });
      expect(structured(max).message).toHaveLength(8000);
    });

    it('tag_reviews takes at most 50 review ids and tags of at most 64 characters, and refuses the reserved sentinel', async () => {
      const token = world.tokens.pii;
      const ids = Array.from({ length: 51 }, (_, i) => i + 1);
      const many = await app.post(call('tag_reviews', { review_ids: ids, attach_tags: ['x'] }), { token });
      expectCode(many, -32602, 'invalid_arguments');
      expect(many.json.error.data.errors).toHaveProperty('review_ids');
      const long = await app.post(call('tag_reviews', { review_ids: [world.reviews[0].id], attach_tags: ['t'.repeat(65)] }), { token });
      expectCode(long, -32602, 'invalid_arguments');
      expect(long.json.error.data.errors).toHaveProperty('attach_tags');
      expectCode(await app.post(call('tag_reviews', { review_ids: [], attach_tags: ['x'] }), { token }), -32602);
      const ok = await app.post(call('tag_reviews', { review_ids: [world.reviews[0].id], attach_tags: ['t'.repeat(64)] }), { token });
      expect(structured(ok).data[0].tags).toContain('t'.repeat(64));
      const sentinel = await app.post(call('tag_reviews', { review_ids: [world.reviews[0].id], attach_tags: ['__FLAG__'] }), { token });
      expectCode(sentinel, -32602, 'reserved_tag');
      const nothing = await app.post(call('tag_reviews', { review_ids: [world.reviews[0].id] }), { token });
      expectCode(nothing, -32602);
    });
  });

  describe('scope, not found and permissions over raw HTTP', () => {
    it.each([
      ['get_metrics', () => ({ organization_id: other.org.id })],
      ['get_metrics', () => ({ location_id: other.home.id })],
      ['list_campaigns', () => ({ organization_id: other.org.id })],
      ['get_ai_insights', () => ({ organization_id: other.org.id })],
      ['get_ai_insights', () => ({ organization_id: world.org.id, location_id: other.home.id })],
      ['list_private_feedback', () => ({ location_id: other.home.id })],
      ['list_contacts', () => ({ organization_id: other.org.id })],
      ['list_auto_respond_rules', () => ({ organization_id: other.org.id })],
      ['list_gbp_metrics', () => ({ location_id: other.home.id })],
      ['list_gbp_search_terms', () => ({ location_id: other.home.id })],
      ['get_metrics', () => ({ organization_id: 2_000_000_000 })],
    ])('%s refuses an organisation or location outside the scope with -32001 access_denied', async (name, args) => {
      expectCode(await app.post(call(name, args()), { token: world.tokens.pii }), -32001, 'access_denied');
    });

    it('refuses a team member the location it is not assigned to', async () => {
      for (const name of ['get_metrics', 'list_private_feedback']) {
        expectCode(await app.post(call(name, { location_id: world.home.id }), { token: world.ai.member }), -32001, 'access_denied');
      }
      expectCode(await app.post(call('list_gbp_metrics', { location_id: world.home.id }), { token: world.ai.member }), -32001, 'access_denied');
      expect(structured(await app.post(call('get_metrics', { location_id: world.branch.id, date_from: '2026-01-01', date_to: '2026-01-31' }), { token: world.ai.member })).totals.total_reviews).toBe(1);
    });

    it('answers records of another account with -32002 not found', async () => {
      const token = world.tokens.pii;
      expectCode(await app.post(call('get_contact_activity', { contact_id: other.contact.id }), { token }), -32002, 'not_found');
      expectCode(await app.post(call('draft_review_response', { review_id: other.reviews[0].id, message: 'Hi' }), { token }), -32002, 'not_found');
      const tagged = await app.post(call('tag_reviews', { review_ids: [world.reviews[0].id, other.reviews[0].id], attach_tags: ['cross'] }), { token });
      expectCode(tagged, -32002, 'not_found');
    });

    it('refuses the write tools without mcp:writes, and tools whose permission the token lacks, with -32001 missing_permission', async () => {
      const noWrites = world.tokens.noPii;
      const draft = await app.post(call('draft_review_response', { review_id: world.reviews[0].id, message: 'Hi' }), { token: noWrites });
      expectCode(draft, -32001, 'missing_permission');
      expect(draft.json.error.message).toContain('mcp:writes');
      expectCode(await app.post(call('tag_reviews', { review_ids: [world.reviews[0].id], attach_tags: ['x'] }), { token: noWrites }), -32001, 'missing_permission');
      expect(await ReplyDraft.count({ where: { reviewId: world.reviews[0].id, message: 'Hi' } })).toBe(0);

      const readOnly = world.ai.orgOwner; // reviews:read + organizations:read
      for (const name of ['list_campaigns', 'list_contacts', 'list_auto_respond_rules']) {
        expectCode(await app.post(call(name, {}), { token: readOnly }), -32001, 'missing_permission');
      }
      expectCode(await app.post(call('get_contact_activity', { contact_id: world.contact.id }), { token: readOnly }), -32001, 'missing_permission');
    });
  });

  describe('personal data (include_pii) and the audit log', () => {
    const cases = () =>
      [
        ['list_private_feedback', {}, (sc: any) => sc.data[0], ['name', 'email'], PAT.email], // eslint-disable-line @typescript-eslint/no-explicit-any
        ['list_contacts', {}, (sc: any) => sc.data[0], ['first_name', 'last_name', 'email', 'phone'], GRACE.email], // eslint-disable-line @typescript-eslint/no-explicit-any
        ['get_contact_activity', { contact_id: world.contact.id }, (sc: any) => sc.contact, ['first_name', 'last_name', 'email', 'phone'], GRACE.email], // eslint-disable-line @typescript-eslint/no-explicit-any
      ] as const;

    it('redacts name, email and phone unless include_pii=true on a token with reviews:pii', async () => {
      // A provider's refusal quoted in the history names the recipient (the mail server's and the SMS provider's words).
      await logActivity({ tenantId: world.campaign.tenantId, customerId: world.campaign.customerId, contactId: world.contact.id, campaignId: world.campaign.id, type: 'failed', channel: 'email', detail: `The invite could not be sent: The mail server refused the message (550): 550 5.1.1 <${GRACE.email.toUpperCase()}>: Recipient address rejected for GRACE HOPPER`, occurredAt: new Date('2026-01-05T09:00:00Z') });
      await logActivity({ tenantId: world.campaign.tenantId, customerId: world.campaign.customerId, contactId: world.contact.id, campaignId: world.campaign.id, type: 'failed', channel: 'sms', detail: "The invite could not be sent: The SMS provider refused the message (400): The 'To' number +1 (415) 555-2671 is not a valid phone number.", occurredAt: new Date('2026-01-04T09:00:00Z') });
      for (const [name, args, row, fields, email] of cases()) {
        for (const token of [world.tokens.pii, world.tokens.noPii]) {
          for (const pii of [undefined, false]) {
            const res = await app.post(call(name, { ...args, ...(pii === undefined ? {} : { include_pii: pii }) }), { token });
            const r = row(structured(res));
            for (const f of fields) expect([name, f, r[f]]).toEqual([name, f, '[redacted]']);
            expect(res.json.result.content[0].text).not.toContain(email);
            expect(res.json.result.content[0].text).not.toContain('@');
            if (name === 'get_contact_activity') {
              // The history's own words stay; the person in them does not.
              const details = JSON.stringify(structured(res).data.map((e: { detail: string }) => e.detail));
              for (const gone of ['555-2671', 'GRACE', 'HOPPER']) expect(details).not.toContain(gone);
              expect(details).toContain('550 5.1.1 <[redacted]>: Recipient address rejected for [redacted] [redacted]');
              expect(details).toContain("The 'To' number [redacted] is not a valid phone number.");
              expect(details).toContain('Opened the review link.');
            }
          }
        }
        const unlocked = await app.post(call(name, { ...args, include_pii: true }), { token: world.tokens.pii });
        expect(row(structured(unlocked)).email).toBe(email);
        expect(unlocked.json.result.content[0].text).toContain(email);

        const refused = await app.post(call(name, { ...args, include_pii: true }), { token: world.tokens.noPii });
        expectCode(refused, -32001, 'missing_permission');
        expect(refused.json.error.message).toContain('reviews.pii');
      }
    });

    it("list_private_feedback redacts the person's own name, e-mail and phone inside the message too, and nothing else of it", async () => {
      // A world of its own: the other tests count this world's feedback.
      const w = await seed();
      const { invite } = await makeSentInvite(w.campaign, { firstName: 'Sam', lastName: 'Lee' });
      const message = 'Pat Doe here, call me on +1 (415) 555-2671 or write to PAT.DOE@example.test, Patience ran out; ask Doe why, or pat.';
      const { feedback } = await submitFeedback(invite.uuid, { name: 'Pat Doe', email: PAT.email, phone: '+14155552671', message, rating: '1' });
      const rowOf = (res: RawAnswer) => (structured(res).data as Array<{ id: number; message: string }>).find((r) => r.id === feedback.id)!;
      for (const token of [w.tokens.pii, w.tokens.noPii]) {
        const res = await app.post(call('list_private_feedback', { ratings: [1] }), { token });
        expect(rowOf(res)).toMatchObject({ name: '[redacted]', email: '[redacted]', phone: '[redacted]' });
        // Its name and each word of it (as a word, any case), its number however spaced, any e-mail address; "Patience" stays.
        expect(rowOf(res).message).toBe('[redacted] here, call me on [redacted] or write to [redacted], Patience ran out; ask [redacted] why, or [redacted].');
        for (const gone of ['555-2671', 'example.test', 'Doe']) expect(res.json.result.content[0].text).not.toContain(gone);
      }
      const unlocked = await app.post(call('list_private_feedback', { ratings: [1], include_pii: true }), { token: w.tokens.pii });
      expect(rowOf(unlocked)).toMatchObject({ name: 'Pat Doe', email: PAT.email, phone: '+14155552671', message });
    });

    it('records PII-unlocked calls in the audit log, and redacted ones as not unlocked', async () => {
      const token = world.tokens.pii;
      const run = async (id: string, name: string, args: object) => app.post(call(name, args), { token, headers: { 'x-correlation-id': id } });
      await run('pii-feedback-on', 'list_private_feedback', { include_pii: true });
      await run('pii-contacts-on', 'list_contacts', { include_pii: true, organization_id: world.org.id });
      await run('pii-activity-on', 'get_contact_activity', { contact_id: world.contact.id, include_pii: true });
      await run('pii-feedback-off', 'list_private_feedback', {});
      await app.post(call('list_contacts', { include_pii: true }), { token: world.tokens.noPii, headers: { 'x-correlation-id': 'pii-refused' } });
      const ids = ['pii-feedback-on', 'pii-contacts-on', 'pii-activity-on', 'pii-feedback-off', 'pii-refused'];
      await waitUntil(async () => (await McpAuditEntry.count({ where: { tenantId: world.tenant.id, correlationId: ids } })) === ids.length, 5_000, 20);
      const rows = await McpAuditEntry.findAll({ where: { tenantId: world.tenant.id, correlationId: ids }, order: [['id', 'ASC']] });
      expect(rows.map((r) => [r.correlationId, r.tool, r.piiUnlocked, r.resultCode, r.errorReason])).toEqual([
        ['pii-feedback-on', 'list_private_feedback', true, 0, null],
        ['pii-contacts-on', 'list_contacts', true, 0, null],
        ['pii-activity-on', 'get_contact_activity', true, 0, null],
        ['pii-feedback-off', 'list_private_feedback', false, 0, null],
        ['pii-refused', 'list_contacts', false, -32001, 'missing_permission'],
      ]);
      expect(rows[2].arguments).toEqual({ contact_id: world.contact.id, include_pii: true });
      expect(rows[0].userId).toBe(world.orgOwner.id);
    });

    it('keeps a draft message out of the audit log', async () => {
      await app.post(call('draft_review_response', { review_id: world.reviews[0].id, message: 'Dear Ada Home, thanks!' }), {
        token: world.tokens.pii,
        headers: { 'x-correlation-id': 'draft-audit' },
      });
      await waitUntil(async () => (await McpAuditEntry.count({ where: { tenantId: world.tenant.id, correlationId: 'draft-audit' } })) === 1, 5_000, 20);
      const row = await McpAuditEntry.findOne({ where: { tenantId: world.tenant.id, correlationId: 'draft-audit' } });
      expect(row!.arguments).toEqual({ review_id: world.reviews[0].id, message: '[redacted]' });
    });
  });

  describe('GraphQL contact(id) (added for get_contact_activity)', () => {
    const gql = async (token: string, id: string) =>
      (await fetch(`${app.origin()}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query ($id: ID!) { contact(id: $id) { id internalId firstName email engagement { invitesSent } } }', variables: { id } }),
      }).then((r) => r.json())) as { data: { contact: Record<string, unknown> } | null; errors?: Array<{ extensions: { code: string } }> };

    it('reads a visible contact by integer id or UUID, needs request:read, and is NOT_FOUND outside the scope', async () => {
      const token = await tokenFor(world.orgOwner);
      const byInt = await gql(token, String(world.contact.id));
      expect(byInt.data!.contact).toEqual({ id: world.contact.uuid, internalId: world.contact.id, firstName: 'Grace', email: GRACE.email, engagement: { invitesSent: 1 } });
      expect((await gql(token, world.contact.uuid)).data!.contact.internalId).toBe(world.contact.id);
      expect((await gql(token, String(other.contact.id))).errors![0].extensions.code).toBe('NOT_FOUND');
      expect((await gql(await tokenFor(world.orgOwner, ['reviews:read']), String(world.contact.id))).errors![0].extensions.code).toBe('FORBIDDEN');
    });
  });
});

