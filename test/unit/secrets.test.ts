import { describe, expect, it } from 'vitest';
import { parseSecretMap, staticCallbackSecrets } from '../../functions/secrets/callback-secrets';

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
