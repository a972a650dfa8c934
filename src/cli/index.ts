#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { ROLES, TOKEN_KINDS, type Role, type TokenKind } from '../domain/principal';
import { run, withStdinPassword, type PasswordOpts } from './run';

/**
 * Operator CLI, `reviewgrid <command> [options]` (package.json `bin`; `npm run cli -- ...` runs the same built file).
 * `--json` prints one JSON object on stdout (an error too, Commander's own among them). Exit codes: 0 done, 1 failure,
 * 2 invalid input. Secrets can stay out of argv: `--password-stdin`, or the REVIEWGRID_* variables of their options.
 *
 * This file only declares the commands: each action imports its implementation when it runs, so `--help` loads
 * nothing but commander, and a database command loads the models and its services, never the GraphQL schema,
 * Temporal or the workflow bundle.
 */

const accounts = () => import('./commands/accounts');
const LIST_LIMIT = '100';

/**
 * A password in argv is in the shell's history and in /proc/<pid>/cmdline, which every local user can read: it can
 * come from the environment instead (readable by the same user only), or from stdin, as `docker login` and `gh auth
 * login --with-token` take theirs. `--password` on the command line wins over the variable; with `--password-stdin`
 * either is refused (exit 2), so two sources never disagree silently.
 */
const PASSWORD_ENV = 'REVIEWGRID_PASSWORD';
const passwordOption = (description: string) =>
  new Option('--password <password>', `${description}; other local users can read arguments: prefer --password-stdin or the variable`).env(PASSWORD_ENV);
const passwordStdinOption = () => new Option('--password-stdin', 'read the password from stdin (one line)').conflicts('password');

/** Whether `--json` is among the program's arguments (before a `--`): known before Commander parses anything. */
export function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/** One line for Commander's own refusal (an unknown option, a missing one, no command), without its `error: ` prefix. */
export function commanderMessage(err: CommanderError): string {
  if (err.code === 'commander.help') return 'a command is required: `reviewgrid --help` lists them';
  return err.message.replace(/^error: /, '');
}

export function buildProgram(options: { json?: boolean } = {}): Command {
  const program = new Command('reviewgrid').description('Operator commands of the review platform').option('--json', 'machine-readable output');
  program.showHelpAfterError();
  // Commander exits with 1 on a bad option; throwing instead lets the entry point answer 2 (invalid input).
  program.exitOverride();
  // With --json, Commander's refusals are the entry point's one JSON line on stdout: nothing of theirs on stderr (the
  // subcommands below inherit this, so it comes before them).
  if (options.json) program.configureOutput({ writeErr: () => undefined });

  // Migrations.
  program
    .command('db:migrate')
    .description('create the database if missing and apply pending migrations')
    .action(() => run(program, 'none', async ({ config }) => (await import('./commands/db')).dbMigrate(config)));

  program
    .command('db:status')
    .description('list applied and pending migrations (changes nothing)')
    .action(() => run(program, 'none', async ({ config }) => (await import('./commands/db')).dbStatus(config)));

  // Tenants (agencies).
  program
    .command('tenant:create')
    .description('create an agency with its domains, owner and default plan (first run: add --issue-tokens)')
    .requiredOption('--name <name>', 'agency name')
    .requiredOption('--domain <domains>', 'white-label domain(s), comma-separated')
    .requiredOption('--owner-email <email>', 'tenant owner login email')
    .option('--owner-name <name>', 'tenant owner name')
    .option('--brand <brand>', 'brand name shown to customers (default: name)')
    .addOption(passwordOption('owner password (min 8)'))
    .addOption(passwordStdinOption())
    .option('--tax-calculation', 'the agency calculates tax: new customers need a country (and a postal code in US/CA)')
    .option('--issue-tokens', "print the owner's agency token (/api/agency/v1) and customer token (/api/v1, every permission)")
    .action((o: import('./commands/accounts').TenantCreateOpts & PasswordOpts) =>
      run(program, 'migrate', async () => (await accounts()).tenantCreate(await withStdinPassword(o))),
    );

  program
    .command('tenant:list')
    .description('list agencies with their domains and owners, newest first')
    .option('--limit <n>', 'at most this many', LIST_LIMIT)
    .action((o: { limit: string }) => run(program, 'migrate', async () => (await accounts()).tenantList(o)));

  program
    .command('tenant:tax-calculation')
    .description('switch tax calculation of an agency on or off (on: new customers need country / postal code)')
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .addOption(new Option('--enabled <bool>', 'true or false').choices(['true', 'false']).makeOptionMandatory())
    .action((o: { tenant: string; enabled: 'true' | 'false' }) => run(program, 'migrate', async () => (await accounts()).tenantTaxCalculation(o)));

  program
    .command('tenant:link-domain')
    .description("put the links the agency's customers and their customers get (review requests, unsubscribe, connect, scan reports) on one of its domains, or back on PUBLIC_URL")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .option('--domain <domain>', "one of the agency's domains, once it serves this platform (DNS and TLS at the proxy)")
    .option('--none', 'links on PUBLIC_URL again')
    .action((o: { tenant: string; domain?: string; none?: boolean }) => run(program, 'migrate', async () => (await accounts()).tenantLinkDomain(o)));

  // Organisations.
  program
    .command('org:create')
    .description("create an organisation in an account owner's account (a new organisation owner and account when the e-mail is new)")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .requiredOption('--name <name>', 'organisation name')
    .requiredOption('--owner-email <email>', 'organisation owner (existing account owner, or a new organisation owner)')
    .option('--owner-name <name>', 'new owner: display name (default: the e-mail)')
    .option('--plan <plan>', "new owner: plan id or name of the new account (default: the agency's default plan)")
    .addOption(passwordOption('new owner: password (min 8)'))
    .addOption(passwordStdinOption())
    .action((o: { tenant: string; name: string; ownerEmail: string; ownerName?: string; plan?: string } & PasswordOpts) =>
      run(program, 'migrate', async () => (await accounts()).orgCreate(await withStdinPassword(o))),
    );

  program
    .command('org:list')
    .description('list organisations, newest first')
    .option('--tenant <tenant>', 'only this tenant (id, domain or name)')
    .option('--customer <id>', 'only this customer account')
    .option('--limit <n>', 'at most this many', LIST_LIMIT)
    .action((o: { tenant?: string; customer?: string; limit: string }) => run(program, 'migrate', async () => (await accounts()).orgList(o)));

  // Users.
  program
    .command('user:create')
    .description('create a tenant owner, organisation owner or team member')
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .requiredOption('--email <email>', 'login email')
    .requiredOption('--name <name>', 'display name')
    .addOption(new Option('--role <role>', 'role').choices([...ROLES]).makeOptionMandatory())
    .option(
      '--organization <id>',
      "team members: their organisation (required); organisation owners: join its account (else a new account opens); not for tenant owners, who join the agency's own account",
    )
    .option('--locations <ids>', 'team members: assigned location ids, comma-separated')
    .option('--permissions <perms>', 'team members: organisation permissions, e.g. create-locations,update-locations')
    .addOption(passwordOption('password (min 8)'))
    .addOption(passwordStdinOption())
    .action((o: import('./commands/accounts').UserCreateOpts & PasswordOpts) =>
      run(program, 'migrate', async () => (await accounts()).userCreate(await withStdinPassword(o))),
    );

  program
    .command('user:list')
    .description('list users, newest first')
    .option('--tenant <tenant>', 'only this tenant (id, domain or name)')
    .addOption(new Option('--role <role>', 'only this role').choices([...ROLES]))
    .option('--limit <n>', 'at most this many', LIST_LIMIT)
    .action((o: { tenant?: string; role?: Role; limit: string }) => run(program, 'migrate', async () => (await accounts()).userList(o)));

  // API tokens.
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
      run(program, 'migrate', async () => (await accounts()).tokenCreate(o)),
    );

  program
    .command('token:list')
    .description('list API tokens (never their secrets), newest first')
    .option('--tenant <tenant>', 'only this tenant (id, domain or name)')
    .option('--user <email>', "only this user's tokens")
    .option('--active', 'only tokens that are neither revoked nor expired')
    .option('--limit <n>', 'at most this many', LIST_LIMIT)
    .action((o: { tenant?: string; user?: string; active?: boolean; limit: string }) => run(program, 'migrate', async () => (await accounts()).tokenList(o)));

  program
    .command('token:revoke')
    .description('revoke a token by the id token:list shows (or by its secret)')
    .argument('<token>', 'token id or the token secret')
    .action((ref: string) => run(program, 'migrate', async () => (await accounts()).tokenRevoke(ref)));

  // Plans and credits.
  program
    .command('plan:list')
    .description("list an agency's plans with their limits, features and accounts")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .action((o: { tenant: string }) => run(program, 'migrate', async () => (await accounts()).planList(o)));

  program
    .command('plan:features')
    .description("add or remove features of an agency's plan (e.g. auto_respond)")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .requiredOption('--plan <plan>', 'plan id or name')
    .option('--add <features>', 'features to add, comma-separated')
    .option('--remove <features>', 'features to remove, comma-separated')
    .action((o: { tenant: string; plan: string; add?: string; remove?: string }) => run(program, 'migrate', async () => (await accounts()).planFeatures(o)));

  program
    .command('credits:show')
    .description("a customer account's email and SMS credit balances and its latest grants")
    .requiredOption('--customer <id>', 'customer account id (org:list, user:list show it)')
    .action((o: { customer: string }) => run(program, 'migrate', async () => (await accounts()).creditsShow(o)));

  program
    .command('credits:grant')
    .description('grant email or SMS credits to a customer account')
    .requiredOption('--customer <id>', 'customer account id')
    .addOption(new Option('--type <type>', 'credit type').choices(['email', 'sms']).makeOptionMandatory())
    .requiredOption('--credits <n>', 'number of credits (1 to 1000000)')
    .option('--expires <date>', 'valid through this day (Y-m-d, UTC); default: no expiry')
    .option('--notes <text>', 'a note kept with the grant')
    .action((o: { customer: string; type: string; credits: string; expires?: string; notes?: string }) =>
      run(program, 'migrate', async () => (await accounts()).creditsGrant(o)),
    );

  // Orders, Local Search Grid, demo data.
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
    .option('--item <item>', 'a line: "product name:quantity:unit price[:url|url...]" (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .action((o: import('./commands/extras').OrderCreateOpts) => run(program, 'migrate', async () => (await import('./commands/extras')).orderCreate(o)));

  program
    .command('grid:configure')
    .description("set an agency's Local Search Grid providers: the simulator, or DataForSEO + Google Geocoding (live)")
    .requiredOption('--tenant <tenant>', 'tenant id, domain or name')
    .addOption(new Option('--mode <mode>', 'simulator or live').choices(['simulator', 'live']).makeOptionMandatory())
    .option('--dataforseo-login <login>', 'DataForSEO API login (live)')
    .addOption(new Option('--dataforseo-password <password>', 'DataForSEO API password (live; stored encrypted)').env('REVIEWGRID_DATAFORSEO_PASSWORD'))
    .addOption(new Option('--google-maps-key <key>', 'Google Maps Geocoding API key (live; stored encrypted)').env('REVIEWGRID_GOOGLE_MAPS_KEY'))
    .option('--dataforseo-url <url>', 'DataForSEO base URL override')
    .option('--google-maps-url <url>', 'Google Maps base URL override')
    .action((o: import('./commands/extras').GridConfigureOpts, command: Command) => {
      // The variables are for live settings: switching to the simulator with them still exported stores no secret.
      const ambient = (key: 'dataforseoPassword' | 'googleMapsKey') => o.mode !== 'live' && command.getOptionValueSource(key) === 'env';
      const given = { ...o, dataforseoPassword: ambient('dataforseoPassword') ? undefined : o.dataforseoPassword, googleMapsKey: ambient('googleMapsKey') ? undefined : o.googleMapsKey };
      return run(program, 'migrate', async () => (await import('./commands/extras')).gridConfigure(given));
    });

  program
    .command('demo:seed')
    .description('create a demo tenant with organisations, locations, sources, reviews and tokens')
    .option('--reviews <n>', 'number of reviews', '250')
    .option('--domain <domain>', 'demo white-label domain', 'demo.localhost')
    .action((o: { reviews: string; domain: string }) => run(program, 'migrate', async ({ config }) => (await import('./commands/extras')).demoSeed(o, config)));

  // Operations.
  program
    .command('secrets:rotate')
    .description('re-encrypt every stored secret under the newest key of APP_KEYS (run after adding a key everywhere)')
    .action(() => run(program, 'open', async ({ sequelize }) => (await import('./commands/secrets')).secretsRotate(sequelize)));

  program
    .command('doctor')
    .description('print the readiness checks (database, migrations, Redis, Temporal and its worker pollers); exit 1 when one fails')
    .action(() => run(program, 'open', async ({ config, sequelize }) => (await import('./commands/ops')).doctor(config, sequelize)));

  program
    .command('temporal:setup')
    .description('register the Temporal namespace and search attributes at TEMPORAL_ADDRESS (idempotent)')
    .action(() => run(program, 'none', async ({ config }) => (await import('./commands/ops')).temporalSetup(config)));

  return program;
}

if (require.main === module) {
  const json = wantsJson(process.argv.slice(2));
  const fail = (message: string) => {
    if (json) process.stdout.write(`${JSON.stringify({ error: { message, fields: null } })}\n`);
    else process.stderr.write(`${message}\n`);
    process.exitCode = 2;
  };
  buildProgram({ json })
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      if (err instanceof CommanderError) {
        // `--help`: printed, done. A parse error: Commander has printed its message (and help) on stderr, or, with
        // --json, nothing: the error is one JSON line on stdout, as every other error of the CLI.
        if (err.exitCode === 0) process.exitCode = 0;
        else if (json) fail(commanderMessage(err));
        else process.exitCode = 2;
        return;
      }
      fail(err instanceof Error ? err.message : String(err));
    });
}
