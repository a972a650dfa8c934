// Type-only client imports: workflow code imports this module too (child workflow attributes), so no runtime client.
import type { Client, Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes, type SearchAttributePair } from '@temporalio/common';
// The SDK keeps these two off its root export; the encoder is what its own tests use to register attributes.
import { encodeSearchAttributeIndexedValueType, type SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

/**
 * The custom search attributes every workflow of the platform carries, so an operator filters the Temporal UI
 * and CLI by customer rather than by workflow id prefix. All Keyword (exact match, cheap on SQL visibility,
 * which has ten Keyword columns per namespace).
 *
 * - `RgTenant`: the agency's tenant id (`'3'`): stable, unlike its domains, and what the CLI's `tenant:list` shows.
 * - `RgAccount`: the agency's customer account id (`customer_id` of the Agency API) the object belongs to.
 * - `RgOrganization`: the organisation id, where the object belongs to one (locations, scans, campaigns, reviews).
 * - `RgKind`: what the workflow does (see `WorkflowKind`).
 * - `RgBusinessId`: the business key the workflow id is derived from (delivery id, invite id, scan uuid, ...).
 */
export const RG_TENANT = defineSearchAttributeKey('RgTenant', SearchAttributeType.KEYWORD);
export const RG_ACCOUNT = defineSearchAttributeKey('RgAccount', SearchAttributeType.KEYWORD);
export const RG_ORGANIZATION = defineSearchAttributeKey('RgOrganization', SearchAttributeType.KEYWORD);
export const RG_KIND = defineSearchAttributeKey('RgKind', SearchAttributeType.KEYWORD);
export const RG_BUSINESS_ID = defineSearchAttributeKey('RgBusinessId', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTE_KEYS: readonly SearchAttributeKey<typeof SearchAttributeType.KEYWORD>[] = [
  RG_TENANT,
  RG_ACCOUNT,
  RG_ORGANIZATION,
  RG_KIND,
  RG_BUSINESS_ID,
];

/** The values of `RgKind`: one per workflow type (or schedule) of the platform. */
export type WorkflowKind =
  | 'webhook-delivery'
  | 'outbox-dispatch'
  | 'invite'
  | 'invite-redispatch'
  | 'invite-dispatch'
  | 'scan-run'
  | 'scan-tick'
  | 'review-sync'
  | 'gbp-sync'
  | 'auto-respond'
  | 'auto-respond-sweep'
  | 'retention'
  | 'sentiment-rescore'
  | 'sentiment-ai-labels'
  | 'monthly-reports'
  | 'monthly-scan-reports';

/** Platform-wide workflows (dispatcher, sweeps, retention) carry this as tenant and account. */
export const PLATFORM = 'platform';

export interface WorkflowTags {
  /** Tenant id; null for platform-wide work (stored as `platform`); undefined when the caller does not know it. */
  tenant?: number | string | null;
  /** Customer account id, where the object belongs to one. */
  account?: number | string | null;
  /** Organisation id, where the object belongs to one. */
  organization?: number | string | null;
  kind: WorkflowKind;
  /** The business key (delivery id, invite id, scan uuid, integration id, ...). */
  businessId?: number | string | null;
}

/** Who a business object belongs to, as the services know it (model fields). */
export interface Owner {
  tenantId: number;
  customerId?: number | null;
  organizationId?: number | null;
}

/** The tags of an owned object (an absent owner leaves tenant and account out, never guessed). */
export const ownedBy = (owner: Owner | null | undefined, kind: WorkflowKind, businessId: number | string): WorkflowTags => ({
  tenant: owner?.tenantId,
  account: owner?.customerId,
  organization: owner?.organizationId,
  kind,
  businessId,
});

/**
 * The typed search attributes of one workflow start (or a schedule's action). Unknown values are left out
 * rather than stored empty, so `RgAccount IS NULL` finds tenant-level work.
 */
export function searchAttributes(tags: WorkflowTags): TypedSearchAttributes {
  const pairs: SearchAttributePair[] = [{ key: RG_KIND, value: tags.kind }];
  if (tags.tenant === null) pairs.push({ key: RG_TENANT, value: PLATFORM }, { key: RG_ACCOUNT, value: PLATFORM });
  else if (tags.tenant !== undefined) pairs.push({ key: RG_TENANT, value: String(tags.tenant) });
  if (tags.tenant !== null && tags.account != null) pairs.push({ key: RG_ACCOUNT, value: String(tags.account) });
  if (tags.organization != null) pairs.push({ key: RG_ORGANIZATION, value: String(tags.organization) });
  if (tags.businessId != null) pairs.push({ key: RG_BUSINESS_ID, value: String(tags.businessId) });
  return new TypedSearchAttributes(pairs);
}

/** Longest static summary we write: the UI shows one line, and the summary is stored in every start event. */
export const SUMMARY_MAX_CHARS = 200;

/** One line (whitespace collapsed), cut at SUMMARY_MAX_CHARS. */
export function summaryLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_MAX_CHARS ? `${line.slice(0, SUMMARY_MAX_CHARS - 1)}…` : line;
}

/**
 * What every workflow start (and schedule action) spreads into its options: the search attributes and the
 * human summary the Temporal UI shows in its list and at the top of the workflow page.
 */
export function startMetadata(tags: WorkflowTags, summary: string): { typedSearchAttributes: TypedSearchAttributes; staticSummary: string } {
  return { typedSearchAttributes: searchAttributes(tags), staticSummary: summaryLine(summary) };
}

/** A receiver URL for a summary: scheme, host and path only (query strings may carry the receiver's secrets). */
export function urlForSummary(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}

/** The first 8 characters of a UUID: enough for a person to match it, the full one is in RgBusinessId. */
export const shortId = (id: string): string => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

/** `--search-attribute Name=Keyword` flags for `temporal server start-dev`. */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]);
}

const INDEXED_KEYWORD = encodeSearchAttributeIndexedValueType(SearchAttributeType.KEYWORD)!;

async function registeredNames(connection: Connection, namespace: string): Promise<Map<string, number>> {
  const res = await connection.operatorService.listSearchAttributes({ namespace });
  return new Map(Object.entries(res.customAttributes ?? {}).map(([name, type]) => [name, Number(type)]));
}

/**
 * Registers the platform's search attributes in `namespace`, idempotently: the embedded dev server at every
 * start (its SQLite file may predate them), and the compose `migrate` job (`reviewgrid temporal:setup`) on a
 * real cluster, where SQL visibility maps each to a free pre-defined column. Visibility applies the change
 * asynchronously, so this waits (polling, up to `timeoutMs`) until every attribute is listed.
 * Returns the names it added (empty when all were there).
 */
export async function ensureSearchAttributes(client: Client, namespace: string, opts: { timeoutMs?: number } = {}): Promise<string[]> {
  const connection = client.connection as Connection;
  const present = await registeredNames(connection, namespace);
  for (const key of SEARCH_ATTRIBUTE_KEYS) {
    const type = present.get(key.name);
    if (type !== undefined && type !== INDEXED_KEYWORD) {
      throw new Error(`Temporal search attribute ${key.name} exists in namespace ${namespace} with another type (${type}); it must be Keyword`);
    }
  }
  const missing = SEARCH_ATTRIBUTE_KEYS.filter((key) => !present.has(key.name));
  if (missing.length === 0) return [];
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((key) => [key.name, INDEXED_KEYWORD])),
    });
  } catch (e) {
    // Another process (a second worker booting, the migrate job) added them between our list and add.
    if (!/already exists/i.test(String((e as Error).message))) throw e;
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const now = await registeredNames(connection, namespace);
    if (missing.every((key) => now.has(key.name))) return missing.map((key) => key.name);
    if (Date.now() > deadline) {
      throw new Error(`Temporal search attributes ${missing.map((k) => k.name).join(', ')} not visible in namespace ${namespace} after ${opts.timeoutMs ?? 30_000} ms`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
