import type { Migration } from '../umzug';
import * as m0100 from './20261121000100-create-tenants';
import * as m0200 from './20261121000200-create-plans-and-customers';
import * as m0300 from './20261121000300-create-users-and-tokens';
import * as m0400 from './20261121000400-create-organizations-and-locations';
import * as m0500 from './20261121000500-create-sources-integrations-reviews';
import * as m0600 from './20261121000600-create-countries-files-outbox';
import * as m0700 from './20261121000700-seed-review-sources';
import * as m0800 from './20261121000800-seed-countries';
import * as m0900 from './20261121000900-create-review-counts';
import * as w0100 from './20261122000100-create-webhook-endpoints';
import * as w0200 from './20261122000200-create-webhook-deliveries';
import * as w0300 from './20261122000300-create-webhook-attempts';
import * as g0100 from './20261123000100-add-tenant-tax-calculation';
import * as g0110 from './20261123000110-create-credit-ledger';
import * as g0120 from './20261123000120-create-nfc-orders';
import * as c0200 from './20261123000200-create-connect-links';
import * as c0210 from './20261123000210-create-provider-connections';
import * as r0300 from './20261123000300-add-integration-sync-state';
import * as r0310 from './20261123000310-unique-review-identifier';
import * as s0400 from './20261123000400-create-scans';
import * as s0410 from './20261123000410-create-scan-pins';
import * as s0420 from './20261123000420-create-scan-snapshots';
import * as s0430 from './20261123000430-create-scan-results';
import * as s0440 from './20261123000440-create-grid-provider-settings';
import * as i0100 from './20261124000100-create-campaigns-and-contacts';
import * as i0200 from './20261124000200-create-invites-and-activities';
import * as i0300 from './20261124000300-create-messaging-inbound-feedback';
import * as i0500 from './20261124000500-invite-message-sending-state';
import * as a0200 from './20261125000200-add-review-sentiment';
import * as a0210 from './20261125000210-backfill-review-sentiment';
import * as h0300 from './20261125000300-create-auto-respond-rules';
import * as h0310 from './20261125000310-create-reply-drafts';
import * as h0320 from './20261125000320-create-review-tags';

import * as p0100 from './20261125000100-create-gbp-daily-metrics';
import * as p0110 from './20261125000110-create-gbp-search-keywords';
import * as q0100 from './20261126000100-create-mcp-audit-log';
import * as z0100 from './20261127000100-create-system-settings';
import * as z0200 from './20261128000100-add-retention-indexes';
import * as z0300 from './20261129000100-encrypt-webhook-secrets';
import * as z0400 from './20261130000100-create-agency-audit-events';
import * as z0500 from './20261130000200-create-idempotency-keys';
import * as z0600 from './20261130000300-add-webhook-event-filters';
import * as z0700 from './20261201000100-add-webhook-attempt-exchange';
import * as z0800 from './20261202000100-create-oauth';
import * as z0900 from './20261203000100-add-invite-send-queue';
import * as z1000 from './20261204000100-add-review-languages-and-aspects';
import * as z1100 from './20261205000100-add-tenant-language';
import * as z1200 from './20261206000100-add-review-sentiment-source';
import * as z1300 from './20261207000100-add-tenant-brand-color';
import * as z1400 from './20261208000100-add-report-deliveries';
import * as z1410 from './20261208000200-add-customer-report-emails';
import * as z1500 from './20261209000100-add-child-tenant-ids';
import * as z1600 from './20261210000100-add-report-delivery-scans';
import * as z1700 from './20261211000100-add-report-delivery-claim-token';
import * as z1800 from './20261212000100-add-invite-message-claim-token';
import * as z1900 from './20261213000100-normalize-user-emails';
import * as z2000 from './20261214000100-distinct-names-and-keywords';
import * as z2100 from './20261215000100-hash-oauth-token-ids';
import * as z2200 from './20261216000100-add-webhook-delivery-retry-owner';
import * as z2300 from './20261217000100-create-contact-opt-outs';
import * as z2400 from './20261218000100-expire-unused-oauth-clients';
import * as z2500 from './20261219000100-add-tenant-link-domain';
import * as z2620 from './20261220000300-add-review-removed-at';
import * as z2630 from './20261221000100-idempotency-key-binary-collation';
import * as z2632 from './20261222000100-add-invite-due-account';
import * as z2635 from './20261222000200-add-scan-run-turns';
import * as z2637 from './20261222000300-add-outbox-tenant-pending-index';
import * as z2640 from './20261222000400-add-inbound-signed-timestamp';
/** Ordered list: names are the file names, so the table `schema_migrations` reads like the folder. */
export const migrations: ReadonlyArray<{ name: string; up: Migration; down: Migration }> = [
  { name: '20261121000100-create-tenants', ...m0100 },
  { name: '20261121000200-create-plans-and-customers', ...m0200 },
  { name: '20261121000300-create-users-and-tokens', ...m0300 },
  { name: '20261121000400-create-organizations-and-locations', ...m0400 },
  { name: '20261121000500-create-sources-integrations-reviews', ...m0500 },
  { name: '20261121000600-create-countries-files-outbox', ...m0600 },
  { name: '20261121000700-seed-review-sources', up: m0700.up, down: m0700.down },
  { name: '20261121000800-seed-countries', ...m0800 },
  { name: '20261121000900-create-review-counts', ...m0900 },
  { name: '20261122000100-create-webhook-endpoints', ...w0100 },
  { name: '20261122000200-create-webhook-deliveries', ...w0200 },
  { name: '20261122000300-create-webhook-attempts', ...w0300 },
  { name: '20261123000100-add-tenant-tax-calculation', ...g0100 },
  { name: '20261123000110-create-credit-ledger', ...g0110 },
  { name: '20261123000120-create-nfc-orders', ...g0120 },
  { name: '20261123000200-create-connect-links', ...c0200 },
  { name: '20261123000210-create-provider-connections', ...c0210 },
  { name: '20261123000300-add-integration-sync-state', ...r0300 },
  { name: '20261123000310-unique-review-identifier', ...r0310 },
  { name: '20261123000400-create-scans', ...s0400 },
  { name: '20261123000410-create-scan-pins', ...s0410 },
  { name: '20261123000420-create-scan-snapshots', ...s0420 },
  { name: '20261123000430-create-scan-results', ...s0430 },
  { name: '20261123000440-create-grid-provider-settings', ...s0440 },
  { name: '20261124000100-create-campaigns-and-contacts', ...i0100 },
  { name: '20261124000200-create-invites-and-activities', ...i0200 },
  { name: '20261124000300-create-messaging-inbound-feedback', ...i0300 },
  { name: '20261124000500-invite-message-sending-state', ...i0500 },
  { name: '20261125000100-create-gbp-daily-metrics', ...p0100 },
  { name: '20261125000110-create-gbp-search-keywords', ...p0110 },
  { name: '20261125000200-add-review-sentiment', ...a0200 },
  { name: '20261125000210-backfill-review-sentiment', up: a0210.up, down: a0210.down },
  { name: '20261125000300-create-auto-respond-rules', ...h0300 },
  { name: '20261125000310-create-reply-drafts', ...h0310 },
  { name: '20261125000320-create-review-tags', ...h0320 },
  { name: '20261126000100-create-mcp-audit-log', ...q0100 },
  { name: '20261127000100-create-system-settings', ...z0100 },
  { name: '20261128000100-add-retention-indexes', ...z0200 },
  { name: '20261129000100-encrypt-webhook-secrets', ...z0300 },
  { name: '20261130000100-create-agency-audit-events', ...z0400 },
  { name: '20261130000200-create-idempotency-keys', ...z0500 },
  { name: '20261130000300-add-webhook-event-filters', ...z0600 },
  { name: '20261201000100-add-webhook-attempt-exchange', ...z0700 },
  { name: '20261202000100-create-oauth', ...z0800 },
  { name: '20261203000100-add-invite-send-queue', ...z0900 },
  { name: '20261204000100-add-review-languages-and-aspects', ...z1000 },
  { name: '20261205000100-add-tenant-language', ...z1100 },
  { name: '20261206000100-add-review-sentiment-source', ...z1200 },
  { name: '20261207000100-add-tenant-brand-color', ...z1300 },
  { name: '20261208000100-add-report-deliveries', ...z1400 },
  { name: '20261208000200-add-customer-report-emails', ...z1410 },
  { name: '20261209000100-add-child-tenant-ids', ...z1500 },
  { name: '20261210000100-add-report-delivery-scans', ...z1600 },
  { name: '20261211000100-add-report-delivery-claim-token', ...z1700 },
  { name: '20261212000100-add-invite-message-claim-token', ...z1800 },
  { name: '20261213000100-normalize-user-emails', ...z1900 },
  { name: '20261214000100-distinct-names-and-keywords', ...z2000 },
  { name: '20261215000100-hash-oauth-token-ids', ...z2100 },
  { name: '20261216000100-add-webhook-delivery-retry-owner', ...z2200 },
  { name: '20261217000100-create-contact-opt-outs', ...z2300 },
  { name: '20261218000100-expire-unused-oauth-clients', ...z2400 },
  { name: '20261219000100-add-tenant-link-domain', ...z2500 },
  { name: '20261220000300-add-review-removed-at', ...z2620 },
  { name: '20261221000100-idempotency-key-binary-collation', ...z2630 },
  { name: '20261222000100-add-invite-due-account', ...z2632 },
  { name: '20261222000200-add-scan-run-turns', ...z2635 },
  { name: '20261222000300-add-outbox-tenant-pending-index', ...z2637 },
  { name: '20261222000400-add-inbound-signed-timestamp', ...z2640 },
];
