import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize';
import { loadConfig } from '../config';

/**
 * Encryption of secrets at rest (provider access and refresh tokens): AES-256-GCM with a random 96-bit IV per
 * value; the stored text is `v1.<iv>.<tag>.<ciphertext>` (base64url parts), so a tampered value fails to decrypt.
 *
 * The key is `APP_KEY` (base64 of 32 bytes); unset, one is generated once and kept in `${DATA_DIR}/app.key` with
 * mode 0600, so the embedded default works out of the box and keeps its tokens across restarts. Several API
 * processes must share one `APP_KEY`.
 */

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

let cached: { source: string; key: Buffer } | null = null;

function parseKey(text: string, origin: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${origin} must be base64 of ${KEY_BYTES} bytes (got ${key.length} bytes).`);
  return key;
}

/** Reads (or creates, once) the key file. Creation is exclusive, so two processes starting together agree. */
function keyFromFile(file: string): Buffer {
  try {
    return parseKey(fs.readFileSync(file, 'utf8'), file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fresh = randomBytes(KEY_BYTES).toString('base64');
  try {
    fs.writeFileSync(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return parseKey(fs.readFileSync(file, 'utf8'), file);
}

/** The application key (cached per source, so a test that changes `APP_KEY` gets the new one). */
export function appKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const config = loadConfig(env);
  const source = config.APP_KEY ? `env:${config.APP_KEY}` : `file:${path.join(config.DATA_DIR, 'app.key')}`;
  if (cached?.source === source) return cached.key;
  if (!config.APP_KEY && config.NODE_ENV === 'production') {
    // A generated per-container key file would give every process its own key: nothing one encrypts, another reads.
    throw new Error('APP_KEY is not set: in production every API and worker process must share one key (base64 of 32 bytes, e.g. `openssl rand -base64 32`, in .env).');
  }
  const key = config.APP_KEY ? parseKey(config.APP_KEY, 'APP_KEY') : keyFromFile(path.join(config.DATA_DIR, 'app.key'));
  cached = { source, key };
  return key;
}

export function encryptSecret(plain: string, key: Buffer = appKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** Decrypts what `encryptSecret` wrote; throws on a wrong key or a tampered value. */
export function decryptSecret(stored: string, key: Buffer = appKey()): string {
  const parts = stored.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('Not an encrypted secret of a known version.');
  const [, iv, tag, body] = parts;
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A keyed MAC for values the server hands out and later checks (CSRF tokens, simulator codes). */
export function mac(purpose: string, value: string, key: Buffer = appKey()): string {
  return createHmac('sha256', key).update(`${purpose}\0${value}`).digest('base64url');
}

const APP_KEY_CHECK = 'app_key_check';

/** A short public id of a key (a MAC of a fixed text, so it reveals nothing of the key). */
export const appKeyId = (key: Buffer = appKey()): string => mac('app-key-check', 'reviewgrid', key).slice(0, 12);

/**
 * Boot check of API and worker processes: the first process records the key's id in `system_settings`; a process
 * with another key (not shared through APP_KEY, or a lost key file) is refused with a clear message instead of
 * writing secrets that the other processes cannot read.
 */
export async function verifyAppKey(sequelize: Sequelize, key: Buffer = appKey()): Promise<void> {
  const id = appKeyId(key);
  try {
    await sequelize.query('INSERT IGNORE INTO system_settings (name, value, updated_at) VALUES (?, ?, NOW(3))', {
      replacements: [APP_KEY_CHECK, id],
      type: QueryTypes.INSERT,
      logging: false,
    });
  } catch (e) {
    if ((e as { original?: { code?: string } }).original?.code === 'ER_NO_SUCH_TABLE') {
      throw new Error('The database is not migrated yet (no system_settings table): run `reviewgrid db:migrate` first.');
    }
    throw e;
  }
  const rows = await sequelize.query<{ value: string }>('SELECT value FROM system_settings WHERE name = ?', {
    replacements: [APP_KEY_CHECK],
    type: QueryTypes.SELECT,
    logging: false,
  });
  const stored = rows[0]?.value;
  if (stored !== id) {
    throw new Error(
      `APP_KEY mismatch: this process's key has id ${id}, but the database's secrets were encrypted with key id ${stored}; every API and worker process must use the same APP_KEY.`,
    );
  }
}
