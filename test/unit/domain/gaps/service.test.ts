import { describe, expect, it } from 'vitest';
import type {
  GapRequestStore,
  RefetchEvent,
  SequenceWrite,
  VersionedSequence,
} from '../../../../functions/domain/gaps/port';
import { gapSweep, refetchRequestId } from '../../../../functions/domain/gaps/service';
import {
  advanceEventSource,
  EMPTY_EVENT_SOURCE,
} from '../../../../functions/domain/gaps/source-state';
import { silentLog } from '../../../../functions/domain/shared/log';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const ref = { accountId: 'a1', source: 'urn:p' };

function harness(publish: (event: RefetchEvent) => Promise<void>) {
  let stored: VersionedSequence = {
    version: 2,
    state: advanceEventSource(
      advanceEventSource(EMPTY_EVENT_SOURCE, 1, new Date(T0).toISOString()).state,
      4,
      new Date(T0).toISOString(),
    ).state,
  };
  const requests = new Map<string, { event: RefetchEvent; published: boolean }>();
  const writes: SequenceWrite[] = [];
  const store: GapRequestStore = {
    readSource: async () => stored,
    async commitRequest(request, event, sequence) {
      if (sequence.expectedVersion !== stored.version || requests.has(request.id)) {
        return { kind: 'already_done' };
      }
      stored = { version: stored.version + 1, state: sequence.next };
      writes.push(sequence);
      requests.set(request.id, { event, published: false });
      return { kind: 'committed' };
    },
    async reschedule(sequence) {
      if (sequence.expectedVersion !== stored.version) return { kind: 'already_done' };
      stored = { version: stored.version + 1, state: sequence.next };
      writes.push(sequence);
      return { kind: 'committed' };
    },
    async markPublished(id) {
      const r = requests.get(id);
      if (!r || r.published) return false;
      r.published = true;
      return true;
    },
  };
  const sweep = gapSweep(
    store,
    { publish },
    {
      refetchAfterSeconds: 300,
      serviceSource: 'urn:idempotent-ledger:test',
      log: silentLog,
      decodeSource: () => ref,
      decodeRequest: (attributes) => ({
        id: String(attributes.requestId),
        event: requests.get(String(attributes.requestId))?.event as RefetchEvent,
      }),
    },
  );
  const [sources, pending] = sweep.handlers;
  const item = { kind: 'event-source', dueAt: T0 + 300_000, attributes: {} };
  return { sweep, sources, pending, item, requests, writes };
}

describe("the sweeper's gap handlers (docs/contract.md §18)", () => {
  it('commits one request for the due numbers, publishes it and marks it published', async () => {
    const published: RefetchEvent[] = [];
    const h = harness(async (e) => void published.push(e));
    const now = new Date(T0 + 300_000);
    expect(await h.sources?.settle(h.item, now)).toBe('settled');
    expect(await h.sources?.settle(h.item, now)).toBe('already_done');
    expect(published).toEqual([
      {
        specversion: '1.0',
        type: 'ledger.gap.refetch.v1',
        id: refetchRequestId('urn:p', 'a1', [2, 3]),
        source: 'urn:idempotent-ledger:test',
        subject: 'a1',
        time: now.toISOString(),
        datacontenttype: 'application/json',
        data: { source: 'urn:p', missing: [2, 3], openedAt: new Date(T0).toISOString() },
      },
    ]);
    expect(h.writes[0]?.dueAt).toBe(T0 + 12 * 300_000);
    expect([...h.requests.values()].every((r) => r.published)).toBe(true);
  });

  it('leaves a request it could not publish for the gap-request kind, which publishes it under the same id', async () => {
    let down = true;
    const published: RefetchEvent[] = [];
    const h = harness(async (e) => {
      if (down) throw new Error('SNS down');
      published.push(e);
    });
    const now = new Date(T0 + 300_000);
    expect(await h.sources?.settle(h.item, now)).toBe('settled');
    expect(published).toEqual([]);
    down = false;
    const [id] = h.requests.keys();
    const pendingItem = { kind: 'gap-request', dueAt: 0, attributes: { requestId: id } };
    expect(await h.pending?.settle(pendingItem, now)).toBe('settled');
    expect(published.map((e) => e.id)).toEqual([id]);
    // A sweep that still saw it due publishes again (at least once); the id is the same.
    expect(await h.pending?.settle(pendingItem, now)).toBe('already_done');
    expect(new Set(published.map((e) => e.id))).toEqual(new Set([id]));
  });

  it('counts overdue gaps per sweep and requests nothing before they are due', async () => {
    const h = harness(async () => {});
    expect(await h.sources?.settle(h.item, new Date(T0 + 299_999))).toBe('already_done');
    expect(h.sweep.takeOverdue()).toBe(0);
    await h.sources?.settle(h.item, new Date(T0 + 12 * 300_000));
    expect(h.sweep.takeOverdue()).toBe(2);
    expect(h.sweep.takeOverdue()).toBe(0);
  });
});

describe('an overdue gap already requested (docs/contract.md §30)', () => {
  it('is counted, then due GAP_OVERDUE_RECHECK_SECONDS later, not at the head of every sweep', async () => {
    const h = harness(async () => undefined);
    await h.sources?.settle(h.item, new Date(T0 + 300_000));
    const overdueAt = T0 + 12 * 300_000;
    expect(h.writes.at(-1)?.dueAt).toBe(overdueAt);
    h.sweep.takeOverdue();
    expect(await h.sources?.settle(h.item, new Date(overdueAt))).toBe('already_done');
    expect(h.sweep.takeOverdue()).toBe(2);
    expect(h.writes.at(-1)?.dueAt).toBe(overdueAt + 180_000);
    // Nothing new to count before then: a sweep in between writes nothing.
    const writes = h.writes.length;
    expect(await h.sources?.settle(h.item, new Date(overdueAt + 60_000))).toBe('already_done');
    expect(h.writes).toHaveLength(writes);
  });
});
