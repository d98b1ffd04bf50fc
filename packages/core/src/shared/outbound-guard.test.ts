import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, OutboundTargetRefused, pinnedLookup, resolvePublicTarget, type LookupAll } from './outbound-guard';

describe('isPublicAddress', () => {
  it.each([
    '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.254', '192.168.1.1', '127.0.0.1', '127.255.0.9',
    '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250',
    '255.255.255.255', '240.0.0.1', '198.18.0.1', '198.19.255.255', '192.0.2.7', '198.51.100.1', '203.0.113.9', '192.0.0.8',
    '::1', '::', '[::1]', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'ff0e::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.2.3', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::127.0.0.1',
    '::ffff:0:192.168.0.1', '64:ff9b::10.0.0.1', '2002:c0a8:0101::1', '2001:db8::1', 'fec0::1',
    'not an ip', '', 'example.com', '127.1', '1.2.3.256',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '1.1.1.1', '8.8.8.8', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.0', '192.169.0.1',
    '198.17.255.255', '198.20.0.1', '223.255.255.255', '11.0.0.1', '169.253.1.1',
    '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '2002:0808:0808::1',
    'fe00::1', 'fbff::1',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('resolvePublicTarget', () => {
  const fakeLookup = (table: Record<string, string[]>): LookupAll =>
    async (host) => {
      const found = table[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };

  it('resolves a public host and returns the vetted address', async () => {
    const target = await resolvePublicTarget({ url: 'https://hooks.example.com/in?x=1', allowPrivate: false, lookup: fakeLookup({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] }) });
    expect(target).toMatchObject({ host: 'hooks.example.com', address: '93.184.216.34', family: 4 });
    expect(target.url.pathname).toBe('/in');
  });

  it('refuses when any resolved address is private, naming the host and the address', async () => {
    const lookup = fakeLookup({ 'rebind.example.com': ['93.184.216.34', '10.0.0.5'] });
    const refused = await resolvePublicTarget({ url: 'http://rebind.example.com/', allowPrivate: false, lookup }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutboundTargetRefused);
    expect((refused as OutboundTargetRefused).message).toContain('rebind.example.com');
    expect((refused as OutboundTargetRefused).message).toContain('10.0.0.5');
    expect(refused).toMatchObject({ host: 'rebind.example.com', address: '10.0.0.5' });
    // Allowed when private targets are.
    await expect(resolvePublicTarget({ url: 'http://rebind.example.com/', allowPrivate: true, lookup })).resolves.toMatchObject({ address: '93.184.216.34' });
  });

  it('takes IP literals as they are, in every spelling the URL parser normalises', async () => {
    const never: LookupAll = async () => {
      throw new Error('no lookup for literals');
    };
    for (const url of ['http://127.0.0.1:8080/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/latest/meta-data']) {
      await expect(resolvePublicTarget({ url, allowPrivate: false, lookup: never })).rejects.toThrow(OutboundTargetRefused);
    }
    await expect(resolvePublicTarget({ url: 'http://[::1]:9/', allowPrivate: true, lookup: never })).resolves.toMatchObject({ host: '::1', address: '::1', family: 6 });
    await expect(resolvePublicTarget({ url: 'https://8.8.8.8/', allowPrivate: false, lookup: never })).resolves.toMatchObject({ address: '8.8.8.8', family: 4 });
  });

  it('refuses other schemes, bad URLs and unresolvable hosts', async () => {
    const lookup = fakeLookup({});
    await expect(resolvePublicTarget({ url: 'ftp://example.com/x', allowPrivate: true, lookup })).rejects.toThrow(/only http and https/);
    await expect(resolvePublicTarget({ url: 'file:///etc/passwd', allowPrivate: true, lookup })).rejects.toThrow(/only http and https/);
    await expect(resolvePublicTarget({ url: 'not a url', allowPrivate: true, lookup })).rejects.toThrow(/not a valid URL/);
    await expect(resolvePublicTarget({ url: 'http://nowhere.invalid/', allowPrivate: true, lookup })).rejects.toThrow(/cannot resolve nowhere.invalid: ENOTFOUND/);
  });

  it('refuses localhost through the real resolver', async () => {
    await expect(resolvePublicTarget({ url: 'http://localhost:1/', allowPrivate: false })).rejects.toThrow(/refused localhost \((127\.0\.0\.1|::1)\)/);
  });
});

describe('pinnedLookup', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => res.end(`host=${req.headers.host}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('connects to the vetted address whatever the host name resolves to, keeping the Host header', async () => {
    // The name does not exist in DNS: only the pinned lookup can make this connection.
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: 'webhook-target.invalid', port, path: '/', agent: false, lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }) as never },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(body).toBe(`host=webhook-target.invalid:${port}`);
  });

  it('answers in both the single and the all-addresses form', () => {
    const lookup = pinnedLookup({ address: '::1', family: 6 });
    const seen: unknown[] = [];
    lookup('x', { all: true }, (_e, a) => seen.push(a));
    lookup('x', {}, (_e, a, f) => seen.push([a, f]));
    lookup('x', 4, (_e, a, f) => seen.push([a, f]));
    expect(seen).toEqual([[{ address: '::1', family: 6 }], ['::1', 6], ['::1', 6]]);
  });
});
