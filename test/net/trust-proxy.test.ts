import { loadConfig } from '../../src/config';
import { parseTrustProxy } from '../../src/net/trust-proxy';

describe('TRUST_PROXY', () => {
  it('reads false, true as one proxy, a number of proxies and a list of proxy addresses or ranges', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7')).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
  });

  it('refuses anything else at start-up, rather than trusting every hop', () => {
    for (const value of ['yes', 'TRUE', '', '10.0.0.0/33', '300.1.1.1', 'loopback,', 'example.com', '-1']) expect(parseTrustProxy(value)).toBeNull();
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.0/8');
  });
});
