import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/bootstrap';
import { appKey, appKeyId, verifyAppKey } from '../../src/crypto/secrets';
import { dropDatabase } from '../../src/db/connection';
import { databaseUrlFor } from '../support/env';

/**
 * Issue 13: one APP_KEY per installation. A process that starts with another key is refused at boot with a clear
 * message, and production never falls back to a per-container generated key.
 */
describe('APP_KEY at boot', () => {
  const url = databaseUrlFor(`appkey_${process.env.JEST_WORKER_ID ?? '1'}`);
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);

  afterAll(() => dropDatabase(url));

  it('refuses to run in production without APP_KEY instead of generating a key file', () => {
    expect(() => appKey({ NODE_ENV: 'production', DATA_DIR: '/nonexistent' })).toThrow(/APP_KEY is not set/);
    expect(appKey({ NODE_ENV: 'production', APP_KEY: keyA.toString('base64') })).toEqual(keyA);
  });

  it('refuses an unmigrated database with a pointer to db:migrate', async () => {
    await dropDatabase(url);
    const sequelize = await openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 }, { migrate: false });
    try {
      await expect(verifyAppKey(sequelize, keyA)).rejects.toThrow(/not migrated yet.*db:migrate/);
    } finally {
      await sequelize.close();
    }
  });

  it('records the first key id, accepts the same key again and refuses another key naming both ids', async () => {
    const sequelize = await openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 });
    try {
      await verifyAppKey(sequelize, keyA);
      await verifyAppKey(sequelize, keyA);
      const err = await verifyAppKey(sequelize, keyB).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toContain('APP_KEY mismatch');
      expect((err as Error).message).toContain(appKeyId(keyA));
      expect((err as Error).message).toContain(appKeyId(keyB));
      expect((err as Error).message).not.toContain(keyA.toString('base64'));
    } finally {
      await sequelize.close();
    }
  });

  it('openDatabase with verifyAppKey closes the pool and rejects when the key differs', async () => {
    const saved = process.env.APP_KEY;
    process.env.APP_KEY = keyB.toString('base64');
    try {
      await expect(openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 }, { verifyAppKey: true })).rejects.toThrow(/APP_KEY mismatch/);
      process.env.APP_KEY = keyA.toString('base64');
      const ok = await openDatabase({ DATABASE_URL: url, DATABASE_POOL_MAX: 2 }, { verifyAppKey: true });
      await ok.close();
    } finally {
      if (saved === undefined) delete process.env.APP_KEY;
      else process.env.APP_KEY = saved;
    }
  });
});
