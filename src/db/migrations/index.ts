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
];
