import { QueryTypes } from 'sequelize';
import { publishAutoResponse } from '../../src/jobs/auto-respond-runs';
import { AutoRespondRun, Review } from '../../src/models';
import { useApp } from '../support/app';
import { customSourceOf, makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { waitUntil } from '../support/wait';
import { graphql, pendingRun, setAutoRespondFeature } from './support';

const LOCK_POLL_MS = 200;
const HOOK = 'delete-race-hold';

/**
 * DELETE /api/v1/reviews/{id} (custom and testimonial reviews) while the review's auto-response is being published.
 * Both lock the review, then the run (the deletion through ON DELETE CASCADE), so they wait for each other instead
 * of deadlocking (MariaDB rolling one back: a 500 for the deletion, or a failed publish). Deterministic: a hook holds
 * the deletion after it locked the review and before its DELETE; the publish starts then, and the test waits for it
 * to be blocked on the review's lock (InnoDB's LOCK WAIT state) before letting the deletion go on.
 */
describe('auto-respond: a review deleted while its auto-response is published', () => {
  const t = useApp();
  const gql = graphql(t);

  afterEach(() => {
    Review.removeHook('beforeDestroy', HOOK);
  });

  /**
   * Whether a transaction of this worker's database waits for the review row's lock (by the lock asked for, not the
   * statement: INNODB_TRX cuts a statement off at 1024 characters, before a full review SELECT reaches its FROM).
   */
  const waitsForReview = async (reviewId: number): Promise<boolean> => {
    const rows = await t.db().query(
      `SELECT l.lock_data FROM information_schema.INNODB_TRX x
         JOIN information_schema.PROCESSLIST p ON p.ID = x.trx_mysql_thread_id
         JOIN information_schema.INNODB_LOCKS l ON l.lock_id = x.trx_requested_lock_id
        WHERE x.trx_state = 'LOCK WAIT' AND p.DB = DATABASE() AND l.lock_table = CONCAT('\`', DATABASE(), '\`.\`reviews\`')
          AND l.lock_index = 'PRIMARY' AND l.lock_data = :id`,
      { type: QueryTypes.SELECT, replacements: { id: String(reviewId) } },
    );
    return rows.length > 0;
  };

  /** The next deletion of `reviewId` stops in its transaction, the review locked, until released. */
  function holdDeletion(reviewId: number) {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    Review.addHook('beforeDestroy', HOOK, async (review: Review) => {
      if (review.id !== reviewId) return;
      arrived();
      await released;
    });
    return { reached, release };
  }

  for (const kind of ['custom', 'testimonial'] as const) {
    it(`a ${kind} review: the deletion answers 200 and the publish skips it (review_deleted), no deadlock`, async () => {
      const w = await makeWorld();
      await setAutoRespondFeature(w.orgOwner.customerId!, true);
      const source = kind === 'custom' ? await customSourceOf(w.home) : await testimonialsOf(w.home);
      const review = await makeReview(source, { author: 'Ada Lovelace', rating: 5 });
      await pendingRun(gql, w, review.id);

      const { reached, release } = holdDeletion(review.id);
      const deleting = t.http().delete(`/api/v1/reviews/${review.id}`).set('Authorization', `Bearer ${w.tokens.orgOwner}`).then((res) => res);
      await reached; // the deletion holds the review's lock

      let settled = false;
      const publishing = publishAutoResponse({ reviewId: review.id, message: 'Thank you, Ada!', usedAi: false })
        .catch((e: unknown) => e)
        .finally(() => (settled = true));
      // The publish waits for the review's lock (holding the run's, before the fix).
      await waitUntil(async () => settled || (await waitsForReview(review.id)), 30_000, LOCK_POLL_MS);
      expect(settled).toBe(false);

      release();
      const res = await deleting;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Review deleted successfully.' });
      expect(await publishing).toEqual({ status: 'skipped', reason: 'review_deleted' });
      expect(await Review.findByPk(review.id)).toBeNull();
      expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toBeNull();
    });
  }
});
