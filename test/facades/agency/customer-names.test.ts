import { Customer } from '../../../src/models';
import { useApp } from '../../support/app';
import { agencyWorld, newCustomerBody } from '../../support/agency-customers';

/** POST /api/agency/v1/customers: `name` and `company` follow the rules of every name, each under its own field. */
describe('agency API: the names of a new customer', () => {
  const t = useApp();

  const body = newCustomerBody;

  it.each([
    ['a line break', 'Bright\nSmiles'],
    ['a NUL', 'Bright\u0000Smiles'],
    ['an escape', 'Bright\u001bSmiles'],
  ])('reports a company with %s under `company` (422), and creates nothing', async (_label, company) => {
    const w = await agencyWorld();
    const res = await t.as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { company }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ company: ['The company may not contain control characters.'] });
    expect(await Customer.count({ where: { tenantId: w.tenant.id } })).toBe(1); // the agency's own account only
  });

  it('reports every bad field in one answer: a name with a control character, a company too long, a bad email', async () => {
    const w = await agencyWorld();
    const res = await t.as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name: 'Dana\tDentist', company: 'x'.repeat(256), email: 'nope' }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      name: ['The name may not contain control characters.'],
      company: ['The company may not be greater than 255 characters.'],
      email: ['The email must be a valid email address.'],
    });
    expect(await Customer.count({ where: { tenantId: w.tenant.id } })).toBe(1);
  });

  it('still takes a name and a company with surrounding spaces, trimmed', async () => {
    const w = await agencyWorld();
    const res = await t.as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name: '  Dana  ', company: '  Bright Smiles  ' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Dana', organizations: [{ id: expect.any(Number), name: 'Bright Smiles' }] });
  });
});
