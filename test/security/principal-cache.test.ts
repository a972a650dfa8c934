import { setTimeout as sleep } from 'node:timers/promises';
import { Unauthenticated } from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import { ApiToken } from '../../src/models';
import { revokeOwnToken, setTeamMemberAccess } from '../../src/services/account.service';
import { authenticate, hashToken } from '../../src/services/auth.service';
import { PrincipalCache, principals, setPrincipalCacheTtl } from '../../src/services/principal-cache';
import { useDatabase } from '../support/db';
import { makeLocation, makeOrganization, makeOrgOwner, makeTeamMember, makeTenant, tokenFor } from '../support/factories';

/**
 * Token lookups are kept per process for AUTH_CACHE_TTL_MS (src/services/principal-cache.ts, docs/decisions/security.md):
 * a burst of requests costs one lookup; a change made through this process's models takes effect at once, one made
 * elsewhere within the TTL, and a revocation answers only once it holds everywhere.
 */
describe('principal cache (token lookups per process)', () => {
  const db = useDatabase();
  // Long enough that the steps within it never outlast it on a loaded machine.
  const TTL = 1000;
  beforeAll(() => setPrincipalCacheTtl(TTL));
  afterAll(() => setPrincipalCacheTtl(undefined));

  async function owner() {
    const { tenant } = await makeTenant();
    const user = await makeOrgOwner(tenant.id);
    const secret = await tokenFor(user);
    // The lookup's bookkeeping (last_used_at) is done: the counts below are of lookups only.
    await ApiToken.update({ lastUsedAt: new Date() }, { where: { tokenHash: hashToken(secret) } });
    return { tenant, user, secret };
  }

  it('answers a burst of requests without a lookup, and sees a change made elsewhere once the TTL has passed', async () => {
    const { secret } = await owner();
    const first = await authenticate(secret);
    // Another process revokes it (a statement this process's models do not see). A lookup would refuse the token: the
    // requests within the TTL are answered from the cache, the same principal each time.
    await db().query('UPDATE api_tokens SET revoked_at = NOW(3) WHERE token_hash = ?', { replacements: [hashToken(secret)] });
    for (let i = 0; i < 20; i++) expect(await authenticate(secret)).toBe(first);
    await sleep(TTL + 50);
    await expect(authenticate(secret)).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('refuses a token revoked through this process at once, and the revocation answers only after the TTL', async () => {
    const { secret } = await owner();
    const p = await authenticate(secret);
    const started = performance.now();
    await revokeOwnToken(p, p.tokenId);
    // Every other process has let its copy go by the time the revocation answers.
    expect(performance.now() - started).toBeGreaterThanOrEqual(TTL - 5);
    await expect(authenticate(secret)).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('applies a team member access change made through this process at once', async () => {
    const { tenant, user } = await owner();
    const org = await makeOrganization(user);
    const [home, branch] = [await makeLocation(org), await makeLocation(org)];
    const member = await makeTeamMember(tenant.id, org, [home]);
    const memberSecret = await tokenFor(member);
    expect([...(await authenticate(memberSecret)).assignedLocationIds]).toEqual([home.id]);
    const ownerPrincipal = await authenticate(await tokenFor(user));
    await setTeamMemberAccess(ownerPrincipal, { userId: member.id, organizationId: org.id, locationIds: [branch.id], permissions: [] });
    expect([...(await authenticate(memberSecret)).assignedLocationIds]).toEqual([branch.id]);
  });

  it('does not keep what a lookup read while a transaction was changing the token (emptied again at the commit)', async () => {
    const { secret } = await owner();
    await authenticate(secret);
    const transaction = await db().transaction();
    await ApiToken.update({ revokedAt: new Date() }, { where: { tokenHash: hashToken(secret) }, transaction });
    // Read outside the transaction: the row as committed, not revoked yet; the answer is stored.
    await expect(authenticate(secret)).resolves.toMatchObject({ tokenKind: 'customer' });
    expect(principals.get(hashToken(secret))).toBeDefined();
    await transaction.commit();
    await expect(authenticate(secret)).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('keeps its principals through the lookup bookkeeping (last_used_at)', async () => {
    const { secret } = await owner();
    await authenticate(secret);
    await ApiToken.update({ lastUsedAt: new Date() }, { where: { tokenHash: hashToken(secret) } });
    expect(principals.get(hashToken(secret))).toBeDefined();
  });

  it('checks the expiry on every request, and an expired token is refused though kept', async () => {
    const { user } = await owner();
    const expiresAt = new Date(Date.now() + 60_000);
    const secret = await tokenFor(user, undefined, 'customer', expiresAt);
    await authenticate(secret);
    const later = { now: () => new Date(expiresAt.getTime() + 1) };
    await expect(authenticate(secret, { clock: later })).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('stores no answer of a lookup that began before the cache was emptied, keeps nothing with a TTL of 0, and forgets after the TTL', () => {
    let now = 0;
    let ttl = 100;
    const cache = new PrincipalCache(() => ttl, 2, () => now);
    const principal = { tokenId: 1 } as Principal;
    const mark = cache.mark();
    cache.clear();
    cache.store('a', principal, mark);
    expect(cache.get('a')).toBeUndefined();
    cache.store('a', principal, cache.mark());
    expect(cache.get('a')).toBe(principal);
    now = 100;
    expect(cache.get('a')).toBeUndefined();
    // At most `max` entries: the oldest goes first.
    for (const k of ['x', 'y', 'z']) cache.store(k, principal, cache.mark());
    expect([cache.get('x'), cache.get('y'), cache.get('z')]).toEqual([undefined, principal, principal]);
    ttl = 0;
    cache.store('b', principal, cache.mark());
    expect(cache.get('b')).toBeUndefined();
  });
});
