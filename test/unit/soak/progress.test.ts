import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../soak/progress';

describe('the soak progress line', () => {
  it('shows operations/s, faults and the checks so far', () => {
    const line = progressLine(
      {
        operations: 120,
        lost: 7,
        kills: 1,
        outages: 1,
        retries: 30,
        checked: 2,
        findings: 0,
        verified: 18,
      },
      60,
    );
    expect(line).toBe(
      '60 s: 120 operations (2.0/s), faults: 7 lost answers, 1 kills, 1 outages; 30 retries; checks: 2 run(s) checked, 0 finding(s), 18 journal(s) verified',
    );
  });
});
