import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assertWebhookIdMatches,
  type CallbackSignatureHeaders,
  verifyCallback,
} from '../../../../functions/domain/callbacks/authentication';
import { formatPublicKey } from '../../../../functions/domain/callbacks/keys';
import { signCallback } from '../../../../functions/domain/callbacks/signature';
import { signStandardWebhook } from '../../../../functions/domain/callbacks/standard-webhooks';

/** docs/contract.md §7: either header set, when valid, suffices. */
const body = Buffer.from('{"id":"x"}');
const t = 1_800_000_000;
const secret = 'local-demo-secret-0123456789abcdef';
const id = '3f1c1b9e-8a43-4b53-9d8e-1c2f4a5b6c7d';
const pair = generateKeyPairSync('ed25519');
const publicKey = formatPublicKey(pair.publicKey);

const none: CallbackSignatureHeaders = {
  callbackSignature: undefined,
  id: undefined,
  timestamp: undefined,
  signature: undefined,
};
const stripe = (secrets = [secret], at = t) => signCallback(secrets, at, body);
const standard = (options: { secrets?: string[]; keys?: boolean; at?: number } = {}) => ({
  id,
  timestamp: String(options.at ?? t),
  signature: signStandardWebhook({
    id,
    timestamp: options.at ?? t,
    rawBody: body,
    secrets: options.secrets ?? [secret],
    signingKeys: options.keys ? [pair.privateKey] : [],
  }),
});
const verify = (headers: Partial<CallbackSignatureHeaders>, keys = [secret], now = t) =>
  verifyCallback({ headers: { ...none, ...headers }, rawBody: body, keys, nowSeconds: now });

describe('verifyCallback', () => {
  it('accepts Callback-Signature alone, without a webhook-id', () => {
    expect(verify({ callbackSignature: stripe() })).toEqual({ webhookId: undefined });
  });

  it('accepts Standard Webhooks alone and returns its webhook-id', () => {
    expect(verify(standard())).toEqual({ webhookId: id });
  });

  it('accepts a v1a signature with only a public key configured (no shared secret)', () => {
    expect(verify(standard({ secrets: [], keys: true }), [publicKey])).toEqual({ webhookId: id });
  });

  it('never uses a whpk_ entry as an HMAC secret', () => {
    const signedWithKeyText = { callbackSignature: stripe([publicKey]) };

    expect(() => verify(signedWithKeyText, [publicKey])).toThrow(
      expect.objectContaining({ code: 'invalid_signature' }),
    );
  });

  it('accepts when one set is valid and the other is not', () => {
    const badStripe = stripe(['another-secret-0000000']);
    expect(verify({ ...standard(), callbackSignature: badStripe })).toEqual({ webhookId: id });
    expect(
      verify({ ...standard({ secrets: ['another-secret-0000000'] }), callbackSignature: stripe() }),
    ).toEqual({ webhookId: id });
  });

  it.each([
    ['no signature headers', {}],
    ['a wrong Callback-Signature', { callbackSignature: stripe(['another-secret-0000000']) }],
    ['a wrong webhook-signature', standard({ secrets: ['another-secret-0000000'] })],
    ['webhook-id alone', { id }],
  ])('refuses %s as invalid_signature', (_name, headers) => {
    expect(() => verify(headers)).toThrow(expect.objectContaining({ code: 'invalid_signature' }));
  });

  it('names the header set that was sent in the invalid_signature detail', () => {
    const detail = (headers: Partial<CallbackSignatureHeaders>) => {
      try {
        verify(headers);
      } catch (error) {
        return (error as { detail?: string }).detail;
      }
      return 'accepted';
    };

    expect(detail(standard({ secrets: ['another-secret-0000000'] }))).toMatch(/webhook-signature/);
    expect(detail({ callbackSignature: 't=1' })).toMatch(/Callback-Signature/);
    expect(detail({})).toMatch(/Callback-Signature/);
  });

  it('reports signature_expired when a genuine signature of either set is too old', () => {
    const old = t - 301;
    expect(() => verify(standard({ at: old }))).toThrow(
      expect.objectContaining({ code: 'signature_expired' }),
    );
    expect(() =>
      verify({
        ...standard({ secrets: ['another-secret-0000000'] }),
        callbackSignature: stripe([secret], old),
      }),
    ).toThrow(expect.objectContaining({ code: 'signature_expired' }));
  });
});

describe('assertWebhookIdMatches', () => {
  it('passes without a webhook-id and for the same id in another case', () => {
    expect(() => assertWebhookIdMatches(undefined, id)).not.toThrow();
    expect(() => assertWebhookIdMatches(id.toUpperCase(), id)).not.toThrow();
  });

  it('refuses another id as invalid_callback', () => {
    expect(() => assertWebhookIdMatches('msg_other', id)).toThrow(
      expect.objectContaining({ code: 'invalid_callback' }),
    );
  });
});
