import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryTypes } from 'sequelize';
import {
  appKeyId,
  decryptSecret,
  encryptSecret,
  keyring,
  parseKeyring,
  verifyAppKey,
} from '../../src/crypto/secrets';
import { secretsRotate } from '../../src/cli/commands/secrets';
import { contactUuidOfUnsubscribeToken, unsubscribeTokenOf } from '../../src/messaging/links';
import { ConnectLink, WebhookEndpoint } from '../../src/models';
import { providerFor } from '../../src/oauth/provider';
import { openTokens, sealTokens } from '../../src/services/provider-connections.service';
import { rotateSecrets } from '../../src/services/secrets-rotation.service';
import { cli } from '../cli/binary';
import { useOwnDatabase } from '../support/db';
import { makeWorld } from '../support/factories';

/**
 * Secrets at rest under a keyring (issue 14, docs/security.md "Key rotation"): `APP_KEYS` with key ids, new values
 * under the newest key, every key reads, links signed before a rotation still verify, webhook signing secrets
 * encrypted, and `reviewgrid secrets:rotate` moves every stored secret to the newest key.
 */
const b64 = () => randomBytes(32).toString('base64');
/** The ring's first key for every test that writes rows: rows of one test stay readable in the next. */
const K1 = b64();
const ENV_KEYS = ['APP_KEY', 'APP_KEYS'] as const;
const saved: Record<string, string | undefined> = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
function useKeys(env: { APP_KEY?: string; APP_KEYS?: string }) {
  for (const k of ENV_KEYS) delete process.env[k];
  Object.assign(process.env, env);
}

describe('keyring', () => {
  jest.setTimeout(60_000);
  // Its own database: the rotation re-encrypts every stored secret and records the installation's key id.
  const { db, url } = useOwnDatabase('keyring');
  afterAll(() => {
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('parses APP_KEYS, refusing bad entries without printing a key', () => {
    const a = b64();
    const ring = parseKeyring(`k1:${a}, k2:${b64()}`);
    expect(ring.keys.map((k) => k.id)).toEqual(['k1', 'k2']);
    expect(ring.newest.id).toBe('k2');
    for (const bad of [`${a}`, `bad id:${a}`, `k1:${a},k1:${b64()}`, 'k1:c2hvcnQ=', '']) {
      const err = (() => {
        try {
          parseKeyring(bad);
          return null;
        } catch (e) {
          return e as Error;
        }
      })();
      expect(err).toBeInstanceOf(Error);
      expect(err!.message).not.toContain(a);
    }
  });

  it('writes under the newest key with its id; reads under any key of the ring; an unknown id is named', () => {
    const old = parseKeyring(`k1:${b64()}`);
    const both = parseKeyring(`k1:${old.keys[0].key.toString('base64')},k2:${b64()}`);
    const underOld = encryptSecret('whsec_old', old);
    const underNew = encryptSecret('whsec_new', both);
    expect(underOld.split('.').slice(0, 2)).toEqual(['v2', 'k1']);
    expect(underNew.split('.').slice(0, 2)).toEqual(['v2', 'k2']);
    expect(decryptSecret(underOld, both)).toBe('whsec_old');
    expect(decryptSecret(underNew, both)).toBe('whsec_new');
    expect(() => decryptSecret(underNew, old)).toThrow(/key id k2/);
  });

  it('reads v1 values (written before key ids) and values written under APP_KEY after moving to APP_KEYS', () => {
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update('ya29.legacy', 'utf8'), cipher.final()]);
    const v1 = ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    const ring = parseKeyring(`old:${key.toString('base64')},new:${b64()}`);
    expect(decryptSecret(v1, ring)).toBe('ya29.legacy');
    const underAppKey = encryptSecret('ya29.appkey', key); // APP_KEY alone: the id is the key's fingerprint
    expect(underAppKey.split('.')[1]).toBe(appKeyId(key));
    expect(decryptSecret(underAppKey, ring)).toBe('ya29.appkey');
  });

  it('an unsubscribe link mailed before a rotation still verifies after it; a forged one does not', () => {
    const k1 = b64();
    useKeys({ APP_KEYS: `k1:${k1}` });
    const uuid = '6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
    const token = unsubscribeTokenOf(uuid);
    useKeys({ APP_KEYS: `k1:${k1},k2:${b64()}` });
    expect(contactUuidOfUnsubscribeToken(token)).toBe(uuid);
    expect(unsubscribeTokenOf(uuid)).not.toBe(token); // new links are signed with the newest key
    useKeys({ APP_KEYS: `k9:${b64()}` });
    expect(contactUuidOfUnsubscribeToken(token)).toBeNull();
  });

  it('webhook signing secrets are encrypted at rest and read in plain through the model', async () => {
    useKeys({ APP_KEYS: `k1:${K1}` });
    const w = await makeWorld();
    const endpoint = await WebhookEndpoint.create({ tenantId: w.tenant.id, customerId: w.org.customerId, url: 'https://hooks.example.com/a', secret: 'whsec_plainvalue123', enabled: true });
    const [row] = await db().query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = ?', { replacements: [endpoint.id], type: QueryTypes.SELECT });
    expect(row.secret).toMatch(/^v2\.k1\./);
    expect(row.secret).not.toContain('whsec_plainvalue123');
    expect((await WebhookEndpoint.findByPk(endpoint.id))!.secret).toBe('whsec_plainvalue123');
  });

  it('secrets:rotate re-encrypts every stored secret under the newest key, idempotently; the old key can then go', async () => {
    const k1 = K1;
    const k2 = b64();
    useKeys({ APP_KEYS: `k1:${k1}` });
    await verifyAppKey(db(), keyring());
    const w = await makeWorld();
    const endpoint = await WebhookEndpoint.create({ tenantId: w.tenant.id, customerId: w.org.customerId, url: 'https://hooks.example.com/b', secret: 'whsec_rotate_me', enabled: true });
    // A value still in plain text (written before the encryption migration) is encrypted by the rotation too.
    await db().query("UPDATE webhook_endpoints SET previous_secret = 'whsec_previous_plain' WHERE id = ?", { replacements: [endpoint.id] });

    const first = await cli(['--json', 'secrets:rotate'], { DATABASE_URL: url(), APP_KEYS: `k1:${k1},k2:${k2}`, APP_KEY: undefined });
    expect(first.json?.error).toBeUndefined();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.json.keyId).toBe('k2');
    expect(first.json.tables.webhook_endpoints.reencrypted).toBeGreaterThanOrEqual(2);
    const second = await cli(['--json', 'secrets:rotate'], { DATABASE_URL: url(), APP_KEYS: `k1:${k1},k2:${k2}`, APP_KEY: undefined });
    expect(second.json.reencrypted).toBe(0);

    const cols = ['webhook_endpoints.secret', 'webhook_endpoints.previous_secret', 'provider_connections.access_token_enc', 'messaging_settings.secret_encrypted', 'inbound_connections.signing_secret_encrypted', 'grid_provider_settings.google_maps_key'];
    for (const col of cols) {
      const [table, column] = col.split('.');
      const rows = await db().query<{ v: string }>(`SELECT ${column} AS v FROM ${table} WHERE ${column} IS NOT NULL AND ${column} <> ''`, { type: QueryTypes.SELECT });
      for (const r of rows) expect([col, r.v.split('.').slice(0, 2).join('.')]).toEqual([col, 'v2.k2']);
    }
    // The old key removed: values read, the installation accepts only processes holding k2.
    useKeys({ APP_KEYS: `k2:${k2}` });
    const reread = (await WebhookEndpoint.findByPk(endpoint.id))!;
    expect(reread.secret).toBe('whsec_rotate_me');
    expect(reread.previousSecret).toBe('whsec_previous_plain');
    await expect(verifyAppKey(db(), keyring())).resolves.toBeUndefined();
    await expect(verifyAppKey(db(), parseKeyring(`k1:${k1}`))).rejects.toThrow(/APP_KEY mismatch/);
  });

  it('a secret no key opens is named by table, column and row, left as it was, and the run exits 1', async () => {
    const k2 = b64();
    useKeys({ APP_KEYS: `k2:${k2}` });
    const w = await makeWorld();
    const lost = encryptSecret('whsec_lost', parseKeyring(`k7:${b64()}`));
    const endpoint = await WebhookEndpoint.create({ tenantId: w.tenant.id, customerId: w.org.customerId, url: 'https://hooks.example.com/c', secret: 'x', enabled: true });
    await db().query('UPDATE webhook_endpoints SET secret = ? WHERE id = ?', { replacements: [lost, endpoint.id] });
    const run = await cli(['--json', 'secrets:rotate'], { DATABASE_URL: url(), APP_KEYS: `k1:${K1},k2:${k2}`, APP_KEY: undefined });
    expect(run.code).toBe(1);
    expect(run.json.unreadable).toEqual([{ table: 'webhook_endpoints', column: 'secret', id: endpoint.id, reason: expect.stringMatching(/key id k7/) }]);
    const [row] = await db().query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = ?', { replacements: [endpoint.id], type: QueryTypes.SELECT });
    expect(row.secret).toBe(lost);
    expect(run.stdout).not.toContain('whsec_');
  });

  // Sealed values outside the secret columns. These run the rotation in process (the source, not the built CLI).
  const providerOpts = { trustProxy: false, accountAllowed: async () => true };
  const signingKeyRow = async () =>
    (await db().query<{ payload: string }>("SELECT payload FROM oauth_models WHERE model = 'SigningKey' AND id = 'signing-key'", { type: QueryTypes.SELECT }))[0]?.payload;
  /** The signing key's id a provider serves at its JWKS endpoint. */
  async function servedKid(origin: string): Promise<string> {
    const provider = await providerFor(origin, providerOpts);
    const server = http.createServer(provider.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { keys: Array<{ kid: string }> }).keys[0].kid;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }
  const pendingLink = async (pendingCredentials: string) => {
    const w = await makeWorld();
    return ConnectLink.create({
      token: randomUUID(),
      tenantId: w.tenant.id,
      customerId: w.org.customerId,
      locationId: w.home.id,
      provider: 'google',
      expiresAt: new Date(Date.now() + 3_600_000),
      completedOauthAt: new Date(),
      selectionNonce: randomBytes(24).toString('base64url'),
      pendingCredentials,
    });
  };
  const ours = (u: { table: string }) => u.table === 'oauth_models' || u.table === 'connect_links';

  it('secrets:rotate re-seals the MCP OAuth signing key and the tokens of connect flows in progress; they open once the old key is gone', async () => {
    const k2 = b64();
    useKeys({ APP_KEYS: `k1:${K1}` });
    await db().query("DELETE FROM oauth_models WHERE model = 'SigningKey'");
    // The provider makes the signing key, sealed under k1.
    const kid = await servedKid('http://rotation-before.example');
    expect(JSON.parse((await signingKeyRow())!).sealed).toMatch(/^v2\.k1\./);
    const tokens = { accessToken: 'ya29.pending', refreshToken: '1//pending', expiresAt: new Date('2030-01-01T00:00:00.000Z'), scope: 'business.manage' };
    const link = await pendingLink(sealTokens(tokens));
    expect(link.pendingCredentials).toMatch(/^v2\.k1\./);

    const ring = parseKeyring(`k1:${K1},k2:${k2}`);
    const report = await rotateSecrets(db(), { ring });
    expect(report.unreadable.filter(ours)).toEqual([]);

    // k1 removed: the signing key opens (a provider built now serves the same key) and the connect flow goes on.
    useKeys({ APP_KEYS: `k2:${k2}` });
    expect(await servedKid('http://rotation-after.example')).toBe(kid);
    const reread = (await ConnectLink.findByPk(link.token))!;
    expect(openTokens(reread.pendingCredentials!)).toEqual(tokens);
    expect(reread.pendingCredentials).toMatch(/^v2\.k2\./);
    const payload = JSON.parse((await signingKeyRow())!) as { sealed: string };
    expect(Object.keys(payload)).toEqual(['sealed']);
    expect(payload.sealed).toMatch(/^v2\.k2\./);

    expect(report.tables.oauth_models).toEqual({ checked: 1, reencrypted: 1 });
    expect(report.tables.connect_links).toEqual({ checked: 1, reencrypted: 1 });
    const again = await rotateSecrets(db(), { ring });
    expect([again.tables.oauth_models.reencrypted, again.tables.connect_links.reencrypted]).toEqual([0, 0]);
  });

  it('a signing key or pending connect tokens no key opens are named (a link by its token\'s first characters), left as they were, and the run exits 1', async () => {
    const k2 = b64();
    const lost = parseKeyring(`k7:${b64()}`);
    const sealedKey = JSON.stringify({ sealed: encryptSecret('{"kty":"EC"}', lost) });
    await db().query("DELETE FROM oauth_models WHERE model = 'SigningKey'");
    await db().query("INSERT INTO oauth_models (model, id, payload) VALUES ('SigningKey', 'signing-key', ?)", { replacements: [sealedKey] });
    const pending = encryptSecret('{"a":"ya29.lost"}', lost);
    const link = await pendingLink(pending);

    useKeys({ APP_KEYS: `k1:${K1},k2:${k2}` });
    const run = await secretsRotate(db());
    expect(run.exitCode).toBe(1);
    const unreadable = (run.data as { unreadable: Array<{ table: string }> }).unreadable.filter(ours);
    expect(unreadable).toEqual([
      { table: 'connect_links', column: 'pending_credentials', id: `${link.token.slice(0, 6)}…`, reason: expect.stringMatching(/key id k7/) },
      { table: 'oauth_models', column: 'payload.sealed', id: 'signing-key', reason: expect.stringMatching(/key id k7/) },
    ]);
    expect(run.text).not.toContain(link.token);
    expect(await signingKeyRow()).toBe(sealedKey);
    expect((await ConnectLink.findByPk(link.token))!.pendingCredentials).toBe(pending);
  });
});
