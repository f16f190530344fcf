import { describe, expect, it } from 'vitest';
import { formatSpread, median, pairedRatio, percentile, spread } from '../../../bench/stats';

describe('bench statistics', () => {
  it.each([
    [50, 5],
    [99, 10],
    [100, 10],
    [1, 1],
    [0, 1],
  ])('nearest-rank p%d of 1..10 in any order is %d', (p, expected) => {
    expect(percentile([7, 3, 10, 1, 5, 9, 2, 8, 4, 6], p)).toBe(expected);
  });

  it('has no percentile or median of nothing', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(median([])).toBeNaN();
  });

  it('takes the middle of an odd count and the mean of the two middles of an even count', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('summarises rounds as median with lowest and highest', () => {
    expect(spread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(formatSpread(spread([0.5, 0.25, 1]))).toBe('0.50 (0.25–1.00)');
  });

  it('pairs each round with itself, so drift shared by both sides cancels', () => {
    // Round 2 is twice as slow for both sides: the ratio stays 0.5 in every round.
    expect(pairedRatio([1, 2, 1], [2, 4, 2])).toEqual({ median: 0.5, min: 0.5, max: 0.5 });
    expect(() => pairedRatio([1], [1, 2])).toThrow(/same rounds/);
  });
});
