import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  parseSignatureHeader,
  signCallback,
  verifyCallbackSignature,
} from '../../../../functions/domain/callbacks/signature';

const body = Buffer.from('{"a":1}');
const secret = 'whsec-0123456789abcdef';
const t = 1_800_000_000;
const verify = (header: string | undefined, nowSeconds = t, secrets = [secret]) =>
  verifyCallbackSignature({ header, rawBody: body, secrets, nowSeconds });

describe('callback signatures', () => {
  it('is HMAC-SHA256 over "<t>.<raw body>" in hex', async () => {
    const { createHmac } = await import('node:crypto');
    const expected = createHmac('sha256', secret).update(`${t}.{"a":1}`).digest('hex');
    expect(computeSignature(secret, t, body)).toBe(expected);
  });

  it('accepts any v1 that matches any active secret', () => {
    const header = `t=${t},v1=${'0'.repeat(64)},v1=${computeSignature(secret, t, body)}`;
    expect(() => verify(header, t, ['other-secret-0000000000', secret])).not.toThrow();
    expect(() => verify(signCallback(['old-secret-000000000000', secret], t, body))).not.toThrow();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['without t', `v1=${computeSignature(secret, t, body)}`],
    ['without v1', `t=${t}`],
    ['two timestamps', `t=${t},t=${t},v1=${computeSignature(secret, t, body)}`],
    ['a non-numeric t', `t=now,v1=${computeSignature(secret, t, body)}`],
    ['a short v1', `t=${t},v1=abcd`],
    ['no equals sign', `t=${t},v1`],
    ['a wrong signature', `t=${t},v1=${computeSignature('wrong-secret-00000000', t, body)}`],
    ['a signature of another timestamp', `t=${t + 1},v1=${computeSignature(secret, t, body)}`],
  ])('rejects a header %s as invalid_signature', (_name, header) => {
    expect(() => verify(header)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });

  it('rejects with no active secrets', () => {
    expect(() => verify(signCallback([secret], t, body), t, [])).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
  });

  it.each([
    [t + 300, 'ok'],
    [t - 300, 'ok'],
    [t + 301, 'signature_expired'],
    [t - 301, 'signature_expired'],
  ])('at now=%i the verdict is %s', (now, verdict) => {
    const run = () => verify(signCallback([secret], t, body), now);
    if (verdict === 'ok') expect(run).not.toThrow();
    else expect(run).toThrow(expect.objectContaining({ code: verdict }));
  });

  it('checks the signature before the window: a forged old header is invalid, not expired', () => {
    const forged = `t=${t - 10_000},v1=${'a'.repeat(64)}`;
    expect(() => verify(forged)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });

  it('ignores unknown schemes and whitespace', () => {
    const header = ` t=${t} , v0=zz , v1=${computeSignature(secret, t, body).toUpperCase()} `;
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(1);
    expect(() => verify(header)).not.toThrow();
  });
});
