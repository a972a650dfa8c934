import { isLoopbackHost } from '../../src/net/address-policy';

/** Loopback host names: where plain http (MCP_APP_TILE_URL), any Origin (the MCP endpoint) and any tenant's sign-in are allowed. */
describe('isLoopbackHost', () => {
  it('takes localhost and the loopback literals, bracketed or not, in any case', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]']) expect([host, isLoopbackHost(host)]).toEqual([host, true]);
  });

  it('refuses every other name and address, and names that only look like loopback', () => {
    for (const host of ['example.com', 'localhost.example.com', '10.0.0.1', '0.0.0.0', '::', '[::2]', '::ffff:8.8.8.8', '0x7f.1', '2130706433', '127.0.0.1.nip.io', '', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
    }
  });
});
