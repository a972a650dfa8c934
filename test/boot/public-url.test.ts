import { publicUrlProblem } from '../../src/config';

/**
 * A production installation builds the links in mail and the MCP sign-in issuer from PUBLIC_URL with no request at
 * hand: a missing, loopback or plain-http origin is named at start (a warning of the API and the worker;
 * test/observability/boot.test.ts sees the worker log it).
 */
describe('PUBLIC_URL in production', () => {
  const production = (PUBLIC_URL?: string) => publicUrlProblem({ NODE_ENV: 'production', PUBLIC_URL, PORT: 3000 });

  it('names an unset origin, with the address the links would carry', () => {
    expect(production()).toMatch(/^PUBLIC_URL is not set: .*mail.* point at http:\/\/127\.0\.0\.1:3000/);
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'https://[::1]:8443', 'http://127.1.2.3'])('names a loopback origin (%s)', (url) => {
    expect(production(url)).toContain(`PUBLIC_URL (${new URL(url).origin}) is a loopback address`);
  });

  it('names a public origin that is not https', () => {
    expect(production('http://reviews.example.com')).toMatch(/^PUBLIC_URL \(http:\/\/reviews\.example\.com\) is not https/);
  });

  it('accepts a public https origin, and says nothing outside production', () => {
    expect(production('https://reviews.example.com')).toBeNull();
    expect(publicUrlProblem({ NODE_ENV: 'development', PUBLIC_URL: undefined, PORT: 3000 })).toBeNull();
    expect(publicUrlProblem({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', PORT: 3000 })).toBeNull();
  });
});
