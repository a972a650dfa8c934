import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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
