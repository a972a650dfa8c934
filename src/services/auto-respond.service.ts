import pino, { type Logger } from 'pino';
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { startAutoRespondWorkflow } from '../../workflows/auto-respond/client';
import { Forbidden, NotFound, PlanLimit, Validation, type FieldErrors } from '../domain/errors';
import { charCount, MAX_NAME_CHARS } from '../domain/limits';
import { canSeeOrganization, inAccount, isRestricted, isTeamMember, isTenantOwner } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import {
  AutoRespondRule,
  AutoRespondRun,
  Customer,
  Integration,
  Location,
  Organization,
  Plan,
  Review,
} from '../models';
import { KEYWORD_MATCHES, type KeywordMatch } from '../models/auto-respond-rule.model';
import { clockOf, inTransaction, offset, type Page, type PageArgs, type ServiceOptions, tenantScoped } from './common';
import { MAX_REPLY_CHARS } from './replies.service';
import { LOG_REDACTION } from '../observability/log-redaction';

/**
 * Auto-respond rules (spec: MCP list_auto_respond_rules; issue 7): rules per organisation or location that answer
 * new reviews by themselves, with a template or an AI-written reply. A plan feature: the account's plan must list
 * `auto_respond` in its features, else 402 `upgrade_required`. Applied durably: when a new review is stored, the
 * first matching rule is chosen in the review's own transaction (a run row), and after the commit the Temporal
 * workflow `auto-respond:<review id>` composes and publishes the reply through the reply path.
 */
export const AUTO_RESPOND_FEATURE = 'auto_respond';
export const MAX_TEMPLATE_CHARS = MAX_REPLY_CHARS;
export const MAX_RULE_SOURCES = 20;
export const MAX_RULE_KEYWORDS = 50;
export const MAX_KEYWORD_CHARS = 100;
export const MAX_PRIORITY = 1_000_000;

/** Placeholders a template may use; anything else in braces that looks like one is refused when the rule is saved. */
export const TEMPLATE_PLACEHOLDERS = ['author', 'first_name', 'rating', 'business_name', 'location_name', 'source'] as const;
type Placeholder = (typeof TEMPLATE_PLACEHOLDERS)[number];
export type TemplateValues = Record<Placeholder, string>;
const PLACEHOLDER = /\{([a-z_]+)\}/gi;

let moduleLogger: Logger | null = null;
export const log = (): Logger => (moduleLogger ??= pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'reviewgrid', area: 'auto-respond' }, redact: LOG_REDACTION }));

// ---------------------------------------------------------------------------------------------------------------
// The plan feature

/** Whether the account's plan includes auto-respond (`features` contains `auto_respond`). */
export async function hasAutoRespondFeature(customerId: number, transaction?: Transaction): Promise<boolean> {
  const customer = await Customer.findByPk(customerId, { include: [Plan], attributes: ['id', 'planId'], transaction });
  return Boolean(customer?.plan?.features?.includes(AUTO_RESPOND_FEATURE));
}

async function assertFeature(customerId: number, transaction?: Transaction): Promise<void> {
  if (!(await hasAutoRespondFeature(customerId, transaction))) {
    throw new PlanLimit('Your plan does not include auto-respond rules. Upgrade your plan to use them.');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Rules: validation, matching, templates

export interface RuleFields {
  name?: string | null;
  locationId?: number | null;
  ratings?: number[] | null;
  sourceNames?: string[] | null;
  keywords?: string[] | null;
  keywordMatch?: string | null;
  useAi?: boolean | null;
  template?: string | null;
  paused?: boolean | null;
  priority?: number | null;
}

export interface CreateRuleInput extends RuleFields {
  organizationId: number;
  name: string;
  ratings: number[];
}

function cleanList(values: string[] | null | undefined, field: string, max: number, maxChars: number, errors: FieldErrors): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const list = values ?? [];
  if (list.length > max) {
    errors[field] = [`The ${field.replace(/_/g, ' ')} may not have more than ${max} items.`];
    return [];
  }
  list.forEach((raw, i) => {
    const value = (raw ?? '').trim().replace(/\s+/g, ' ');
    if (!value) errors[`${field}.${i}`] = ['This value may not be empty.'];
    else if (charCount(value) > maxChars) errors[`${field}.${i}`] = [`This value may not be greater than ${maxChars} characters.`];
    else if (!seen.has(value.toLowerCase())) {
      seen.add(value.toLowerCase());
      out.push(value);
    }
  });
  return out;
}

/** The placeholders of a template that we do not know (`{Author}` is refused too: placeholders are lower case). */
export function unknownPlaceholders(template: string): string[] {
  const unknown = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(m[1])) unknown.add(`{${m[1]}}`);
  return [...unknown];
}

/**
 * A placeholder without a value (`{first_name}` of an anonymous reviewer) taken out with the comma or space joining
 * it to the text: "Thank you, {first_name}!" reads "Thank you!", "Hi {first_name}, thanks" "Hi, thanks",
 * "Thanks, {first_name}, for" "Thanks for", and a line starting "{first_name}, thank you" "Thank you".
 */
function dropPlaceholder(template: string, key: Placeholder): string {
  const p = `\\{${key}\\}`;
  return template
    .replace(new RegExp(`[ \\t]*,[ \\t]*${p}[ \\t]*,`, 'g'), '')
    .replace(new RegExp(`(\\S)[ \\t]*,?[ \\t]*${p}`, 'g'), '$1')
    .replace(new RegExp(`^([ \\t]*)${p}[ \\t]*[,:;]?[ \\t]*(\\S?)`, 'gm'), (_m, indent: string, next: string) => indent + next.toUpperCase())
    .replace(new RegExp(p, 'g'), '');
}

/**
 * Fills in the placeholders; text in braces that is not a placeholder stays as written. A placeholder whose value
 * is empty (no first name known) is dropped with its joining comma or space rather than leaving a gap.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  const text = TEMPLATE_PLACEHOLDERS.filter((k) => !values[k]).reduce(dropPlaceholder, template);
  return text.replace(PLACEHOLDER, (whole, key: string) => ((TEMPLATE_PLACEHOLDERS as readonly string[]).includes(key) ? values[key as Placeholder] : whole)).trim();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keyword or phrase as a whole word of the text, in any letter case. */
export function containsKeyword(text: string, keyword: string): boolean {
  const words = keyword.normalize('NFC').trim().split(/\s+/).map(escapeRegExp).join('\\s+');
  if (!words) return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${words}($|[^\\p{L}\\p{N}])`, 'iu').test(text.normalize('NFC'));
}

export interface MatchableReview {
  rating: number;
  title: string | null;
  message: string;
  locationId: number;
}

/**
 * Whether a rule answers a review: the rating is one of the rule's, the source name (the integration's name, in
 * any letter case) one of its sources when it names any, and the keyword condition holds over the title and the
 * message (`any`: at least one keyword occurs as a whole word or phrase; `none`: none occurs; no keywords: always).
 */
export function ruleMatches(
  rule: Pick<AutoRespondRule, 'locationId' | 'ratings' | 'sourceNames' | 'keywords' | 'keywordMatch'>,
  review: MatchableReview,
  sourceName: string,
): boolean {
  if (rule.locationId !== null && rule.locationId !== review.locationId) return false;
  if (!rule.ratings.includes(review.rating)) return false;
  if (rule.sourceNames.length && !rule.sourceNames.some((s) => s.toLowerCase() === sourceName.toLowerCase())) return false;
  if (rule.keywords.length === 0) return true;
  const text = `${review.title ?? ''}\n${review.message ?? ''}`;
  const found = rule.keywords.some((k) => containsKeyword(text, k));
  return rule.keywordMatch === 'none' ? !found : found;
}

/**
 * The rule's settable fields, checked; `current` is the rule being changed (for the template/AI pairing). On create
 * `name` and `ratings` are required inputs, so a patch that passed validation has both.
 */
function cleanRuleFields(input: CreateRuleInput, current: null): Partial<AutoRespondRule> & Pick<AutoRespondRule, 'name' | 'ratings'>;
function cleanRuleFields(input: RuleFields, current: AutoRespondRule | null): Partial<AutoRespondRule>;
function cleanRuleFields(input: RuleFields, current: AutoRespondRule | null): Partial<AutoRespondRule> {
  const errors: FieldErrors = {};
  const patch: Partial<AutoRespondRule> = {};
  if (input.name !== undefined) {
    const name = (input.name ?? '').trim();
    if (!name) errors.name = ['The name field is required.'];
    else if (charCount(name) > MAX_NAME_CHARS) errors.name = [`The name may not be greater than ${MAX_NAME_CHARS} characters.`];
    else patch.name = name;
  }
  if (input.ratings !== undefined) {
    const ratings = input.ratings ?? [];
    if (ratings.length === 0) errors.ratings = ['The ratings field is required: give at least one rating from 1 to 5.'];
    else if (ratings.some((r) => !Number.isInteger(r) || r < 1 || r > 5)) errors.ratings = ['Each rating must be an integer from 1 to 5.'];
    else patch.ratings = [...new Set(ratings)].sort((a, b) => a - b);
  }
  if (input.sourceNames !== undefined) patch.sourceNames = cleanList(input.sourceNames, 'source_names', MAX_RULE_SOURCES, MAX_NAME_CHARS, errors);
  if (input.keywords !== undefined) patch.keywords = cleanList(input.keywords, 'keywords', MAX_RULE_KEYWORDS, MAX_KEYWORD_CHARS, errors);
  if (input.keywordMatch != null) {
    if (!(KEYWORD_MATCHES as readonly string[]).includes(input.keywordMatch)) errors.keyword_match = ['The keyword match must be any or none.'];
    else patch.keywordMatch = input.keywordMatch as KeywordMatch;
  }
  if (input.useAi != null) patch.useAi = input.useAi;
  if (input.paused != null) patch.paused = input.paused;
  if (input.priority != null) {
    if (!Number.isInteger(input.priority) || input.priority < 0 || input.priority > MAX_PRIORITY) {
      errors.priority = [`The priority must be between 0 and ${MAX_PRIORITY}.`];
    } else patch.priority = input.priority;
  }
  if (input.template !== undefined) {
    const template = input.template?.trim() || null;
    if (template && charCount(template) > MAX_TEMPLATE_CHARS) errors.template = [`The template may not be greater than ${MAX_TEMPLATE_CHARS} characters.`];
    else if (template && unknownPlaceholders(template).length) {
      errors.template = [`Unknown placeholder ${unknownPlaceholders(template).join(', ')}; use ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}.`];
    } else patch.template = template;
  }
  const useAi = patch.useAi ?? current?.useAi ?? false;
  const template = patch.template !== undefined ? patch.template : (current?.template ?? null);
  if (!useAi && !template && !errors.template) errors.template = ['The template field is required unless the rule uses AI replies.'];
  if (Object.keys(errors).length) throw new Validation(errors);
  return patch;
}

/** Rules are account settings: owners (tenant and organisation owners) manage them; team members may only read. */
function assertManager(p: Principal): void {
  if (isTeamMember(p)) throw new Forbidden('Only account owners can manage auto-respond rules.');
}

async function locationOf(p: Principal, org: Organization, locationId: number, transaction: Transaction): Promise<Location> {
  const location = await Location.findByPk(locationId, { transaction });
  if (!location || !inAccount(p, location)) throw new NotFound('Location');
  if (location.organizationId !== org.id) throw new Validation({ location_id: ['The location does not belong to the organization.'] });
  return location;
}

export async function createRule(p: Principal, input: CreateRuleInput, opts: ServiceOptions = {}): Promise<AutoRespondRule> {
  return inTransaction(opts, async (transaction) => {
    const org = await Organization.findByPk(input.organizationId, { transaction });
    if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
    assertManager(p);
    if (input.locationId != null) await locationOf(p, org, input.locationId, transaction);
    await assertFeature(org.customerId, transaction);
    const patch = cleanRuleFields({ ...input, keywordMatch: input.keywordMatch ?? 'any' }, null);
    return AutoRespondRule.create(
      {
        tenantId: org.tenantId,
        customerId: org.customerId,
        organizationId: org.id,
        locationId: input.locationId ?? null,
        sourceNames: [],
        keywords: [],
        useAi: false,
        paused: false,
        priority: 0,
        template: null,
        ...patch,
      },
      { transaction },
    );
  });
}

/** A rule the caller sees: their account's (any of the tenant for a tenant owner); a team member's organisations and locations. */
async function visibleRule(p: Principal, id: number, transaction?: Transaction, lock = false): Promise<AutoRespondRule> {
  const rule = await AutoRespondRule.findByPk(id, { transaction, ...(lock && transaction ? { lock: transaction.LOCK.UPDATE } : {}) });
  if (!rule || !canSeeRule(p, rule)) throw new NotFound('Auto-respond rule');
  return rule;
}

function canSeeRule(p: Principal, rule: AutoRespondRule): boolean {
  if (!inAccount(p, rule)) return false;
  if (!isRestricted(p)) return true;
  return p.assignedOrganizationIds.has(rule.organizationId) && (rule.locationId === null || p.assignedLocationIds.has(rule.locationId));
}

export async function getRule(p: Principal, id: number): Promise<AutoRespondRule> {
  const rule = await visibleRule(p, id);
  await assertFeature(rule.customerId);
  return rule;
}

/** Changes the fields that are set; `locationId: null` makes the rule organisation-wide. */
export async function updateRule(p: Principal, id: number, input: RuleFields, opts: ServiceOptions = {}): Promise<AutoRespondRule> {
  return inTransaction(opts, async (transaction) => {
    const rule = await visibleRule(p, id, transaction, true);
    assertManager(p);
    if (input.locationId != null) {
      const org = await Organization.findByPk(rule.organizationId, { transaction });
      if (!org) throw new NotFound('Organization');
      await locationOf(p, org, input.locationId, transaction);
    }
    await assertFeature(rule.customerId, transaction);
    const patch = cleanRuleFields(input, rule);
    if (input.locationId !== undefined) patch.locationId = input.locationId;
    rule.set(patch);
    if (rule.changed()) await rule.save({ transaction });
    return rule;
  });
}

/** Deleting is allowed without the plan feature (cleaning up after a downgrade). Runs keep their record. */
export async function deleteRule(p: Principal, id: number, opts: ServiceOptions = {}): Promise<void> {
  await inTransaction(opts, async (transaction) => {
    const rule = await visibleRule(p, id, transaction, true);
    assertManager(p);
    await rule.destroy({ transaction });
  });
}

export interface RuleFilter extends PageArgs {
  organizationId?: number | null;
  locationId?: number | null;
  useAi?: boolean | null;
  paused?: boolean | null;
}

/**
 * The rules the caller sees, in evaluation order (organisation, then priority, then creation). `locationId`
 * gives the rules that apply at that location: its own and its organisation's organisation-wide ones. A filter
 * outside the caller's scope gives an empty list. 402 when the account read has no auto-respond: the filtered
 * organisation's (or location's) account, else the caller's own; a tenant owner listing the whole tenant is not
 * refused.
 */
export async function listRules(p: Principal, f: RuleFilter): Promise<Page<AutoRespondRule>> {
  const empty: Page<AutoRespondRule> = { items: [], total: 0, page: f.page, perPage: f.perPage };
  const and: WhereOptions[] = [isTenantOwner(p) ? tenantScoped(p) : { ...tenantScoped(p), customerId: p.customerId ?? -1 }];
  if (isRestricted(p)) {
    and.push({ organizationId: { [Op.in]: [...p.assignedOrganizationIds, -1] } });
    and.push({ [Op.or]: [{ locationId: null }, { locationId: { [Op.in]: [...p.assignedLocationIds, -1] } }] });
  }
  let account: number | null = isTenantOwner(p) ? null : p.customerId;
  if (f.organizationId != null) {
    const org = await Organization.findByPk(f.organizationId, { attributes: ['id', 'tenantId', 'customerId'] });
    if (!org || !canSeeOrganization(p, org)) return empty;
    account = org.customerId;
    and.push({ organizationId: org.id });
  }
  if (f.locationId != null) {
    const location = await Location.findByPk(f.locationId, { attributes: ['id', 'tenantId', 'customerId', 'organizationId'] });
    if (!location || !inAccount(p, location) || (isRestricted(p) && !p.assignedLocationIds.has(location.id))) return empty;
    account = location.customerId;
    and.push({ organizationId: location.organizationId, [Op.or]: [{ locationId: null }, { locationId: location.id }] });
  }
  if (account !== null) await assertFeature(account);
  if (f.useAi != null) and.push({ useAi: f.useAi });
  if (f.paused != null) and.push({ paused: f.paused });
  const { rows, count } = await AutoRespondRule.findAndCountAll({
    where: { [Op.and]: and },
    order: [['organizationId', 'ASC'], ['priority', 'ASC'], ['id', 'ASC']],
    ...offset(f),
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

// ---------------------------------------------------------------------------------------------------------------
// Applying rules to new reviews

/**
 * Called in the transaction that stores a new review (written reviews, and each review a sync finds). Chooses the
 * first matching unpaused rule now, so a review that arrives while a rule is paused is never answered by it, and
 * records the choice (`auto_respond_runs`, pending) in the same transaction; after the commit the workflow is
 * started. A review that already has a reply, an account without the plan feature, and the backlog a synced
 * integration's first sync imports (reviews from before it was connected) are left alone.
 */
export async function queueAutoRespond(
  review: Review,
  integration: Pick<Integration, 'name' | 'type' | 'lastSyncedAt'>,
  transaction: Transaction,
): Promise<AutoRespondRun | null> {
  if (review.reply) return null;
  if (integration.type === 'synced' && !integration.lastSyncedAt) return null;
  const rules = await AutoRespondRule.findAll({
    where: { organizationId: review.organizationId, paused: false, [Op.or]: [{ locationId: null }, { locationId: review.locationId }] },
    order: [['priority', 'ASC'], ['id', 'ASC']],
    transaction,
  });
  const rule = rules.find((r) => ruleMatches(r, review, integration.name));
  if (!rule || !(await hasAutoRespondFeature(review.customerId, transaction))) return null;
  const run = await AutoRespondRun.create(
    { tenantId: review.tenantId, customerId: review.customerId, reviewId: review.id, ruleId: rule.id, status: 'pending' },
    { transaction },
  );
  transaction.afterCommit(() => {
    startAutoRespondWorkflow(review.id, review).catch((err: unknown) =>
      log().warn({ err, reviewId: review.id }, 'auto-respond workflow not started; it is started again when a worker starts'),
    );
  });
  return run;
}

/**
 * Runs still pending (their workflow never started: Temporal was down at the commit, or the process died right after
 * it) get their workflow; one already running is left alone. A worker's start hands over every pending run; the
 * sweep (schedule `auto-respond-sweep`) those stored at least `olderThanMs` ago, so it never races the start after a
 * commit. Returns how many were handed over.
 */
export async function resumePendingAutoResponses(opts: ServiceOptions & { olderThanMs?: number } = {}): Promise<number> {
  const where: WhereOptions<AutoRespondRun> = { status: 'pending' };
  if (opts.olderThanMs !== undefined) where.createdAt = { [Op.lte]: new Date(clockOf(opts).now().getTime() - opts.olderThanMs) };
  const runs = await AutoRespondRun.findAll({ where, attributes: ['reviewId', 'tenantId', 'customerId'], order: [['id', 'ASC']] });
  for (const run of runs) await startAutoRespondWorkflow(run.reviewId, run);
  return runs.length;
}
