import { loadConfig, seedsDemo } from '../../src/config';

/**
 * The demo tenant's users sign in with a published password (demo-password), at the MCP sign-in too: `npm start`
 * seeds it into an empty database by default, a production installation never (the image sets NODE_ENV=production and
 * runs the same entry point).
 */
describe('seeding the demo tenant', () => {
  const env = (vars: Record<string, string>) => ({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/x', ...vars });

  it('is on by default outside production and off by default in production', () => {
    expect(seedsDemo(loadConfig(env({})))).toBe(true);
    expect(seedsDemo(loadConfig(env({ SEED_DEMO: 'false' })))).toBe(false);
    expect(seedsDemo(loadConfig(env({ NODE_ENV: 'production', APP_KEY: 'x' })))).toBe(false);
    expect(seedsDemo(loadConfig(env({ NODE_ENV: 'production', SEED_DEMO: 'false' })))).toBe(false);
  });

  it('refuses SEED_DEMO=true in production as an invalid configuration naming the setting', () => {
    expect(() => loadConfig(env({ NODE_ENV: 'production', SEED_DEMO: 'true' }))).toThrow(
      'Invalid configuration:\n  SEED_DEMO: the demo users sign in with a published password (demo-password): not with NODE_ENV=production',
    );
  });
});
