import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  idempotencyScopeId,
  type Json,
  requestFingerprint,
} from '../../../../functions/domain/idempotency/fingerprint';

const json: fc.Arbitrary<Json> = fc.jsonValue() as fc.Arbitrary<Json>;

/** Rebuilds every object with its keys in reverse insertion order. */
function reverseKeys(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(reverseKeys);
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

describe('canonical JSON and the request fingerprint', () => {
  it('ignores key order and whitespace', () => {
    fc.assert(
      fc.property(json, (value) => {
        const reordered = JSON.parse(JSON.stringify(reverseKeys(value), null, 2)) as Json;
        expect(canonicalJson(reordered)).toBe(canonicalJson(value));
        expect(requestFingerprint('op', {}, reordered)).toBe(requestFingerprint('op', {}, value));
      }),
    );
  });

  it('round-trips: canonical text parses back to an equal value', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('sorts keys and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: true, c: null }] })).toBe(
      '{"a":[{"c":null,"d":true}],"b":1}',
    );
  });

  it('differs when the operation, a path parameter or the body differs', () => {
    const base = requestFingerprint('POST /v1/x/{id}', { id: 'a' }, { amount: 1 });
    expect(requestFingerprint('POST /v1/y/{id}', { id: 'a' }, { amount: 1 })).not.toBe(base);
    expect(requestFingerprint('POST /v1/x/{id}', { id: 'b' }, { amount: 1 })).not.toBe(base);
    expect(requestFingerprint('POST /v1/x/{id}', { id: 'a' }, { amount: 2 })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps scopes apart even when parts contain the separator', () => {
    expect(idempotencyScopeId('a', 'b', 'c')).not.toBe(idempotencyScopeId('a', 'b"', 'c'));
    expect(idempotencyScopeId('alice', 'op', 'k')).not.toBe(idempotencyScopeId('bob', 'op', 'k'));
  });
});
