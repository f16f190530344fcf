import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../functions/domain/shared/errors';
import { aesGcmSealer } from '../../../../functions/domain/webhooks/secrets';
import {
  checkWebhookUrl,
  isPublicAddress,
  type UrlPolicy,
} from '../../../../functions/domain/webhooks/url-policy';

/** docs/contract.md §32: where a deployed webhook may point, and secrets sealed at rest. */
const deployed = (addresses: Record<string, readonly string[]>): UrlPolicy => ({
  mode: 'deployed',
  resolve: async (host) => {
    const found = addresses[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found;
  },
});

describe('isPublicAddress', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '127.9.9.9',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::169.254.169.254',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'takes %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('checkWebhookUrl', () => {
  const policy = deployed({
    'hooks.example.com': ['93.184.216.34', '2606:4700::1111'],
    'internal.example.com': ['93.184.216.34', '10.0.0.7'],
    'metadata.example.com': ['169.254.169.254'],
    'loop.example.com': ['::1'],
  });

  it('takes an https URL whose host resolves to public addresses, and names the first', async () => {
    const checked = await checkWebhookUrl('https://hooks.example.com:8443/in?x=1', policy);
    expect([checked.url.href, checked.address]).toEqual([
      'https://hooks.example.com:8443/in?x=1',
      '93.184.216.34',
    ]);
    expect((await checkWebhookUrl('https://[2606:4700::1111]/in', policy)).address).toBe(
      '2606:4700::1111',
    );
  });

  it.each([
    ['http, deployed', 'http://hooks.example.com/in'],
    ['loopback http, deployed', 'http://127.0.0.1:9000/in'],
    ['any private address among several', 'https://internal.example.com/in'],
    ['link-local (metadata)', 'https://metadata.example.com/in'],
    ['loopback by name', 'https://loop.example.com/in'],
    ['a private literal', 'https://192.168.0.10/in'],
    ['a loopback IPv6 literal', 'https://[::1]/in'],
    ['a host that does not resolve', 'https://nowhere.example.com/in'],
    ['another scheme', 'ftp://hooks.example.com/in'],
    ['credentials', 'https://u:p@hooks.example.com/in'],
    ['a relative URL', '/in'],
  ])('refuses %s with validation_failed on url', async (_, url) => {
    const refused = await checkWebhookUrl(url, policy).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).errors[0]?.path).toBe('url');
  });

  it('locally takes http://127.0.0.1 and checks no address; other http stays refused', async () => {
    const local: UrlPolicy = { mode: 'local', resolve: async () => ['10.0.0.1'] };
    expect((await checkWebhookUrl('http://127.0.0.1:9000/in', local)).address).toBeUndefined();
    expect((await checkWebhookUrl('https://internal.example.com/in', local)).address).toBe(
      undefined,
    );
    await expect(checkWebhookUrl('http://localhost:9000/in', local)).rejects.toThrow(
      ValidationError,
    );
  });
});

describe('aesGcmSealer', () => {
  it('seals without the secret in clear, opens it again, and refuses another key', async () => {
    const sealer = aesGcmSealer(async () => 'key one');
    const sealed = await sealer.seal('whsec_c2VjcmV0');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('c2VjcmV0');
    expect(await sealer.seal('whsec_c2VjcmV0')).not.toBe(sealed);
    expect(await sealer.open(sealed)).toBe('whsec_c2VjcmV0');
    await expect(aesGcmSealer(async () => 'key two').open(sealed)).rejects.toThrow();
  });
});
