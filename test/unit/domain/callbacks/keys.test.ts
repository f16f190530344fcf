import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hmacKeyBytes,
  isUsableCallbackKey,
  isUsableSecret,
  parsePublicKey,
  parseSigningKey,
  splitCallbackKeys,
} from '../../../../functions/domain/callbacks/keys';
import { computeSignature } from '../../../../functions/domain/callbacks/signature';

const whsec = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;

describe('callback keys (docs/contract.md §7)', () => {
  it('uses a whsec_ secret as its decoded bytes and any other secret as UTF-8', () => {
    expect(hmacKeyBytes(whsec(24))).toEqual(Buffer.alloc(24, 7));
    expect(hmacKeyBytes('plain-secret-€')).toEqual(Buffer.from('plain-secret-€', 'utf8'));
  });

  it('signs Callback-Signature with the decoded bytes of a whsec_ secret too', () => {
    const body = Buffer.from('{}');
    const expected = createHmac('sha256', Buffer.alloc(24, 7)).update('5.{}').digest('hex');

    expect(computeSignature(whsec(24), 5, body)).toBe(expected);
  });

  it.each([
    [whsec(16), true],
    [whsec(15), false], // 20 characters of base64, but only 15 bytes
    ['whsec_not*base64!!', false],
    ['whsec_', false],
    ['sixteen-chars-ok', true],
    ['fifteen-chars-x', false],
  ])('%s is usable: %s (16-byte minimum on the key bytes)', (secret, usable) => {
    expect(isUsableSecret(secret)).toBe(usable);
  });

  it.each([
    ['whpk_', 'an empty key'],
    [`whpk_${Buffer.alloc(31).toString('base64')}`, '31 bytes'],
    [`whpk_${Buffer.alloc(33).toString('base64')}`, '33 bytes'],
    [`whsec_${Buffer.alloc(32).toString('base64')}`, 'another prefix'],
    ['whpk_@@@@', 'not base64'],
  ])('%s is no public key (%s)', (value) => {
    expect(parsePublicKey(value)).toBeUndefined();
  });

  it('reads a 32-byte whpk_ key and rejects malformed whsk_ keys', () => {
    const pub = parsePublicKey(`whpk_${Buffer.alloc(32, 1).toString('base64')}`);
    expect(pub?.asymmetricKeyType).toBe('ed25519');
    expect(parseSigningKey(`whsk_${Buffer.alloc(31).toString('base64')}`)).toBeUndefined();
    expect(parseSigningKey(`whsk_${Buffer.alloc(32, 2).toString('base64')}`)?.type).toBe('private');
  });
});

describe('configured key lists', () => {
  const publicKey = `whpk_${Buffer.alloc(32, 1).toString('base64')}`;

  it('splits secrets from whpk_ public keys', () => {
    expect(splitCallbackKeys(['sixteen-chars-ok', publicKey, whsec(16)])).toEqual({
      secrets: ['sixteen-chars-ok', whsec(16)],
      publicKeys: [publicKey],
    });
  });

  it.each([
    [publicKey, true],
    ['whpk_0123456789abcdefghij', false], // a malformed key is not taken as a secret
    [whsec(16), true],
    [whsec(8), false],
  ])('%s is a usable entry: %s', (entry, usable) => {
    expect(isUsableCallbackKey(entry)).toBe(usable);
  });
});
