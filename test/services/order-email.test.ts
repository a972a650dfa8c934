import { MAX_EMAIL_CHARS } from '../../src/domain/email';
import { NfcOrder } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeOrder, makeTenant } from '../support/factories';
import { recordPatternRuns } from '../support/pattern-runs';

/**
 * An NFC order's email (createOrder in src/services/orders.service.ts, reached by `reviewgrid order:create`) is
 * measured before its pattern is matched, as an account's is (isAccountEmail in src/domain/email.ts): the pattern
 * `^[^\s@]+@[^\s@]+\.[^\s@]+$` backtracks in time growing with the square of the length, and the old check ran it
 * on the whole value first, so a 200,000-character value held the event loop for minutes.
 *
 * No timed assertion: a pattern run on the long value is recorded (and skipped, so this test answers at once on code
 * that matches before it measures); the answer must be the documented refusal.
 */
describe('createOrder: the email is measured before its pattern', () => {
  useDatabase();
  const INVALID = { email: ['The email must be a valid email address.'] };
  /** 200,000 characters; the pattern's worst case (every dot a place to retry the domain's last part). */
  const hostile = `a@${'.'.repeat(199_997)}@`;

  it('refuses a 200,000-character email with errors.email, no pattern ever seeing it, and stores nothing', async () => {
    const { tenant } = await makeTenant();
    const patterns = recordPatternRuns(hostile.slice(0, 1000), 10 * MAX_EMAIL_CHARS);
    try {
      expect(hostile).toHaveLength(200_000);
      await expect(makeOrder(tenant.id, { email: hostile })).rejects.toMatchObject({ code: 'VALIDATION', fields: INVALID });
      expect(patterns.runs).toEqual([]);
      expect(await NfcOrder.count({ where: { tenantId: tenant.id } })).toBe(0);
    } finally {
      patterns.restore();
    }
  });

  it('takes an address of 255 characters and refuses 256', async () => {
    const { tenant } = await makeTenant();
    const addressOf = (n: number) => `${'a'.repeat(n - `@t${tenant.id}.test`.length)}@t${tenant.id}.test`;
    const order = await makeOrder(tenant.id, { email: addressOf(MAX_EMAIL_CHARS) });
    expect(order.email).toHaveLength(MAX_EMAIL_CHARS);
    await expect(makeOrder(tenant.id, { email: addressOf(MAX_EMAIL_CHARS + 1) })).rejects.toMatchObject({ code: 'VALIDATION', fields: INVALID });
  });
});
