import 'reflect-metadata';
import { Command, CommanderError, Option } from 'commander';
import type { Sequelize } from 'sequelize-typescript';
import { createLogger, openDatabase } from '../bootstrap';
import { loadConfig } from '../config';
import { createMigrator } from '../db/umzug';
import { DomainError } from '../domain/errors';
import { ROLES, TOKEN_KINDS, type Role, type TokenKind } from '../domain/principal';
import { ApiToken } from '../models';
import { createTenant, createUser, findTenant, findUser } from '../services/admin.service';
import { hashToken, issueToken, revokeToken } from '../services/auth.service';
import { setTaxCalculation } from '../services/agency.service';
import { seedDemo } from '../services/demo.service';
import { createOrder } from '../services/orders.service';
import { setPlanFeatures } from '../services/plans.service';

/**
 * Operator CLI: `npm run cli -- <command> [options]`. `--json` prints one JSON object on stdout.
 * Exit codes: 0 done, 1 failure, 2 invalid input.
 */

type Out = Record<string, unknown>;
const list = (v: string): string[] => v.split(',').map((s) => s.trim()).filter(Boolean);
const ints = (v: string): number[] =>
  list(v).map((s) => {
    if (!/^\d+$/.test(s)) throw new CliInputError(`"${s}" is not a numeric id`);
    return Number(s);
  });

class CliInputError extends Error {}

/** `2027-01-31`, an ISO timestamp, or a duration like `30d` / `12h` from now. */
function parseExpiry(v: string): Date {
  const rel = /^(\d+)([dh])$/.exec(v);
  if (rel) return new Date(Date.now() + Number(rel[1]) * (rel[2] === 'd' ? 86_400_000 : 3_600_000));
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) throw new CliInputError(`--expires "${v}" is not a date, timestamp or duration (30d, 12h)`);
  return d;
}

async function run(action: (json: boolean) => Promise<{ text: string; data: Out }>, program: Command): Promise<void> {
  const json = Boolean(program.opts().json);
  const config = loadConfig();
  let sequelize: Sequelize | null = null;
  try {
    sequelize = await openDatabase(config, { logger: createLogger({ ...config, LOG_LEVEL: 'warn' }) });
    const { text, data } = await action(json);
    process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${text}\n`);
  } catch (err) {
    const input = err instanceof CliInputError || (err instanceof DomainError && (err.code === 'VALIDATION' || err.code === 'NOT_FOUND'));
    const message = err instanceof Error ? err.message : String(err);
    const fields = err instanceof DomainError ? err.fields : undefined;
    if (json) process.stdout.write(`${JSON.stringify({ error: { message, fields: fields ?? null } })}\n`);
    else process.stderr.write(`Error: ${message}${fields ? `\n${JSON.stringify(fields, null, 2)}` : ''}\n`);
    process.exitCode = input ? 2 : 1;
  } finally {
    await sequelize?.close();
  }
}

export function buildProgram(): Command {
  const program = new Command('cli').description('Operator commands of the review platform').option('--json', 'machine-readable output');
  program.showHelpAfterError();
  // Commander exits with 1 on a bad option; throwing instead lets the entry point answer 2 (invalid input).
  program.exitOverride();

  program
    .command('db:migrate')
    .description('create the database if missing and apply pending migrations')
    .action(() =>
      run(async () => {
        const config = loadConfig();
        const { createSequelize } = await import('../db/connection');
        const s = createSequelize({ url: config.DATABASE_URL });
        try {
          const executed = (await createMigrator(s).executed()).map((m) => m.name);
          return { text: `Database is at ${executed[executed.length - 1] ?? '(empty)'} (${executed.length} migrations).`, data: { migrations: executed } };
        } finally {
          await s.close();
        }
      }, program),
    );

  program
    .command('tenant:create')
    .description('create an agency with its domains, owner and default plan')
    .requiredOption('--name <name>', 'agency name')
    .requiredOption('--domain <domains>', 'white-label domain(s), comma-separated')
    .requiredOption('--owner-email <email>', 'tenant owner login email')
    .option('--owner-name <name>', 'tenant owner name')
    .option('--brand <brand>', 'brand name shown to customers (default: name)')
    .option('--password <password>', 'owner password (min 8)')
    .option('--tax-calculation', 'the agency calculates tax: new customers need a country (and a postal code in US/CA)')
    .action((o: { name: string; domain: string; ownerEmail: string; ownerName?: string; brand?: string; password?: string; taxCalculation?: boolean }) =>
      run(async () => {
        const { tenant, owner, plan, account } = await createTenant({
          name: o.name,
          brandName: o.brand,
          domains: list(o.domain),
          ownerEmail: o.ownerEmail,
          ownerName: o.ownerName,
          password: o.password,
        });
        if (o.taxCalculation) await setTaxCalculation(tenant.id, true);
        return {
          text: `Tenant #${tenant.id} "${tenant.name}" created; owner ${owner.email} (user #${owner.id}).`,
          data: {
            tenant: { id: tenant.id, name: tenant.name, brand_name: tenant.brandName, domains: list(o.domain), tax_calculation_enabled: Boolean(o.taxCalculation) },
            owner: { id: owner.id, email: owner.email, role: owner.role, customer_id: account.id },
            plan: { id: plan.id, name: plan.name },
          },
        };
      }, program),
    );

  program
    .command('user:create')
    .description('create a tenant owner, organisation owner or team member')
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .requiredOption('--email <email>', 'login email')
    .requiredOption('--name <name>', 'display name')
    .addOption(new Option('--role <role>', 'role').choices([...ROLES]).makeOptionMandatory())
    .option('--organization <id>', 'organisation (required for team members; owners join its account)')
    .option('--locations <ids>', 'team members: assigned location ids, comma-separated')
    .option('--permissions <perms>', 'team members: organisation permissions, e.g. create-locations,update-locations')
    .option('--password <password>', 'password (min 8)')
    .action(
      (o: { tenant: string; email: string; name: string; role: Role; organization?: string; locations?: string; permissions?: string; password?: string }) =>
        run(async () => {
          const tenant = await findTenant(o.tenant);
          const user = await createUser({
            tenantId: tenant.id,
            email: o.email,
            name: o.name,
            role: o.role,
            organizationId: o.organization ? ints(o.organization)[0] : null,
            locationIds: o.locations ? ints(o.locations) : [],
            organizationPermissions: o.permissions ? list(o.permissions) : [],
            password: o.password,
          });
          return {
            text: `User #${user.id} ${user.email} (${user.role}) created in tenant #${tenant.id}.`,
            data: { user: { id: user.id, tenant_id: tenant.id, customer_id: user.customerId, email: user.email, name: user.name, role: user.role } },
          };
        }, program),
    );

  program
    .command('token:create')
    .description('issue an API token (the secret is shown once)')
    .requiredOption('--user <email>', "the token owner's email")
    .option('--tenant <tenant>', 'tenant id, domain or name (when the email exists in several tenants)')
    .option('--permissions <perms>', 'comma-separated permissions, e.g. reviews:read,organizations:read', '')
    .addOption(new Option('--kind <kind>', 'token kind').choices([...TOKEN_KINDS]).default('customer'))
    .option('--expires <when>', 'expiry: 2027-01-31, an ISO timestamp, or 30d / 12h from now')
    .option('--name <name>', 'label of the token', 'cli')
    .action((o: { user: string; tenant?: string; permissions: string; kind: TokenKind; expires?: string; name: string }) =>
      run(async () => {
        const user = await findUser(o.user, o.tenant);
        const { token, plainText } = await issueToken(user, {
          name: o.name,
          kind: o.kind,
          permissions: list(o.permissions),
          expiresAt: o.expires ? parseExpiry(o.expires) : null,
        });
        return {
          text: `Token #${token.id} (${token.kind}) for ${user.email}:\n${plainText}\nStore it now: it is not shown again.`,
          data: {
            id: token.id,
            token: plainText,
            kind: token.kind,
            user: { id: user.id, email: user.email },
            permissions: token.permissions,
            expires_at: token.expiresAt?.toISOString() ?? null,
          },
        };
      }, program),
    );

  program
    .command('token:revoke')
    .description('revoke a token by id or by its secret')
    .argument('<token>', 'token id or the token secret')
    .action((ref: string) =>
      run(async () => {
        const id = /^\d+$/.test(ref) ? Number(ref) : (await ApiToken.findOne({ where: { tokenHash: hashToken(ref) } }))?.id;
        const token = id ? await revokeToken(id) : null;
        if (!token) throw new CliInputError('No such token.');
        return { text: `Token #${token.id} revoked.`, data: { id: token.id, revoked_at: token.revokedAt?.toISOString() ?? null } };
      }, program),
    );

  program
    .command('tenant:tax-calculation')
    .description('switch tax calculation of an agency on or off (on: new customers need country / postal code)')
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .addOption(new Option('--enabled <bool>', 'true or false').choices(['true', 'false']).makeOptionMandatory())
    .action((o: { tenant: string; enabled: 'true' | 'false' }) =>
      run(async () => {
        const tenant = await setTaxCalculation((await findTenant(o.tenant)).id, o.enabled === 'true');
        return {
          text: `Tax calculation of tenant #${tenant.id} is ${tenant.taxCalculationEnabled ? 'on' : 'off'}.`,
          data: { tenant: { id: tenant.id, tax_calculation_enabled: tenant.taxCalculationEnabled } },
        };
      }, program),
    );

  program
    .command('plan:features')
    .description("add or remove features of an agency's plan (e.g. auto_respond)")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .requiredOption('--plan <plan>', 'plan id or name')
    .option('--add <features>', 'features to add, comma-separated')
    .option('--remove <features>', 'features to remove, comma-separated')
    .action((o: { tenant: string; plan: string; add?: string; remove?: string }) =>
      run(async () => {
        const tenant = await findTenant(o.tenant);
        const plan = await setPlanFeatures(tenant.id, o.plan, { add: list(o.add ?? ''), remove: list(o.remove ?? '') });
        return {
          text: `Plan #${plan.id} "${plan.name}" features: ${plan.features.join(', ') || '(none)'}.`,
          data: { plan: { id: plan.id, name: plan.name, features: plan.features } },
        };
      }, program),
    );

  program
    .command('order:create')
    .description("record an NFC order from the agency's storefront (status pending)")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .requiredOption('--email <email>', "buyer's e-mail")
    .requiredOption('--name <name>', 'ship to: name')
    .requiredOption('--address <address>', 'ship to: street address')
    .requiredOption('--city <city>', 'ship to: city')
    .requiredOption('--country <code>', 'ship to: ISO 3166-1 alpha-2 country')
    .option('--currency <code>', 'ISO 4217 currency', 'usd')
    .option('--number <number>', 'order number (default: the next NFC-<n>)')
    .option('--customer <id>', 'customer account the order belongs to')
    .option(
      '--item <item>',
      'a line: "product name:quantity:unit price[:url|url...]" (repeatable)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .action(
      (o: { tenant: string; email: string; name: string; address: string; city: string; country: string; currency: string; number?: string; customer?: string; item: string[] }) =>
        run(async () => {
          if (!o.item.length) throw new CliInputError('at least one --item "name:quantity:unit price[:url|url]" is needed');
          const items = o.item.map((line) => {
            const [productName, quantity, unitPrice, urls] = line.split(/:(?!\/\/)/);
            if (!productName || !/^\d+$/.test(quantity ?? '') || !/^\d+(\.\d+)?$/.test(unitPrice ?? '')) {
              throw new CliInputError(`--item "${line}" is not "product name:quantity:unit price[:url|url]"`);
            }
            return { productName, quantity: Number(quantity), unitPrice: Number(unitPrice), nfcUrls: urls ? urls.split('|').filter(Boolean) : [] };
          });
          const tenant = await findTenant(o.tenant);
          const order = await createOrder({
            tenantId: tenant.id,
            customerId: o.customer ? ints(o.customer)[0] : null,
            orderNumber: o.number ?? null,
            email: o.email,
            currency: o.currency,
            shipping: { name: o.name, address: o.address, city: o.city, country: o.country },
            items,
          });
          return {
            text: `Order ${order.orderNumber} (${order.id}) recorded for tenant #${tenant.id}, status ${order.status}.`,
            data: { order: { id: order.id, order_number: order.orderNumber, status: order.status, total_minor: order.totalMinor, currency: order.currency } },
          };
        }, program),
    );

  program
    .command('grid:configure')
    .description("set an agency's Local Search Grid providers: the simulator, or DataForSEO + Google Geocoding (live)")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .addOption(new Option('--mode <mode>', 'simulator or live').choices(['simulator', 'live']).makeOptionMandatory())
    .option('--dataforseo-login <login>', 'DataForSEO API login (live)')
    .option('--dataforseo-password <password>', 'DataForSEO API password (live; stored encrypted)')
    .option('--google-maps-key <key>', 'Google Maps Geocoding API key (live; stored encrypted)')
    .option('--dataforseo-url <url>', 'DataForSEO base URL override')
    .option('--google-maps-url <url>', 'Google Maps base URL override')
    .action(
      (o: { tenant: string; mode: string; dataforseoLogin?: string; dataforseoPassword?: string; googleMapsKey?: string; dataforseoUrl?: string; googleMapsUrl?: string }) =>
        run(async () => {
          const tenant = await findTenant(o.tenant);
          const { configureGridProviders } = await import('../services/grid-providers.service');
          const setting = await configureGridProviders({
            tenantId: tenant.id,
            mode: o.mode,
            dataforseoLogin: o.dataforseoLogin ?? null,
            dataforseoPassword: o.dataforseoPassword ?? null,
            googleMapsKey: o.googleMapsKey ?? null,
            dataforseoBaseUrl: o.dataforseoUrl ?? null,
            googleMapsBaseUrl: o.googleMapsUrl ?? null,
          });
          return {
            text: `Local Search Grid providers of tenant #${tenant.id}: ${setting.mode}.`,
            data: { tenant: { id: tenant.id }, grid_providers: { mode: setting.mode, dataforseo_login: setting.dataforseoLogin } },
          };
        }, program),
    );

  program
    .command('demo:seed')
    .description('create a demo tenant with organisations, locations, sources, reviews and tokens')
    .option('--reviews <n>', 'number of reviews', '250')
    .option('--domain <domain>', 'demo white-label domain', 'demo.localhost')
    .action((o: { reviews: string; domain: string }) =>
      run(async () => {
        if (!/^\d+$/.test(o.reviews)) throw new CliInputError('--reviews must be a whole number');
        const { tenant, tokens } = await seedDemo({ reviews: Number(o.reviews), domain: o.domain });
        const text = [`Demo tenant #${tenant.id} "${tenant.name}" seeded with ${o.reviews} reviews. Tokens:`]
          .concat(tokens.map((t) => `  ${t.label.padEnd(48)} ${t.token}`))
          .join('\n');
        return { text, data: { tenant: { id: tenant.id, name: tenant.name }, reviews: Number(o.reviews), tokens } };
      }, program),
    );

  return program;
}

if (require.main === module) {
  buildProgram()
    .parseAsync(process.argv)
    .catch((err) => {
      // Commander has already printed its own message (and help) for a parse error or `--help`.
      if (err instanceof CommanderError) {
        process.exitCode = err.exitCode === 0 ? 0 : 2;
        return;
      }
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    });
}
