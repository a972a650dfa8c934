import 'reflect-metadata';
import type { Sequelize } from 'sequelize-typescript';
import { createSequelize } from '../../src/db/connection';
import { databaseUrlFor } from './env';

let sequelize: Sequelize | null = null;
let users = 0;

/**
 * Connects this test file to its worker's database (created and migrated by global setup). Models bind to
 * one Sequelize instance, so several callers in one file share it.
 */
export function useDatabase(): () => Sequelize {
  beforeAll(() => {
    users += 1;
    sequelize ??= createSequelize({ url: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1'), poolMax: 5 });
  });
  afterAll(async () => {
    users -= 1;
    if (users === 0) {
      await sequelize?.close();
      sequelize = null;
    }
  });
  return () => {
    if (!sequelize) throw new Error('database not open');
    return sequelize;
  };
}
