import { Validation } from '../../src/domain/errors';
import { assertDeliverableUrl, isPublicAddress } from '../../src/webhooks/url';

const refusal = async (url: string, opts: Parameters<typeof assertDeliverableUrl>[1] = { allowPrivate: false }) => {
  try {
    await assertDeliverableUrl(url, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(Validation);
    const v = e as Validation;
    expect(Object.keys(v.fields ?? {})).toEqual(['url']);
    return v.reason;
  }
  throw new Error(`${url} was accepted`);
};

describe('webhook receiver URLs', () => {
  it('accepts public http and https URLs, keeping the parsed form', async () => {
    await expect(assertDeliverableUrl('https://1.1.1.1/hooks?x=1', { allowPrivate: false })).resolves.toEqual({
      url: 'https://1.1.1.1/hooks?x=1',
      hostname: '1.1.1.1',
      addresses: ['1.1.1.1'],
    });
    await expect(assertDeliverableUrl('http://[2606:4700:4700::1111]:8080/', { allowPrivate: false })).resolves.toMatchObject({ addresses: ['2606:4700:4700::1111'] });
  });

  it('refuses other schemes, credentials, junk and URLs over 2048 characters', async () => {
    expect(await refusal('ftp://1.1.1.1/x')).toBe('invalid_url');
    expect(await refusal('javascript:alert(1)')).toBe('invalid_url');
    expect(await refusal('https://user:pass@1.1.1.1/')).toBe('invalid_url');
    expect(await refusal('https://user@1.1.1.1/')).toBe('invalid_url');
    expect(await refusal('not a url')).toBe('invalid_url');
    expect(await refusal('')).toBe('invalid_url');
    expect(await refusal(`https://1.1.1.1/${'a'.repeat(2048)}`)).toBe('invalid_url');
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1.2.3:8080/',
    'http://2130706433/', // 127.0.0.1 in decimal
    'http://0x7f.1/',
    'http://10.0.0.5/',
    'http://172.16.3.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[fe80::1]/',
    'http://[fd12:3456::1]/',
    'http://[64:ff9b::a9fe:a9fe]/', // NAT64 of 169.254.169.254
    'http://[::127.0.0.1]/', // IPv4-compatible (the URL parser writes it [::7f00:1])
    'http://[::169.254.169.254]/latest/meta-data/',
    'http://localhost:3000/',
    'http://api.localhost/',
  ])('refuses the private, loopback, link-local or unspecified %s', async (url) => {
    expect(await refusal(url)).toBe('private_address');
  });

  it('resolves host names and refuses them when any address is private (all addresses are checked)', async () => {
    const lookup = async (host: string) => (host === 'mixed.example' ? ['93.184.215.14', '10.1.1.1'] : host === 'v6.example' ? ['::ffff:192.168.0.1'] : ['93.184.215.14']);
    await expect(assertDeliverableUrl('https://hooks.example/in', { allowPrivate: false, lookup })).resolves.toMatchObject({ addresses: ['93.184.215.14'] });
    expect(await refusal('https://mixed.example/', { allowPrivate: false, lookup })).toBe('private_address');
    expect(await refusal('https://v6.example/', { allowPrivate: false, lookup })).toBe('private_address');
  });

  it('refuses a host name that does not resolve', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await refusal('https://nowhere.invalid/', { allowPrivate: false, lookup })).toBe('unresolvable_host');
  });

  it('allows private addresses when configured (WEBHOOK_ALLOW_PRIVATE_URLS=true), still checking the rest', async () => {
    await expect(assertDeliverableUrl('http://127.0.0.1:4000/hook', { allowPrivate: true })).resolves.toMatchObject({ hostname: '127.0.0.1' });
    expect(await refusal('ftp://127.0.0.1/', { allowPrivate: true })).toBe('invalid_url');
    const before = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    try {
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
      await expect(assertDeliverableUrl('http://localhost:4000/hook')).resolves.toMatchObject({ hostname: 'localhost' });
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
      expect(await refusal('http://localhost:4000/hook', {})).toBe('private_address');
    } finally {
      if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = before;
    }
  });

  it('classifies addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('172.32.0.1')).toBe(true);
    expect(isPublicAddress('172.31.255.255')).toBe(false);
    expect(isPublicAddress('fe80::1%eth0')).toBe(false);
    expect(isPublicAddress('2002:7f00:1::')).toBe(false); // 6to4 of 127.0.0.1
    expect(isPublicAddress('::7f00:1')).toBe(false); // IPv4-compatible 127.0.0.1
    expect(isPublicAddress('::a9fe:a9fe')).toBe(false); // IPv4-compatible 169.254.169.254
    expect(isPublicAddress('::808:808')).toBe(true); // IPv4-compatible 8.8.8.8: judged as 8.8.8.8
    expect(isPublicAddress('ff02::1')).toBe(false);
    expect(isPublicAddress('nonsense')).toBe(false);
  });
});
