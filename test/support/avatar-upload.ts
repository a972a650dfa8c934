import type { Response } from 'supertest';
import { testimonialsOf, type makeWorld } from './factories';
import type { TestApp } from './app';

/**
 * `POST /api/v1/reviews` as multipart with `bytes` as the avatar (`face.svg`): a testimonial of the world's home
 * location, written by its organisation owner; the answer as supertest has it.
 */
export async function postReviewWithAvatar(t: Pick<TestApp, 'http'>, w: Awaited<ReturnType<typeof makeWorld>>, author: string, bytes: Buffer): Promise<Response> {
  const src = await testimonialsOf(w.home);
  return t
    .http()
    .post('/api/v1/reviews')
    .set('Authorization', `Bearer ${w.tokens.orgOwner}`)
    .field('author', author)
    .field('rating', '5')
    .field('published_on', '2026-04-01')
    .field('organization_id', String(w.org.id))
    .field('location_id', String(w.home.id))
    .field('source', String(src.id))
    .attach('avatar', bytes, 'face.svg');
}
