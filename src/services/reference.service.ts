import { Country, ReviewSource, User } from '../models';
import { NotFound } from '../domain/errors';
import type { Principal } from '../domain/principal';

let catalogue: Promise<ReviewSource[]> | null = null;

/**
 * The review-source catalogue. It changes only through migrations, so each process reads it once;
 * a deploy that migrates it restarts the processes.
 */
export function sources(): Promise<ReviewSource[]> {
  catalogue ??= ReviewSource.findAll({ order: [['id', 'ASC']] }).catch((e) => {
    catalogue = null;
    throw e;
  });
  return catalogue;
}

export function countries(): Promise<Country[]> {
  return Country.findAll({ order: [['name', 'ASC']] });
}

export async function me(p: Principal): Promise<User> {
  const user = await User.findByPk(p.userId);
  if (!user) throw new NotFound('User');
  return user;
}
