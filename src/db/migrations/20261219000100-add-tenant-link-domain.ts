import type { Migration } from '../umzug';

/**
 * The agency's domain for the links its customers' customers get (review requests, unsubscribe, connect and report
 * links): one of its `tenant_domains`, chosen by the operator once the domain serves this platform
 * (`reviewgrid tenant:link-domain`). NULL, the default: links on PUBLIC_URL, as before.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE tenants ADD COLUMN link_domain VARCHAR(255) NULL AFTER brand_color');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE tenants DROP COLUMN link_domain');
};
