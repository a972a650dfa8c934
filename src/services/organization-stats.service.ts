import { QueryTypes } from 'sequelize';
import type { Principal } from '../domain/principal';
import { Organization } from '../models';
import { scopeSql } from './common';

export interface OrganizationStats {
  organizationId: number;
  reviewCount: number;
  /** Mean star rating, two decimals; null without reviews. */
  averageRating: number | null;
  /** Reviews per star rating, 5 to 1. */
  starDistribution: { five: number; four: number; three: number; two: number; one: number };
}

/**
 * Review totals of organisations over the reviews the caller may see (a team member: assigned locations only),
 * from `review_counts` (kept by triggers), so a page of organisations costs one small aggregate, not a scan.
 */
export async function statsFor(p: Principal, organizationIds: readonly number[]): Promise<OrganizationStats[]> {
  const rows = organizationIds.length
    ? await Organization.sequelize!.query<{ organizationId: number; rating: number; n: string | number }>(
        `SELECT c.organization_id AS organizationId, c.rating, SUM(c.n) AS n FROM review_counts c
         WHERE c.organization_id IN (:ids) AND ${scopeSql(p, 'c')} GROUP BY c.organization_id, c.rating`,
        { replacements: { ids: [...organizationIds] }, type: QueryTypes.SELECT },
      )
    : [];
  return organizationIds.map((organizationId) => {
    const byRating = new Map<number, number>();
    for (const r of rows) if (Number(r.organizationId) === organizationId) byRating.set(Number(r.rating), Number(r.n));
    const count = (star: number) => Math.max(0, byRating.get(star) ?? 0);
    const reviewCount = [1, 2, 3, 4, 5].reduce((s, star) => s + count(star), 0);
    const sum = [1, 2, 3, 4, 5].reduce((s, star) => s + star * count(star), 0);
    return {
      organizationId,
      reviewCount,
      averageRating: reviewCount ? Math.round((sum / reviewCount) * 100) / 100 : null,
      starDistribution: { five: count(5), four: count(4), three: count(3), two: count(2), one: count(1) },
    };
  });
}
