import { describe, expect, it } from 'vitest';
import { parseIdempotencyKey } from '../../../../functions/domain/idempotency/key';

describe('parseIdempotencyKey', () => {
  it.each([
    ['k1', 'k1'],
    ['"k1"', 'k1'],
    ['  k1  ', 'k1'],
    ['"with space"', 'with space'],
    ['"quote\\"inside"', 'quote"inside'],
    ['"back\\\\slash"', 'back\\slash'],
    ['x'.repeat(255), 'x'.repeat(255)],
    ['550e8400-e29b-41d4-a716-446655440000', '550e8400-e29b-41d4-a716-446655440000'],
    ['"comma,inside"', 'comma,inside'],
    ['"quoted \\" comma, inside"', 'quoted " comma, inside'],
  ])('reads %j as %j', (header, key) => {
    expect(parseIdempotencyKey(header)).toBe(key);
  });

  it('asks for a key when the header is absent', () => {
    expect(() => parseIdempotencyKey(undefined)).toThrow(
      expect.objectContaining({ code: 'idempotency_key_missing' }),
    );
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['an empty sf-string', '""'],
    ['256 characters', 'x'.repeat(256)],
    ['a 256-character sf-string', `"${'x'.repeat(256)}"`],
    ['non-ASCII', 'clé'],
    ['a control character', 'a\u0001b'],
    ['an unterminated sf-string', '"k1'],
    ['text after the closing quote', '"k1"x'],
    ['a bad escape', '"k\\n"'],
  ])('rejects %s', (_name, header) => {
    expect(() => parseIdempotencyKey(header)).toThrow(
      expect.objectContaining({ code: 'idempotency_key_invalid' }),
    );
  });

  // API Gateway (and the local adapter) join repeated headers with ",": `two-a,two-b` would be
  // a third key, and a later retry with `two-a` alone would move money again (docs/contract.md §4).
  it.each([
    ['two headers joined', 'two-a,two-b'],
    ['two headers joined with a space', 'two-a, two-b'],
    ['two sf-strings joined', '"two-a","two-b"'],
    ['an sf-string and a bare key joined', '"two-a", two-b'],
    ['a bare key with a comma', 'order,42'],
    ['a trailing comma', 'k1,'],
  ])('rejects %s as validation_failed naming the problem', (_name, header) => {
    expect(() => parseIdempotencyKey(header)).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        detail: expect.stringMatching(/more than one value.*repeated.*RFC 8941 string/s),
        errors: [
          {
            path: 'header.Idempotency-Key',
            message: expect.stringContaining('one value'),
          },
        ],
      }),
    );
  });
});
