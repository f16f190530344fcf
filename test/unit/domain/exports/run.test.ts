import { describe, expect, it } from 'vitest';
import { refusedClaim } from '../../../../functions/domain/exports/run';

const NOW = new Date('2026-03-01T10:00:00.000Z');

describe('refusedClaim: why the worker may not run an execution', () => {
  it.each([
    ['missing', undefined, { kind: 'unknown_execution' }],
    [
      'terminal beats overdue and leased',
      {
        status: 'SUCCEEDED',
        deadline: '2026-03-01T09:00:00.000Z',
        leaseUntil: '2026-03-01T11:00:00.000Z',
      },
      { kind: 'finished', status: 'SUCCEEDED' },
    ],
    ['TIMED_OUT is finished', { status: 'TIMED_OUT' }, { kind: 'finished', status: 'TIMED_OUT' }],
    [
      'deadline reached (equal counts)',
      { status: 'RUNNING', deadline: NOW.toISOString(), leaseUntil: '2026-03-01T11:00:00.000Z' },
      { kind: 'past_deadline', deadline: NOW.toISOString() },
    ],
    [
      'before the deadline, another run holds it',
      {
        status: 'RUNNING',
        deadline: '2026-03-01T10:15:00.000Z',
        leaseUntil: '2026-03-01T10:05:00.000Z',
      },
      { kind: 'leased', leaseUntil: '2026-03-01T10:05:00.000Z' },
    ],
  ] as const)('%s', (_, facts, expected) => {
    expect(refusedClaim(facts, NOW)).toEqual(expected);
  });
});
