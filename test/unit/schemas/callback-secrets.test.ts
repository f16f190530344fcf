import { describe, expect, it } from 'vitest';
import {
  mergeKeyMaps,
  parsePublicKeyMap,
  parseSecretMap,
  staticCallbackSecrets,
} from '../../../functions/schemas/exports/callbacks';

describe('callback secret documents', () => {
  it('reads lists, and a single string as a one-element list', () => {
    expect(
      parseSecretMap('{"a":["0123456789abcdef","fedcba9876543210"],"b":"generated-by-cfn-123456"}'),
    ).toEqual({ a: ['0123456789abcdef', 'fedcba9876543210'], b: ['generated-by-cfn-123456'] });
  });

  it.each([
    ['not JSON', '{'],
    ['an empty list', '{"a":[]}'],
    ['a short secret', '{"a":["short"]}'],
    ['a number', '{"a":[42]}'],
  ])('refuses %s loudly', (_name, doc) => {
    expect(() => parseSecretMap(doc)).toThrow(/callback secrets/);
  });

  it('knows no secrets for an unknown or inherited application id', async () => {
    const secrets = staticCallbackSecrets('{"a":["0123456789abcdef"]}');
    expect(await secrets.secretsFor('b')).toEqual([]);
    expect(await secrets.secretsFor('constructor')).toEqual([]);
    expect(await secrets.secretsFor('a')).toEqual(['0123456789abcdef']);
  });
});

it('never repeats any of a malformed document in its error (the document is secret)', () => {
  const leaked = (() => {
    try {
      parseSecretMap('{"export-worker": [s3cr3t-value-0123456789]}');
      return '';
    } catch (error) {
      const e = error as Error;
      return `${e.message} ${String(e.cause ?? '')}`;
    }
  })();
  expect(leaked).toContain('callback secrets are not JSON');
  expect(leaked).not.toContain('s3cr3t');
});

describe('Standard Webhooks keys in the documents (docs/contract.md §7)', () => {
  const whpk = `whpk_${Buffer.alloc(32, 3).toString('base64')}`;
  const whsec = (bytes: number) => `whsec_${Buffer.alloc(bytes, 5).toString('base64')}`;

  it('keeps whpk_ public keys beside secrets in one document', () => {
    expect(parseSecretMap(JSON.stringify({ a: [whsec(16), whpk], b: [whpk] }))).toEqual({
      a: [whsec(16), whpk],
      b: [whpk],
    });
  });

  it.each([
    ['a whsec_ secret of 15 decoded bytes', whsec(15)],
    ['a whsec_ secret that is not base64', 'whsec_????????????????????'],
    ['a whpk_ key of 31 bytes', `whpk_${Buffer.alloc(31).toString('base64')}`],
  ])('refuses %s', (_name, entry) => {
    expect(() => parseSecretMap(JSON.stringify({ a: [entry] }))).toThrow(/callback secrets/);
  });

  it('reads CALLBACK_PUBLIC_KEYS with whpk_ entries only, and merges it with the secrets', () => {
    const keys = parsePublicKeyMap(JSON.stringify({ a: [whpk], c: [whpk] }));

    expect(() => parsePublicKeyMap(JSON.stringify({ a: ['sixteen-chars-ok'] }))).toThrow(/whpk_/);
    expect(mergeKeyMaps({ a: ['sixteen-chars-ok'], b: ['0123456789abcdef'] }, keys)).toEqual({
      a: ['sixteen-chars-ok', whpk],
      b: ['0123456789abcdef'],
      c: [whpk],
    });
  });
});
