import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LedgerEventInput } from '../../../../functions/domain/events/model';
import type { EventRunResult } from '../../../../functions/domain/events/port';
import { EventService } from '../../../../functions/domain/events/service';
import type { VersionedSequence } from '../../../../functions/domain/gaps/port';
import { fakeEventLedgerPort } from '../../../support/fakes/events';
import { fakeMovementPort } from '../../../support/fakes/ledger/movements';

const event = (overrides: Partial<LedgerEventInput>): LedgerEventInput => ({
  source: 'urn:a',
  id: randomUUID(),
  type: 'credit',
  accountId: 'acc',
  amount: 1,
  currency: 'EUR',
  contentHash: 'h',
  ...overrides,
});
const NOW = new Date('2026-12-01T10:00:00.000Z');

function service(results: EventRunResult[], stored: Record<string, VersionedSequence> = {}) {
  const port = fakeEventLedgerPort({
    getSequence: async (_account, source) => stored[source],
    applyEventRun: async () => results.shift() ?? { kind: 'committed' },
  });
  return {
    port,
    events: new EventService(port, fakeMovementPort(), {
      newId: randomUUID,
      inboxRetentionSeconds: 60,
      gapRefetchAfterSeconds: 300,
      backdateLimitDays: 90,
      sleep: async () => {},
    }),
  };
}

describe('EventService.applyRun: one write for a chunk of one account', () => {
  it('reads each source once and moves its sequence on event by event, in order', async () => {
    const { events, port } = service([], {
      'urn:b': {
        version: 4,
        state: {
          lastSequence: 5,
          gaps: [3],
          gapsTruncated: false,
          gapDetails: [{ number: 3, openedAt: '2026-01-01T00:00:00.000Z' }],
          waived: [],
        },
      },
    });
    const outcomes = await events.applyRun(
      [
        event({ sequence: 1 }),
        event({ source: 'urn:b', sequence: 3 }),
        event({ sequence: 4 }),
        event({ source: 'urn:b', sequence: 2 }), // below 5, not a gap: stale
        event({}),
      ],
      NOW,
    );
    expect(port.getSequence).toHaveBeenCalledTimes(2);
    const run = port.applyEventRun.mock.calls[0]?.[0];
    // New gaps open at the write time and fall due GAP_REFETCH_AFTER_SECONDS later (§18).
    const at = NOW.toISOString();
    expect(run?.sequences).toMatchObject([
      {
        source: 'urn:a',
        accountId: 'acc',
        expectedVersion: 0,
        next: {
          lastSequence: 4,
          gaps: [2, 3],
          gapsTruncated: false,
          gapDetails: [
            { number: 2, openedAt: at },
            { number: 3, openedAt: at },
          ],
        },
        dueAt: NOW.getTime() + 300_000,
      },
      {
        source: 'urn:b',
        accountId: 'acc',
        expectedVersion: 4,
        next: { lastSequence: 5, gaps: [], gapsTruncated: false, gapDetails: [] },
      },
    ]);
    expect(outcomes).not.toBe('refused');
    const applied = outcomes as Exclude<typeof outcomes, 'refused'>;
    expect(applied.map((o) => o.kind)).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
      'applied',
    ]);
    expect(applied.map((o) => (o.kind === 'applied' ? o.sequence?.position : 'x'))).toEqual([
      'next',
      'gap_filled',
      'ahead',
      'stale',
      undefined,
    ]);
    // Every entry of the chunk, in order, with the run's time.
    expect(run?.records.map((r) => r.entry.createdAt)).toEqual(Array(5).fill(NOW.toISOString()));
  });

  it('writes no sequence item whose events were all stale', async () => {
    const { events, port } = service([], {
      'urn:a': {
        version: 2,
        state: { lastSequence: 9, gaps: [], gapsTruncated: false, gapDetails: [], waived: [] },
      },
    });
    await events.applyRun([event({ sequence: 3 }), event({ sequence: 4 })], NOW);
    expect(port.applyEventRun.mock.calls[0]?.[0].sequences).toEqual([]);
  });

  it('reads the sequences again when another writer moved one, then commits', async () => {
    const { events, port } = service([{ kind: 'sequence_moved' }, { kind: 'committed' }]);
    const outcomes = await events.applyRun([event({ sequence: 1 }), event({ sequence: 2 })], NOW);
    expect(port.applyEventRun).toHaveBeenCalledTimes(2);
    expect(port.getSequence).toHaveBeenCalledTimes(2);
    expect(Array.isArray(outcomes)).toBe(true);
  });

  it('answers refused when a record stands in the way, having written nothing', async () => {
    const { events } = service([{ kind: 'refused' }]);
    await expect(events.applyRun([event({}), event({})], NOW)).resolves.toBe('refused');
  });
});
