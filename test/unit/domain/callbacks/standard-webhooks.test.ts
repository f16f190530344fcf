import { createHmac, sign as edSign, generateKeyPairSync } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  formatPublicKey,
  formatSigningKey,
  parseSigningKey,
} from '../../../../functions/domain/callbacks/keys';
import {
  signStandardWebhook,
  verifyStandardWebhook,
} from '../../../../functions/domain/callbacks/standard-webhooks';
import { epochSeconds } from '../../../../functions/domain/shared/time';

/**
 * Standard Webhooks (docs/contract.md §7). Interoperability is proven against the
 * reference implementation, the `standardwebhooks` npm package: it signs and we verify, we
 * sign (the CLI's signer) and it verifies.
 */
const body = Buffer.from('{"specversion":"1.0","id":"a"}');
const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const t = 1_800_000_000;
const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const plainSecret = 'local-demo-secret-0123456789abcdef';

const verify = (
  headers: { id?: string; timestamp?: string; signature?: string },
  options: { secrets?: string[]; publicKeys?: string[]; now?: number } = {},
) =>
  verifyStandardWebhook({
    headers: { id: headers.id, timestamp: headers.timestamp, signature: headers.signature },
    rawBody: body,
    secrets: options.secrets ?? [secret],
    publicKeys: options.publicKeys ?? [],
    nowSeconds: options.now ?? t,
  });

const ours = (secrets: string[], timestamp = t) =>
  signStandardWebhook({ id, timestamp, rawBody: body, secrets });

describe('Standard Webhooks interoperability with the standardwebhooks package', () => {
  it('verifies a signature made by the reference implementation with a whsec_ secret', () => {
    const signature = new Webhook(secret).sign(id, new Date(t * 1000), body.toString());

    expect(verify({ id, timestamp: String(t), signature })).toBe(id);
  });

  it('makes signatures the reference implementation verifies (whsec_ secret: decoded bytes)', () => {
    const now = epochSeconds();
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(now),
      'webhook-signature': ours([secret], now),
    };

    expect(() => new Webhook(secret).verify(body.toString(), headers)).not.toThrow();
  });

  it('signs any other secret as its UTF-8 bytes, as the reference does in raw format', () => {
    const reference = new Webhook(plainSecret, { format: 'raw' });
    const signature = reference.sign(id, new Date(t * 1000), body.toString());

    expect(ours([plainSecret])).toBe(signature);
    expect(verify({ id, timestamp: String(t), signature }, { secrets: [plainSecret] })).toBe(id);
  });

  it('is HMAC-SHA256 of "<id>.<timestamp>.<body>" in base64, keyed by the decoded whsec_ bytes', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const expected = createHmac('sha256', key).update(`${id}.${t}.${body}`).digest('base64');

    expect(ours([secret])).toBe(`v1,${expected}`);
  });
});

describe('verifying webhook-signature', () => {
  const good = ours([secret]);

  it('accepts any entry of a space-separated list matching any secret (rotation)', () => {
    const list = `v1,${'A'.repeat(43)}= v2,zzz ${good}`;
    const rotated = ours(['old-secret-0000000000', secret]);

    expect(verify({ id, timestamp: String(t), signature: list })).toBe(id);
    expect(verify({ id, timestamp: String(t), signature: rotated })).toBe(id);
    expect(
      verify({ id, timestamp: String(t), signature: good }, { secrets: ['x'.repeat(16), secret] }),
    ).toBe(id);
  });

  it.each([
    ['no webhook-id', { timestamp: String(t), signature: good }],
    ['no webhook-timestamp', { id, signature: good }],
    ['no webhook-signature', { id, timestamp: String(t) }],
    ['a non-numeric timestamp', { id, timestamp: 'now', signature: good }],
    ['an id with a space', { id: `${id} x`, timestamp: String(t), signature: good }],
    ['another id', { id: `${id}x`, timestamp: String(t), signature: good }],
    ['another timestamp', { id, timestamp: String(t + 1), signature: good }],
    ['only unknown versions', { id, timestamp: String(t), signature: good.replace('v1,', 'v9,') }],
    ['a wrong secret', { id, timestamp: String(t), signature: ours(['wrong-secret-0000000']) }],
  ])('rejects %s as invalid_signature', (_name, headers) => {
    expect(() => verify(headers)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });

  it('rejects with no secrets and no public keys', () => {
    expect(() => verify({ id, timestamp: String(t), signature: good }, { secrets: [] })).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
  });

  it.each([
    [t + 300, 'ok'],
    [t - 300, 'ok'],
    [t + 301, 'signature_expired'],
    [t - 301, 'signature_expired'],
  ])('at now=%i the verdict is %s (5-minute tolerance)', (now, verdict) => {
    const run = () => verify({ id, timestamp: String(t), signature: good }, { now });
    if (verdict === 'ok') expect(run()).toBe(id);
    else expect(run).toThrow(expect.objectContaining({ code: verdict }));
  });

  it('checks the signature before the window: a forged old one is invalid, not expired', () => {
    const forged = { id, timestamp: String(t - 10_000), signature: `v1,${'A'.repeat(43)}=` };
    expect(() => verify(forged)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });
});

describe('asymmetric v1a (ed25519) with whpk_ public keys', () => {
  const pair = generateKeyPairSync('ed25519');
  const publicKey = formatPublicKey(pair.publicKey);
  const signed = (keys = [pair.privateKey]) =>
    signStandardWebhook({ id, timestamp: t, rawBody: body, signingKeys: keys });

  it('whpk_ is the base64 of the raw 32-byte key', () => {
    const raw = pair.publicKey.export({ format: 'jwk' }).x ?? '';
    expect(Buffer.from(publicKey.slice('whpk_'.length), 'base64')).toEqual(
      Buffer.from(raw, 'base64url'),
    );
  });

  it('accepts a v1a signature of "<id>.<timestamp>.<body>" made independently with node:crypto', () => {
    const raw = edSign(null, Buffer.from(`${id}.${t}.${body}`), pair.privateKey);
    const signature = `v1a,${raw.toString('base64')}`;

    expect(signed()).toBe(signature); // ed25519 is deterministic
    expect(
      verify({ id, timestamp: String(t), signature }, { secrets: [], publicKeys: [publicKey] }),
    ).toBe(id);
  });

  it('needs no shared secret and ignores secrets for v1a', () => {
    const other = generateKeyPairSync('ed25519');
    const signature = signed([other.privateKey]);

    expect(() =>
      verify({ id, timestamp: String(t), signature }, { publicKeys: [publicKey] }),
    ).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
    expect(
      verify(
        { id, timestamp: String(t), signature },
        { publicKeys: ['whpk_short', formatPublicKey(other.publicKey)] },
      ),
    ).toBe(id);
  });

  it('round-trips a whsk_ signing key written as seed or as seed‖public (64 bytes)', () => {
    const seedForm = formatSigningKey(pair.privateKey);
    const raw = Buffer.from(seedForm.slice('whsk_'.length), 'base64');
    const longForm = `whsk_${Buffer.concat([raw, Buffer.from(publicKey.slice(5), 'base64')]).toString('base64')}`;

    expect(raw).toHaveLength(32);
    for (const text of [seedForm, longForm]) {
      const key = parseSigningKey(text);
      expect(key && signed([key])).toBe(signed());
    }
  });
});
