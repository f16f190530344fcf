import { describe, expect, it } from 'vitest';
import { matches } from '../../../console/server/accounts/reader';

/** The accounts page's search (docs/contract.md §29): owner or name prefix, in any case. */
describe('account search', () => {
  const bob = { ownerId: 'Bob', name: 'Bob savings' };

  it('finds an owner id in any case, whole', () => {
    expect(matches(bob, 'bob')).toBe(true);
    expect(matches(bob, 'BOB')).toBe(true);
    expect(matches({ ownerId: 'bobby' }, 'bob')).toBe(false);
  });

  it('finds the start of a name in any case, not its middle', () => {
    expect(matches(bob, 'bob SAV')).toBe(true);
    expect(matches(bob, 'savings')).toBe(false);
    expect(matches({ ownerId: 'carol' }, 'car')).toBe(false);
  });
});
