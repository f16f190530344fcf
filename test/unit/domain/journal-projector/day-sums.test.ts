import { describe, expect, it } from 'vitest';
import type { AccountChange, StreamChange } from '../../../../functions/domain/journal/model';
import { JournalProjector } from '../../../../functions/domain/journal-projector/projector';
import { UnavailableError } from '../../../../functions/domain/shared/errors';
import { fakeJournalEvents, fakeJournalWritePort } from '../../../support/fakes/journal';
import { fakeDaySumsPort } from '../../../support/fakes/ledger/statements';
import { recordingLog } from '../../../support/fakes/log';
import { recordingMetrics } from '../../../support/fakes/metrics';

/**
 * docs/contract.md §31, §36: after an update's records are written, the projector adds its day
 * sums of effective time (once: the store's guard); a redelivery found projected adds them again
 * (a crash may have come between); a failure fails the update, so the stream retries it.
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

  it('adds them again for an update found projected, and fails the update when they fail', async () => {
    const head = { accountId: 'a1', lastSequence: 1, balanceAfter: 0, availableAfter: 0 };
    const store = fakeJournalWritePort({ readHead: async () => ({ ...head, committedAt: at }) });
    const failing = fakeDaySumsPort({
      addDays: async () => {
        throw new UnavailableError(undefined, 'throttled');
      },
    });
    const { projector, days } = setup(store, failing);
    expect(await projector.project([update(1, [change(7)])])).toBe(0);
    expect(days.addDays).toHaveBeenCalledWith(
      'a1',
      1,
      1,
      [{ day: '2026-12-01', credits: 7, debits: 0, entries: 1 }],
      at,
    );
  });

  it('leaves them to the store for an update the head has passed (added before it moved on)', async () => {
    const head = { accountId: 'a1', lastSequence: 3, balanceAfter: 0, availableAfter: 0 };
    const store = fakeJournalWritePort({ readHead: async () => ({ ...head, committedAt: at }) });
    const { projector, days } = setup(store);
    expect(await projector.project([update(2, [change(7)])])).toBeUndefined();
    expect(days.addDays).not.toHaveBeenCalled();
  });
});
