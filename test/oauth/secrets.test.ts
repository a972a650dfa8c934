import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appKey, decryptSecret, encryptSecret } from '../../src/crypto/secrets';

/** AES-256-GCM encryption of stored provider tokens, and where its key comes from. */
describe('src/crypto/secrets', () => {
  it('round-trips a secret with a fresh IV each time; a tampered value or another key fails', () => {
    const key = randomBytes(32);
    const a = encryptSecret('ya29.access-token', key);
    const b = encryptSecret('ya29.access-token', key);
    expect(a).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('ya29');
    expect(decryptSecret(a, key)).toBe('ya29.access-token');
    const parts = a.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), key)).toThrow();
    expect(() => decryptSecret(a, randomBytes(32))).toThrow();
  });

  it('takes APP_KEY (base64 of 32 bytes) and refuses a key of another length', () => {
    const key = randomBytes(32);
    expect(appKey({ APP_KEY: key.toString('base64') })).toEqual(key);
    expect(() => appKey({ APP_KEY: randomBytes(16).toString('base64') })).toThrow(/32 bytes/);
  });

  it('without APP_KEY, generates the key once in DATA_DIR/app.key with mode 0600 and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-key-'));
    const first = appKey({ DATA_DIR: dir });
    const file = path.join(dir, 'app.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-key-'));
    expect(appKey({ DATA_DIR: other })).not.toEqual(first);
    expect(appKey({ DATA_DIR: dir })).toEqual(first); // read back from the file
  });
});
