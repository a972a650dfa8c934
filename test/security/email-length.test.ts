import { isAccountEmail, MAX_EMAIL_CHARS } from '../../src/domain/email';
import { Customer, User } from '../../src/models';
import * as account from '../../src/services/account.service';
import { principalFor } from '../../src/services/auth.service';
import { useApp } from '../support/app';
import { agencyTokenFor, ALL, makeTenant, makeWorld } from '../support/factories';
import { recordPatternRuns } from '../support/pattern-runs';

/**
 * An account's email is measured before its pattern is matched (src/domain/email.ts `isAccountEmail`): the pattern
 * `^[^\s@]+@[^\s@]+\.[^\s@]+$` backtracks in time growing with the square of the length, and POST
 * /api/agency/v1/customers and addTeamMember (src/services/{agency,admin}.service.ts) ran it on the whole value before
 * looking at its length: 80 KB held the event loop 5 s, 200 KB 44 s.
 *
 * No timed assertion: the address below (a run of dots between two `@`) takes the old pattern minutes, so on code that
 * matches before it measures, the REST test outlives Jest's 30 s timeout, and the service test sees the pattern run.
 */
describe('account emails: the length before the pattern', () => {
  const t = useApp();
  const INVALID = { email: ['The email must be a valid email address.'] };

  /** 200,000 characters; the old pattern's worst case (every dot a place to retry the domain's last part). */
  const hostile = `a@${'.'.repeat(199_997)}@`;
  /** An address of exactly `n` characters. */
  const addressOf = (n: number, tag: string) => {
    const domain = `@${tag}.test`;
    return `${'a'.repeat(n - domain.length)}${domain}`;
  };

  it('the hostile value is 200,000 characters', () => {
    expect(hostile).toHaveLength(200_000);
    expect(isAccountEmail(hostile)).toBe(false);
    expect(isAccountEmail(addressOf(MAX_EMAIL_CHARS, 'x'))).toBe(true);
    expect(isAccountEmail(addressOf(MAX_EMAIL_CHARS + 1, 'x'))).toBe(false);
    // Characters, not UTF-16 units: 255 emoji are 255 characters (510 units), as the VARCHAR(255) counts them.
    expect(isAccountEmail(`${'😀'.repeat(MAX_EMAIL_CHARS - 7)}@x.test`)).toBe(true);
    expect(isAccountEmail(`${'😀'.repeat(MAX_EMAIL_CHARS - 6)}@x.test`)).toBe(false);
  });

  describe('POST /api/agency/v1/customers', () => {
    async function agencyWorld() {
      const { tenant, plan, owner } = await makeTenant();
      return { tenant, plan, token: await agencyTokenFor(owner) };
    }
    const body = (planId: number, email: string) => ({
      name: 'Dana Dentist',
      company: 'Bright Smiles Dental',
      email,
      password: 'correct horse',
      custom_plan_id: String(planId),
    });

    it('a 200,000-character email is 422 errors.email, and nothing is created', async () => {
      const w = await agencyWorld();
      const res = await t.as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, hostile));
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: INVALID.email[0], errors: INVALID });
      expect(await Customer.count({ where: { tenantId: w.tenant.id } })).toBe(1); // the agency's own account only
    });

    it('an address of 255 characters is taken; 256 is 422 errors.email', async () => {
      const w = await agencyWorld();
      const at = await t.as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, addressOf(MAX_EMAIL_CHARS, `c${w.tenant.id}`)));
      expect(at.status).toBe(201);
      const over = await t.as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, addressOf(MAX_EMAIL_CHARS + 1, `d${w.tenant.id}`)));
      expect(over.status).toBe(422);
      expect(over.body.errors).toEqual(INVALID);
      expect(await Customer.count({ where: { tenantId: w.tenant.id } })).toBe(2);
    });
  });

  describe('addTeamMember (src/services/account.service.ts, through createUser)', () => {
    // GraphQL's `addTeamMember` input is refused by class-validator's IsEmail (254 characters at most) before the
    // service: the service is called directly, as the operator CLI and the agency API reach createUser.
    it('a 200,000-character email is a validation error on `email`; no pattern ever sees it', async () => {
      const w = await makeWorld();
      const p = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: ALL });
      // A pattern run on the value would take minutes and then answer the same error: the guard records such a run
      // (and skips it, so this test answers at once on code that matches before it measures).
      const patterns = recordPatternRuns(hostile.slice(0, 1000), 10 * MAX_EMAIL_CHARS);
      try {
        const members = await User.count({ where: { tenantId: w.tenant.id } });
        await expect(
          account.addTeamMember(p, { organizationId: w.org.id, email: hostile, name: 'Long Mail', locationIds: [w.home.id], permissions: [] }),
        ).rejects.toMatchObject({ code: 'VALIDATION', fields: INVALID });
        expect(patterns.runs).toEqual([]);
        expect(await User.count({ where: { tenantId: w.tenant.id } })).toBe(members);
      } finally {
        patterns.restore();
      }
    });

    it('a well-formed address is still added', async () => {
      const w = await makeWorld();
      const p = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: ALL });
      const member = await account.addTeamMember(p, { organizationId: w.org.id, email: `New.Member-${w.tenant.id}@Example.test`, name: 'New', locationIds: [w.home.id], permissions: [] });
      expect(member.email).toBe(`new.member-${w.tenant.id}@example.test`);
    });
  });
});
