import { describe, expect, it } from 'vitest';
import type { AccountChange, StreamChange } from '../../../../functions/domain/journal/model';
import { JournalProjector } from '../../../../functions/domain/journal-projector/projector';
import { UnavailableError } from '../../../../functions/domain/shared/errors';
import { fakeJournalEvents, fakeJournalWritePort } from '../../../support/fakes/journal';
import { fakeDaySumsPort } from '../../../support/fakes/ledger/statements';
import { recordingLog } from '../../../support/fakes/log';
import { recordingMetrics } from '../../../support/fakes/metrics';

/**
 * docs/contract.md §26 "Day sums": after an update's records are written, the projector adds its
 * day sums of effective time (once: the store's guard); a redelivery found projected adds them
 * again (a crash may have come between); a failure is isolated like monitors: logged, counted,
 * retried from the stream, the journal going on.
 */

const at = '2026-12-01T10:00:00.000Z';
const change = (balanceDelta: number, effectiveAt?: string): AccountChange => ({
  kind: balanceDelta >= 0 ? 'credit' : 'debit',
  balanceDelta,
  availableDelta: balanceDelta,
  at,
  ...(effectiveAt ? { effectiveAt } : {}),
});
const update = (version: number, changes: AccountChange[]): StreamChange => ({
  kind: 'image',
  image: { accountId: 'a1', version, balance: 0, available: 0, changes, journalFromCreation: true },
});

function setup(store = fakeJournalWritePort(), days = fakeDaySumsPort()) {
  const projector = new JournalProjector({
    store,
    events: fakeJournalEvents(),
    days,
    source: 'urn:idempotent-ledger:test',
    clock: () => new Date(at),
    log: recordingLog(),
    metrics: recordingMetrics(),
  });
  return { projector, days };
}

describe('day sums kept by the journal projector (docs/contract.md §31, §36)', () => {
  it('adds each update’s sums per effective day, after its records', async () => {
    const { projector, days } = setup();
    const changes = [change(5), change(-2, '2026-11-30T23:59:59.999Z'), change(3), change(0)];
    expect(await projector.project([update(4, changes)])).toBeUndefined();
    expect(days.addDays).toHaveBeenCalledWith(
      'a1',
      1,
      4,
      [
        { day: '2026-11-30', credits: 0, debits: 2, entries: 1 },
        { day: '2026-12-01', credits: 8, debits: 0, entries: 2 },
      ],
      at,
    );
  });

  it('adds them again for every update found projected (the store refuses a day added)', async () => {
    const head = { accountId: 'a1', lastSequence: 3, balanceAfter: 0, availableAfter: 0 };
    const store = fakeJournalWritePort({ readHead: async () => ({ ...head, committedAt: at }) });
    const { projector, days } = setup(store);
    expect(
      await projector.project([update(2, [change(7)]), update(3, [change(1)])]),
    ).toBeUndefined();
    expect(days.addDays.mock.calls.map(([, first, version]) => [first, version])).toEqual([
      [2, 2],
      [3, 3],
    ]);
  });

  it('never hold the journal back: a failure retries from its update, records go on', async () => {
    const failing = fakeDaySumsPort({
      addDays: async () => {
        throw new UnavailableError(undefined, 'throttled');
      },
    });
    const store = fakeJournalWritePort();
    const log = recordingLog();
    const metrics = recordingMetrics();
    const projector = new JournalProjector({
      store,
      events: fakeJournalEvents(),
      days: failing,
      source: 'urn:idempotent-ledger:test',
      clock: () => new Date(at),
      log,
      metrics,
    });
    expect(await projector.project([update(1, [change(7)]), update(2, [change(1)])])).toBe(0);
    // Both updates journaled; the second's day sums wait for the first's (version order).
    expect(store.append).toHaveBeenCalledTimes(2);
    expect(failing.addDays).toHaveBeenCalledTimes(1);
    expect(metrics.counts.get('EffectiveDaySumsFailure')).toBe(1);
    expect(log.lines.find((l) => l.level === 'error')).toMatchObject({
      message: 'day sums not added; the stream will retry them',
      fields: { accountId: 'a1', version: 1 },
    });
  });

  it('adds none for an update the head stands behind (a version gap)', async () => {
    const head = { accountId: 'a1', lastSequence: 1, balanceAfter: 0, availableAfter: 0 };
    const store = fakeJournalWritePort({ readHead: async () => ({ ...head, committedAt: at }) });
    const { projector, days } = setup(store);
    await projector.project([update(5, [change(7)])]);
    expect(days.addDays).not.toHaveBeenCalled();
  });
});
