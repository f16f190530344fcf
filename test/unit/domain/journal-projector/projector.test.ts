import { describe, expect, it } from 'vitest';
import { chainHash, checkChain } from '../../../../functions/domain/journal/chain';
import type {
  AccountChange,
  AccountImage,
  StreamChange,
} from '../../../../functions/domain/journal/model';
import { JournalProjector } from '../../../../functions/domain/journal-projector/projector';
import { UnavailableError } from '../../../../functions/domain/shared/errors';
import { fakeJournalEvents, fakeJournalWritePort } from '../../../support/fakes/journal';
import { recordingLog } from '../../../support/fakes/log';
import { recordingMetrics } from '../../../support/fakes/metrics';

const at = '2026-12-01T10:00:00.000Z';
const credit = (amount: number): AccountChange => ({
  kind: 'credit',
  balanceDelta: amount,
  availableDelta: amount,
  at,
  entryId: `e${amount}`,
});
/** Account a1 after `version` credits of 1 each, the last `n` of them in this update. */
const update = (version: number, n = 1, accountId = 'a1'): StreamChange => ({
  kind: 'image',
  image: {
    accountId,
    version,
    balance: version,
    available: version,
    changes: Array.from({ length: n }, () => credit(1)),
    journalFromCreation: true,
  } satisfies AccountImage,
});
const head = (lastSequence: number, accountId = 'a1') => ({
  accountId,
  lastSequence,
  balanceAfter: lastSequence,
  availableAfter: lastSequence,
  committedAt: at,
});

function setup(store = fakeJournalWritePort(), events = fakeJournalEvents()) {
  const log = recordingLog();
  const metrics = recordingMetrics();
  const projector = new JournalProjector({
    store,
    events,
    source: 'urn:idempotent-ledger:test',
    clock: () => new Date(at),
    log,
    metrics,
  });
  return { projector, store, events, log, metrics };
}

describe('the journal projector (docs/contract.md §15)', () => {
  it('writes each update after the head it continues and publishes every record', async () => {
    const { projector, store, events, metrics } = setup();
    expect(await projector.project([update(1), { kind: 'other' }, update(3, 2)])).toBeUndefined();
    expect(store.readHead).toHaveBeenCalledTimes(1);
    const [first, second] = store.append.mock.calls;
    expect(first?.[1]).toBeUndefined();
    expect(first?.[0].map((r) => r.sequence)).toEqual([1]);
    expect(second?.[1]).toMatchObject({ lastSequence: 1 });
    expect(second?.[0].map((r) => r.sequence)).toEqual([2, 3]);
    const published = events.publish.mock.calls.flatMap(([batch]) => batch);
    expect(published.map((e) => e.id)).toEqual([
      'a1:0000000000000001',
      'a1:0000000000000002',
      'a1:0000000000000003',
    ]);
    expect(published[0]).toMatchObject({
      specversion: '1.0',
      source: 'urn:idempotent-ledger:test',
      type: 'ledger.journal.v1',
      subject: 'a1',
      sequence: '0000000000000001',
      time: at,
      data: { sequence: 1, kind: 'credit', balanceAfter: 1 },
    });
    expect(metrics.counts.get('JournalRecordsWritten')).toBe(3);
  });

  it('writes nothing for an update already projected, but publishes its stored records again', async () => {
    const stored = [
      {
        ...credit(1),
        accountId: 'a1',
        sequence: 2,
        balanceAfter: 2,
        availableAfter: 2,
        committedAt: at,
      },
    ];
    const store = fakeJournalWritePort({
      readHead: async () => head(5),
      readRecords: async () => stored.map(({ at: _at, ...r }) => r),
    });
    const { projector, events, metrics } = setup(store);
    expect(await projector.project([update(2)])).toBeUndefined();
    expect(store.append).not.toHaveBeenCalled();
    expect(store.readRecords).toHaveBeenCalledWith('a1', 2, 2);
    expect(events.publish.mock.calls[0]?.[0].map((e) => e.id)).toEqual(['a1:0000000000000002']);
    expect(metrics.counts.get('JournalAlreadyProjected')).toBe(1);
    expect(metrics.counts.get('JournalVersionGap')).toBeUndefined();
  });

  it('counts a version gap, writes and publishes nothing for it, and does not block the stream', async () => {
    const store = fakeJournalWritePort({ readHead: async () => head(2) });
    const { projector, events, log, metrics } = setup(store);
    expect(await projector.project([update(5), update(4, 1, 'b2')])).toBeUndefined();
    expect(store.append.mock.calls.map(([records]) => records[0]?.accountId)).toEqual([]);
    expect(metrics.counts.get('JournalVersionGap')).toBe(2);
    expect(log.lines.filter((l) => l.level === 'error')[0]).toMatchObject({
      message: 'journal version gap; records not written',
      fields: { accountId: 'a1', headSequence: 2, firstSequence: 5, version: 5 },
    });
    expect(events.publish).not.toHaveBeenCalled();
    // The reconciler looks at it, and records a finding if it stays behind (docs/contract.md §30).
    expect(store.markForReconcile).toHaveBeenCalledWith('a1', 2);
  });

  it('counts an account changed without a journaled change and marks it for the reconciler', async () => {
    const store = fakeJournalWritePort({
      readHead: async () => ({ ...head(3), balanceAfter: 99 }),
    });
    const { projector, metrics } = setup(store);
    await projector.project([update(3)]);
    expect(metrics.counts.get('JournalVersionGap')).toBe(1);
    expect(store.markForReconcile).toHaveBeenCalledWith(expect.any(String), 3);
  });

  it('does not mark a plain redelivery for the reconciler', async () => {
    const store = fakeJournalWritePort({ readHead: async () => head(3) });
    const { projector } = setup(store);
    await projector.project([update(3)]);
    expect(store.markForReconcile).not.toHaveBeenCalled();
  });

  it('re-reads a head that moved under it and judges again', async () => {
    const store = fakeJournalWritePort({
      append: async () => ({ kind: 'head_moved', head: head(1) }),
    });
    const { projector, metrics } = setup(store);
    expect(await projector.project([update(1)])).toBeUndefined();
    expect(store.append).toHaveBeenCalledTimes(1);
    expect(metrics.counts.get('JournalAlreadyProjected')).toBe(1);
  });

  it('answers the first stream position to retry: a failed write stops its account only', async () => {
    const store = fakeJournalWritePort({
      append: async (records) => {
        if (records[0]?.accountId === 'b2') throw new UnavailableError();
        return { kind: 'committed' };
      },
    });
    const { projector, events } = setup(store);
    const failed = await projector.project([
      update(1),
      update(1, 1, 'b2'),
      update(2),
      update(2, 1, 'b2'),
    ]);
    expect(failed).toBe(1);
    // a1 went on; b2 stopped at its first update; a1's records are still published.
    expect(store.append.mock.calls.map(([r]) => `${r[0]?.accountId}:${r[0]?.sequence}`)).toEqual([
      'a1:1',
      'b2:1',
      'a1:2',
    ]);
    expect(events.publish.mock.calls.flatMap(([b]) => b).map((e) => e.id)).toHaveLength(2);
  });

  it('reports the earliest change whose event the topic refused, and counts it', async () => {
    const events = fakeJournalEvents({
      publish: async (batch) => batch.filter((e) => e.data.sequence === 2).map((e) => e.id),
    });
    const { projector, metrics } = setup(fakeJournalWritePort(), events);
    expect(await projector.project([update(1), update(2), update(3)])).toBe(1);
    expect(metrics.counts.get('JournalPublishFailure')).toBe(1);
    expect(metrics.counts.get('JournalEventsPublished')).toBe(2);
  });

  it('treats a publish call that throws as every event of it refused', async () => {
    const events = fakeJournalEvents({
      publish: async () => {
        throw new Error('SNS down');
      },
    });
    const { projector } = setup(fakeJournalWritePort(), events);
    expect(await projector.project([{ kind: 'other' }, update(1)])).toBe(1);
  });

  it('publishes in batches of at most 10 events', async () => {
    const { projector, events } = setup();
    await projector.project([update(25, 25)]);
    expect(events.publish.mock.calls.map(([batch]) => batch.length)).toEqual([10, 10, 5]);
  });

  it('counts an unreadable account change as a gap and goes on', async () => {
    const { projector, metrics } = setup();
    expect(
      await projector.project([{ kind: 'malformed', accountId: 'a1', reason: 'lastChanges' }]),
    ).toBeUndefined();
    expect(metrics.counts.get('JournalVersionGap')).toBe(1);
  });

  it('hashes each record in commit order, linked to the head it continues (§27)', async () => {
    const { projector, store, events } = setup();
    await projector.project([update(1), update(3, 2)]);
    const [first, second] = store.append.mock.calls;
    const one = first?.[0][0];
    expect(one).toMatchObject({ sequence: 1, chainStart: true });
    expect(checkChain([...(first?.[0] ?? []), ...(second?.[0] ?? [])], undefined).breaks).toEqual(
      [],
    );
    // The second update continues from the head the first left, which keeps the last hash.
    expect(second?.[1]?.hash).toBe(one?.hash);
    const published = events.publish.mock.calls.flatMap(([batch]) => batch);
    expect(published.map((e) => ('hash' in e.data ? e.data.hash : undefined))).toEqual(
      [...(first?.[0] ?? []), ...(second?.[0] ?? [])].map((r) => r.hash),
    );
  });

  it('starts the chain after a head written before it, and links to a hashed head', async () => {
    const legacy = fakeJournalWritePort({ readHead: async () => head(4) });
    const { projector, store } = setup(legacy);
    await projector.project([update(5)]);
    expect(store.append.mock.calls[0]?.[0][0]).toMatchObject({ sequence: 5, chainStart: true });
    const hashed = fakeJournalWritePort({
      readHead: async () => ({ ...head(4), hash: 'a'.repeat(64) }),
    });
    const next = setup(hashed);
    await next.projector.project([update(5)]);
    const [record] = next.store.append.mock.calls[0]?.[0] ?? [];
    expect(record?.chainStart).toBeUndefined();
    expect(record?.hash).toBe(chainHash('a'.repeat(64), { ...record, hash: undefined }));
  });
});
