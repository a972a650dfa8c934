import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { decryptSecret } from '../../src/crypto/secrets';
import { GridProviderSetting, OrganizationMember, User } from '../../src/models';
import { useApp } from '../support/app';
import { cli } from './binary';

/**
 * What the operator hands the CLI (README "Operator CLI"), the built binary run as a process against this worker's
 * database: `user:create --role tenant_owner` refuses `--organization`; `--json` answers Commander's own refusals
 * with the one JSON error line too; passwords and provider secrets come from stdin or the environment, not only argv.
 */
jest.setTimeout(90_000);
const t = useApp();

/** No REVIEWGRID_* secret of the test runner's environment reaches a command unless a test sets it. */
const NO_SECRETS = { REVIEWGRID_PASSWORD: undefined, REVIEWGRID_DATAFORSEO_PASSWORD: undefined, REVIEWGRID_GOOGLE_MAPS_KEY: undefined };
const run = (args: string[], env: Record<string, string | undefined> = {}, input?: string) => cli(['--json', ...args], { ...NO_SECRETS, ...env }, input);

/** A fresh agency (with its first-run agency token) and one customer organisation. */
async function agency() {
  const id = randomUUID().slice(0, 8);
  const domain = `input-${id}.test`;
  const tenant = await run(['tenant:create', '--name', `Input ${id}`, '--domain', domain, '--owner-email', `boss-${id}@input.test`, '--issue-tokens']);
  expect(tenant.code).toBe(0);
  const org = await run(['org:create', '--tenant', domain, '--name', 'Corner Clinic', '--owner-email', `carla-${id}@input.test`]);
  expect(org.code).toBe(0);
  return {
    id,
    domain,
    tenantId: tenant.json.tenant.id as number,
    agencyAccount: tenant.json.owner.customer_id as number,
    agencyToken: tenant.json.tokens[0].token as string,
    org: org.json.organization as { id: number; customer_id: number },
  };
}
const passwordOf = async (tenantId: number, email: string) => (await User.findOne({ where: { tenantId, email } }))?.passwordHash ?? null;

describe('reviewgrid user:create --role tenant_owner', () => {
  it("refuses --organization (exit 2, naming the option) and creates nobody; the customer stays the agency's customer", async () => {
    const a = await agency();
    const email = `ops-${a.id}@input.test`;
    const args = ['user:create', '--tenant', a.domain, '--email', email, '--name', 'Ops', '--role', 'tenant_owner', '--organization', String(a.org.id)];
    const json = await run(args);
    expect([json.code, json.json]).toEqual([2, { error: { message: "--organization is for organization owners and team members: a tenant owner joins the agency's own account", fields: null } }]);
    const text = await cli(args, NO_SECRETS);
    expect([text.code, text.stderr]).toEqual([2, "Error: --organization is for organization owners and team members: a tenant owner joins the agency's own account\n"]);
    expect(await User.count({ where: { tenantId: a.tenantId, email } })).toBe(0);

    const customers = await t.as(a.agencyToken).get('/api/agency/v1/customers');
    expect(customers.body.data.map((c: { id: number }) => c.id)).toEqual([a.org.customer_id]);

    // Without it, the second tenant owner joins the agency's own account, and the customer list is unchanged.
    const owner = await run(args.slice(0, -2));
    expect(owner.code).toBe(0);
    expect(owner.json.user).toMatchObject({ role: 'tenant_owner', customer_id: a.agencyAccount });
    expect((await t.as(a.agencyToken).get('/api/agency/v1/customers')).body.data.map((c: { id: number }) => c.id)).toEqual([a.org.customer_id]);
  });

  it("says in --help that --organization is not for tenant owners", async () => {
    const help = await cli(['user:create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("not for tenant owners, who join the agency's own account");
  });
});

describe('reviewgrid user:create --permissions and --locations', () => {
  it('refuses them for owners (exit 2, naming the field) and creates nobody; a team member gets them', async () => {
    const a = await agency();
    const base = (email: string, role: string) => ['user:create', '--tenant', a.domain, '--email', email, '--name', 'Someone', '--role', role];
    for (const role of ['organization_owner', 'tenant_owner']) {
      const email = `${role}-${a.id}@input.test`;
      const refused = await run([...base(email, role), '--permissions', 'create-locations']);
      expect([refused.code, refused.json.error.fields]).toEqual([
        2,
        { permissions: ['Only team members are given organization permissions: an owner holds every permission of its account.'] },
      ]);
      expect(await User.count({ where: { tenantId: a.tenantId, email } })).toBe(0);
    }
    const owner = await run([...base(`owner-loc-${a.id}@input.test`, 'organization_owner'), '--organization', String(a.org.id), '--locations', '1']);
    expect([owner.code, owner.json.error.fields]).toEqual([2, { locations: ['Only team members are assigned locations.'] }]);

    const member = await run([...base(`member-${a.id}@input.test`, 'team_member'), '--organization', String(a.org.id), '--permissions', 'create-locations']);
    expect(member.code).toBe(0);
    const created = await User.findByPk(member.json.user.id);
    const membership = await OrganizationMember.findOne({ where: { userId: created!.id, organizationId: a.org.id } });
    expect(membership!.permissions).toEqual(['create-locations']);
  });
});

describe('reviewgrid --json and Commander\'s own errors', () => {
  it('prints one JSON error line on stdout (nothing on stderr), exit 2, for a missing, unknown or conflicting option and an unknown or missing command', async () => {
    const cases: [args: string[], message: string][] = [
      [['--json', 'token:create'], "required option '--user <email>' not specified"],
      [['token:create', '--json'], "required option '--user <email>' not specified"],
      [['--json', 'tenant:list', '--colour'], "unknown option '--colour'"],
      [['tenant:list', '--colour', '--json'], "unknown option '--colour'"],
      [['--json', 'grid:configure', '--tenant', '1', '--mode', 'cloud'], "option '--mode <mode>' argument 'cloud' is invalid. Allowed choices are simulator, live."],
      [['--json', 'tenant:delete'], "unknown command 'tenant:delete'"],
      [['--json'], 'a command is required: `reviewgrid --help` lists them'],
    ];
    for (const [args, message] of cases) {
      const res = await cli(args, NO_SECRETS);
      expect([args, res.code, res.stderr, res.stdout.trim().split('\n').length]).toEqual([args, 2, '', 1]);
      expect([args, JSON.parse(res.stdout)]).toEqual([args, { error: { message: expect.stringContaining(message), fields: null } }]);
    }
  });

  it('without --json, still prints Commander\'s message (and the help) on stderr, exit 2', async () => {
    const res = await cli(['token:create'], NO_SECRETS);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: required option '--user <email>' not specified\n/);
    expect(res.stderr).toContain('Usage: reviewgrid token:create');
  });
});

describe('secrets outside argv', () => {
  it('--password-stdin reads the password from stdin, for tenant:create, org:create and user:create', async () => {
    const a = await agency();
    const secret = `stdin pass ${a.id} with spaces`;
    const tenant = await run(['tenant:create', '--name', `Stdin ${a.id}`, '--domain', `stdin-${a.id}.test`, '--owner-email', `s-${a.id}@input.test`, '--password-stdin'], {}, `${secret}\n`);
    expect(tenant.code).toBe(0);
    expect(await bcrypt.compare(secret, (await passwordOf(tenant.json.tenant.id, `s-${a.id}@input.test`))!)).toBe(true);
    const org = await run(['org:create', '--tenant', a.domain, '--name', 'Stdin Org', '--owner-email', `o-${a.id}@input.test`, '--password-stdin'], {}, `${secret}\r\n`);
    expect(org.code).toBe(0);
    expect(await bcrypt.compare(secret, (await passwordOf(a.tenantId, `o-${a.id}@input.test`))!)).toBe(true);
    // No line break at all is one line too.
    const user = await run(['user:create', '--tenant', a.domain, '--email', `u-${a.id}@input.test`, '--name', 'U', '--role', 'organization_owner', '--password-stdin'], {}, secret);
    expect(user.code).toBe(0);
    expect(await bcrypt.compare(secret, (await passwordOf(a.tenantId, `u-${a.id}@input.test`))!)).toBe(true);
  });

  it('REVIEWGRID_PASSWORD gives the password; --password on the command line wins over it', async () => {
    const a = await agency();
    const fromEnv = await run(['user:create', '--tenant', a.domain, '--email', `e-${a.id}@input.test`, '--name', 'E', '--role', 'organization_owner'], { REVIEWGRID_PASSWORD: 'from the environment' });
    expect(fromEnv.code).toBe(0);
    expect(await bcrypt.compare('from the environment', (await passwordOf(a.tenantId, `e-${a.id}@input.test`))!)).toBe(true);
    const both = await run(
      ['user:create', '--tenant', a.domain, '--email', `f-${a.id}@input.test`, '--name', 'F', '--role', 'organization_owner', '--password', 'from the argument'],
      { REVIEWGRID_PASSWORD: 'from the environment' },
    );
    expect(both.code).toBe(0);
    expect(await bcrypt.compare('from the argument', (await passwordOf(a.tenantId, `f-${a.id}@input.test`))!)).toBe(true);
  });

  it('refuses --password-stdin with --password or REVIEWGRID_PASSWORD, and an empty or several-line stdin (exit 2, nobody created)', async () => {
    const a = await agency();
    const create = (email: string) => ['user:create', '--tenant', a.domain, '--email', email, '--name', 'N', '--role', 'organization_owner', '--password-stdin'];
    const refusals: [email: string, extra: string[], env: Record<string, string>, input: string, message: string][] = [
      [`c1-${a.id}@input.test`, ['--password', 'argument pass'], {}, 'stdin pass\n', "option '--password-stdin' cannot be used with option '--password <password>'"],
      [`c2-${a.id}@input.test`, [], { REVIEWGRID_PASSWORD: 'env pass' }, 'stdin pass\n', "option '--password-stdin' cannot be used with environment variable 'REVIEWGRID_PASSWORD'"],
      [`c3-${a.id}@input.test`, [], {}, '', '--password-stdin: nothing was read from stdin'],
      [`c4-${a.id}@input.test`, [], {}, '\n', '--password-stdin: nothing was read from stdin'],
      [`c5-${a.id}@input.test`, [], {}, 'first line\nsecond line\n', '--password-stdin: stdin holds several lines; give the secret alone, on one line'],
    ];
    for (const [email, extra, env, input, message] of refusals) {
      const res = await run([...create(email), ...extra], env, input);
      expect([email, res.code, res.json?.error?.message]).toEqual([email, 2, expect.stringContaining(message)]);
      expect(await User.count({ where: { tenantId: a.tenantId, email } })).toBe(0);
    }
  });

  it('grid:configure takes the DataForSEO password and the Google Maps key from REVIEWGRID_DATAFORSEO_PASSWORD and REVIEWGRID_GOOGLE_MAPS_KEY', async () => {
    const a = await agency();
    const env = { REVIEWGRID_DATAFORSEO_PASSWORD: `dfs-${a.id}`, REVIEWGRID_GOOGLE_MAPS_KEY: `maps-${a.id}` };
    const live = await run(['grid:configure', '--tenant', a.domain, '--mode', 'live', '--dataforseo-login', 'dfs-login'], env);
    expect([live.code, live.json]).toEqual([0, { tenant: { id: a.tenantId }, grid_providers: { mode: 'live', dataforseo_login: 'dfs-login' } }]);
    expect(live.stdout + live.stderr).not.toContain(env.REVIEWGRID_DATAFORSEO_PASSWORD);
    const row = (await GridProviderSetting.findByPk(a.tenantId))!;
    expect([decryptSecret(row.dataforseoPassword!), decryptSecret(row.googleMapsKey!)]).toEqual([env.REVIEWGRID_DATAFORSEO_PASSWORD, env.REVIEWGRID_GOOGLE_MAPS_KEY]);

    // The arguments win over the variables.
    const given = await run(['grid:configure', '--tenant', a.domain, '--mode', 'live', '--dataforseo-login', 'l', '--dataforseo-password', 'arg-p', '--google-maps-key', 'arg-k'], env);
    expect(given.code).toBe(0);
    await row.reload();
    expect([decryptSecret(row.dataforseoPassword!), decryptSecret(row.googleMapsKey!)]).toEqual(['arg-p', 'arg-k']);

    // The simulator with the variables still exported keeps no secret.
    const simulator = await run(['grid:configure', '--tenant', a.domain, '--mode', 'simulator'], env);
    expect(simulator.code).toBe(0);
    await row.reload();
    expect([row.mode, row.dataforseoPassword, row.googleMapsKey]).toEqual(['simulator', null, null]);

    // Live without either (no argument, no variable): the fields are named, as before.
    const missing = await run(['grid:configure', '--tenant', a.domain, '--mode', 'live', '--dataforseo-login', 'l']);
    expect(missing.code).toBe(2);
    expect(Object.keys(missing.json.error.fields).sort()).toEqual(['dataforseo_password', 'google_maps_key']);
  });

  it('--help names the variables and --password-stdin', async () => {
    // Commander wraps the descriptions at the terminal's width: compared with the white space run together.
    const help = async (command: string) => (await cli([command, '--help'])).stdout.replace(/\s+/g, ' ');
    const user = await help('user:create');
    expect(user).toContain('--password-stdin read the password from stdin (one line)');
    expect(user).toContain('(env: REVIEWGRID_PASSWORD)');
    const grid = await help('grid:configure');
    expect(grid).toContain('(env: REVIEWGRID_DATAFORSEO_PASSWORD)');
    expect(grid).toContain('(env: REVIEWGRID_GOOGLE_MAPS_KEY)');
  });
});
