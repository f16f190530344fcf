import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../../functions/domain/shared/errors';
import { describeError } from '../../../../functions/domain/shared/log';

describe('describeError: an error as one line for a human', () => {
  it('names the error and its message', () => {
    expect(describeError(new RangeError('too far'))).toBe('RangeError: too far');
  });

  it("adds a string code (an SDK's or Node's) and the cause's message", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect(describeError(refused)).toBe('Error ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1');
    expect(describeError(new TypeError('fetch failed', { cause: refused }))).toBe(
      'TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(describeError(new NotFoundError('Account not found.'))).toBe(
      'NotFoundError not_found: Account not found.',
    );
  });

  it('prints anything else as a string', () => {
    expect(describeError('plain')).toBe('plain');
    expect(describeError(42)).toBe('42');
  });
});
