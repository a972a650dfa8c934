import mysql from 'mysql2/promise';
import { DataTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ALL_MODELS } from '../models/all';
import { watchPrincipalChanges } from '../services/principal-cache';

export interface DbOptions {
  url: string;
  poolMax?: number;
  logging?: false | ((sql: string) => void);
}

/** Splits `mysql://user:pass@host:port/db` into the server URL and the database name. */
export function parseDatabaseUrl(url: string): { serverUrl: string; database: string } {
  const u = new URL(url);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!database) throw new Error(`DATABASE_URL has no database name: ${u.protocol}//${u.host}`);
  if (!/^[A-Za-z0-9_]+$/.test(database)) throw new Error(`Unsupported database name: ${database}`);
  u.pathname = '/';
  return { serverUrl: u.toString(), database };
}

/** Creates the database when it is missing (the embedded default and tests start from nothing). */
export async function ensureDatabase(url: string): Promise<void> {
  const { serverUrl, database } = parseDatabaseUrl(url);
  const conn = await mysql.createConnection(serverUrl);
  try {
    await conn.query(`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await conn.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const { serverUrl, database } = parseDatabaseUrl(url);
  const conn = await mysql.createConnection(serverUrl);
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${database}\``);
  } finally {
    await conn.end();
  }
}

export function createSequelize(opts: DbOptions): Sequelize {
  const sequelize = new Sequelize(opts.url, {
    dialect: 'mysql',
    logging: opts.logging ?? false,
    timezone: '+00:00',
    dialectOptions: {
      dateStrings: false,
      // The driver's own timezone, UTC like the session's (`timezone` above, which Sequelize sets with SET time_zone).
      // 'Z' rather than '+00:00': with 'Z' mysql2 builds a DATETIME's Date from its fields (Date.UTC), with an offset it
      // formats a string and parses it, about 10 µs of a REST detail request's 260 in a CPU profile of `npm run bench`
      // (2026-12-04). Parameters are written in UTC either way.
      timezone: 'Z',
      supportBigNumbers: true,
      // Prepared statements are cached per connection; the server's limit is global, so each connection keeps few.
      maxPreparedStatements: 100,
      // mysql2's own compiled row parsers (DATETIME to Date in the connection's UTC timezone) instead of
      // Sequelize's per-field typeCast callback, which parses every DATETIME through a string and a new Date and
      // dominated the CPU profile of a page of reviews. Our schema has no DATE-only or GEOMETRY columns, the
      // only other types that callback handles.
      typeCast: true,
    },
    pool: { max: opts.poolMax ?? 10, min: 0, idle: 10_000 },
    define: { underscored: true, timestamps: true },
    hooks: {
      // The created_at/updated_at columns are DATETIME(3); Sequelize's implicit timestamp attributes would be
      // written without milliseconds, so a write's answer would not match a later read of the same row.
      beforeDefine(attributes, options) {
        if (options.timestamps === false) return;
        for (const key of ['createdAt', 'updatedAt'] as const) {
          if (options[key] !== false && !attributes[key]) attributes[key] = { type: DataTypes.DATE(3), allowNull: false };
        }
      },
    },
    models: [...ALL_MODELS],
  });
  watchPrincipalChanges(sequelize);
  return sequelize;
}
