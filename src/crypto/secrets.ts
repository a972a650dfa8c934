import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize';
import { loadConfig } from '../config';

/**
 * Encryption of secrets at rest (provider tokens, webhook signing secrets, SMTP passwords, SMS auth tokens, grid
 * provider keys, inbound signing secrets): AES-256-GCM with a random 96-bit IV per value; the stored text is
 * `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts), so a tampered value fails to decrypt and the key that
 * reads it is named. Values written before key ids (`v1.<iv>.<tag>.<ciphertext>`) are still read.
 *
 * The keys are a ring: `APP_KEYS` (`id:base64,id:base64`, oldest first, the last one current), or `APP_KEY` alone
 * (a ring of one); unset, one key is generated once and kept in `${DATA_DIR}/app.key` with mode 0600, so the
 * embedded default works out of the box. New values use the newest key; every key reads. `reviewgrid
 * secrets:rotate` re-encrypts every stored secret under the newest key (docs/security.md, "Key rotation").
 */

const V1 = 'v1';
const V2 = 'v2';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/**
 * One key of the ring: its id (stored with every value it encrypts), its 32 bytes, and its fingerprint (`appKeyId`,
 * derived from the bytes: the id of a key given as `APP_KEY`, and what the boot check records).
 */
export interface RingKey {
  id: string;
  key: Buffer;
  fingerprint: string;
}

/** The keys a process holds, oldest first; the last one encrypts and signs, every one decrypts and verifies. */
export interface Keyring {
  keys: RingKey[];
  newest: RingKey;
}

let cached: { source: string; ring: Keyring; env: NodeJS.ProcessEnv; raw: string } | null = null;

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

/** A short public id of a key (a MAC of a fixed text, so it reveals nothing of the key). */
export const appKeyId = (key: Buffer = appKey()): string => createHmac('sha256', key).update('app-key-check\0reviewgrid').digest('base64url').slice(0, 12);

/**
 * `APP_KEYS`: comma-separated `id:base64key` entries, oldest first, the last one current (ids: letters, digits, `_`,
 * `-`, up to 32). Parsing errors name the entry, never its key.
 */
export function parseKeyring(text: string): Keyring {
  const keys: RingKey[] = [];
  for (const [i, entry] of text.split(',').map((e) => e.trim()).filter(Boolean).entries()) {
    const at = entry.indexOf(':');
    const id = at > 0 ? entry.slice(0, at) : '';
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new Error(`APP_KEYS entry ${i + 1} must be <id>:<base64 key> with an id of letters, digits, _ or - (up to 32).`);
    if (keys.some((k) => k.id === id)) throw new Error(`APP_KEYS names key id ${id} twice.`);
    const key = parseKey(entry.slice(at + 1), `APP_KEYS key ${id}`);
    keys.push({ id, key, fingerprint: appKeyId(key) });
  }
  if (keys.length === 0) throw new Error('APP_KEYS is set but holds no key.');
  return { keys, newest: keys[keys.length - 1] };
}

/**
 * The process's keyring (cached per source, so a test that changes the environment gets the new one): `APP_KEYS`;
 * else `APP_KEY` as a ring of one (its id derived from the key); else, outside production, the key file.
 */
export function keyring(env: NodeJS.ProcessEnv = process.env): Keyring {
  // The variables the ring comes from, as they are now: unchanged, so is the ring, without reading every variable
  // (`loadConfig`'s check; the links' HMACs ask per message).
  const raw = [env.APP_KEYS, env.APP_KEY, env.DATA_DIR, env.NODE_ENV].map((v) => v ?? '\u0000').join('\u0001');
  if (cached && cached.env === env && cached.raw === raw) return cached.ring;
  const config = loadConfig(env);
  const source = config.APP_KEYS ? `keys:${config.APP_KEYS}` : config.APP_KEY ? `env:${config.APP_KEY}` : `file:${path.join(config.DATA_DIR, 'app.key')}`;
  if (cached?.source === source) {
    cached = { ...cached, env, raw };
    return cached.ring;
  }
  if (!config.APP_KEYS && !config.APP_KEY && config.NODE_ENV === 'production') {
    // A generated per-container key file would give every process its own key: nothing one encrypts, another reads.
    throw new Error('APP_KEY is not set: in production every API and worker process must share one key (base64 of 32 bytes, e.g. `openssl rand -base64 32`, in .env), or a ring in APP_KEYS.');
  }
  let ring: Keyring;
  if (config.APP_KEYS) ring = parseKeyring(config.APP_KEYS);
  else {
    const key = config.APP_KEY ? parseKey(config.APP_KEY, 'APP_KEY') : keyFromFile(path.join(config.DATA_DIR, 'app.key'));
    const one = { id: appKeyId(key), key, fingerprint: appKeyId(key) };
    ring = { keys: [one], newest: one };
  }
  cached = { source, ring, env, raw };
  return ring;
}

/** The current application key (the newest of the ring). */
export function appKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  return keyring(env).newest.key;
}

const ringOf = (key: Buffer | Keyring | undefined): Keyring => {
  if (!key) return keyring();
  if (Buffer.isBuffer(key)) {
    const one = { id: appKeyId(key), key, fingerprint: appKeyId(key) };
    return { keys: [one], newest: one };
  }
  return key;
};

/** `v2.<key id>.<iv>.<tag>.<ciphertext>` under the newest key (AES-256-GCM, random 96-bit IV). */
export function encryptSecret(plain: string, key?: Buffer | Keyring): string {
  const { newest } = ringOf(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', newest.key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [V2, newest.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

function open(key: Buffer, iv: string, tag: string, body: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Whether a stored value is an encrypted secret (of any version). */
export const isEncrypted = (stored: string): boolean => /^v1\.[^.]+\.[^.]+\.[^.]*$/.test(stored) || /^v2\.[A-Za-z0-9_-]{1,32}\.[^.]+\.[^.]+\.[^.]*$/.test(stored);

/** The id of the key a stored value is under (null for v1 values, which name none). */
export const keyIdOf = (stored: string): string | null => (stored.startsWith(`${V2}.`) ? stored.split('.')[1] : null);

/**
 * Decrypts what `encryptSecret` wrote, under whichever key of the ring it names (v1 values, written before key
 * ids, are tried under each key); throws on an unknown key id, a wrong key or a tampered value.
 */
export function decryptSecret(stored: string, key?: Buffer | Keyring): string {
  const ring = ringOf(key);
  const parts = stored.split('.');
  if (parts[0] === V2 && parts.length === 5) {
    const [, id, iv, tag, body] = parts;
    // By id, or by fingerprint: a key first given as APP_KEY wrote its fingerprint as the id.
    const k = ring.keys.find((x) => x.id === id) ?? ring.keys.find((x) => x.fingerprint === id);
    if (!k) throw new Error(`The secret is encrypted under key id ${id}, which this process does not hold (APP_KEYS).`);
    try {
      return open(k.key, iv, tag, body);
    } catch {
      throw new Error(`The secret does not decrypt under key id ${id}: that id names a different key here than when it was written.`);
    }
  }
  if (parts[0] === V1 && parts.length === 4) {
    const [, iv, tag, body] = parts;
    for (const k of [...ring.keys].reverse()) {
      try {
        return open(k.key, iv, tag, body);
      } catch {
        // the next key
      }
    }
    throw new Error('The secret could not be decrypted with any key of the ring.');
  }
  throw new Error('Not an encrypted secret of a known version.');
}

/** A keyed MAC for values the server hands out and later checks (CSRF tokens, link tokens), under the newest key. */
export function mac(purpose: string, value: string, key?: Buffer | Keyring): string {
  return createHmac('sha256', ringOf(key).newest.key).update(`${purpose}\0${value}`).digest('base64url');
}

/** The MACs of a value under every key of the ring, newest first: a verifier accepts any (links outlive a rotation). */
export function macsOf(purpose: string, value: string, key?: Buffer | Keyring): string[] {
  return [...ringOf(key).keys].reverse().map((k) => createHmac('sha256', k.key).update(`${purpose}\0${value}`).digest('base64url'));
}

const APP_KEY_CHECK = 'app_key_check';


/**
 * Boot check of API and worker processes: the first process records the key's id in `system_settings`; a process
 * with another key (not shared through APP_KEY, or a lost key file) is refused with a clear message instead of
 * writing secrets that the other processes cannot read.
 */
export async function verifyAppKey(sequelize: Sequelize, key?: Buffer | Keyring): Promise<void> {
  const ring = ringOf(key);
  const id = ring.newest.fingerprint;
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
  const stored = await recordedKeyId(sequelize);
  if (!ring.keys.some((k) => k.fingerprint === stored)) {
    throw new Error(
      `APP_KEY mismatch: this process's key has id ${id}, but the database's secrets were encrypted with key id ${stored}; every API and worker process must use the same APP_KEY (or hold it in APP_KEYS).`,
    );
  }
}

/** The key id the installation records (the newest key of the last rotation, or of the first boot). */
export async function recordedKeyId(sequelize: Sequelize, transaction?: unknown): Promise<string | undefined> {
  const rows = await sequelize.query<{ value: string }>('SELECT value FROM system_settings WHERE name = ?', {
    replacements: [APP_KEY_CHECK],
    type: QueryTypes.SELECT,
    logging: false,
    transaction: transaction as never,
  });
  return rows[0]?.value;
}

/** After a rotation: the newest key becomes the one every process must hold. */
export async function recordKeyId(sequelize: Sequelize, ring: Keyring = keyring()): Promise<void> {
  await sequelize.query('INSERT INTO system_settings (name, value, updated_at) VALUES (?, ?, NOW(3)) ON DUPLICATE KEY UPDATE value = VALUES(value), updated_at = NOW(3)', {
    replacements: [APP_KEY_CHECK, ring.newest.fingerprint],
    type: QueryTypes.INSERT,
    logging: false,
  });
}
