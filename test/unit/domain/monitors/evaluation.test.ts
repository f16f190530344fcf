import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  AccountChange,
  AccountImage,
  StreamChange,
} from '../../../../functions/domain/journal/model';
import type { OutboundEvent } from '../../../../functions/domain/journal-projector/port';
import { JournalProjector } from '../../../../functions/domain/journal-projector/projector';
import {
  holds,
  MONITOR_FIELDS,
  MONITOR_OPERATORS,
  type Monitor,
  type MonitorEvent,
} from '../../../../functions/domain/monitors/model';
import type { MonitorEvaluationPort } from '../../../../functions/domain/monitors/port';
import { silentLog } from '../../../../functions/domain/shared/log';
import { noMetrics } from '../../../../functions/domain/shared/metrics';
import { fakeJournalEvents, fakeJournalWritePort } from '../../../support/fakes/journal';

const at = (i: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, i)).toISOString();

/** The table's side of monitors as the store behaves: conditional on the sequence read. */
function monitorTable(initial: readonly Monitor[]) {
  const rows = new Map(initial.map((m) => [m.id, m]));
  const port: MonitorEvaluationPort = {
    listMonitors: async () => [...rows.values()],
    async recordFlips(from, to, flips) {
      const now = rows.get(from.id);
      if (!now || now.sequence !== from.sequence) return { kind: 'moved', monitor: now };
      rows.set(from.id, { ...to, pending: [...(now.pending ?? []), ...flips] });
      return { kind: 'recorded' };
    },
    async confirmPublished(monitor) {
      const now = rows.get(monitor.id);
      if (now?.sequence !== monitor.sequence) return;
      const { pending: _done, ...rest } = now;
      rows.set(monitor.id, rest);
    },
  };
  return { port, rows };
}

/** The journal, as the projector sees the account: head and records in memory. */
function journalTable() {
  const store = fakeJournalWritePort();
  let head: Parameters<typeof store.append>[1];
  const records: Parameters<typeof store.append>[0][number][] = [];
  store.readHead.mockImplementation(async () => head);
  store.append.mockImplementation(async (written, previous) => {
    if ((head?.lastSequence ?? 0) !== (previous?.lastSequence ?? 0)) {
      return { kind: 'head_moved', head };
    }
    records.push(...written);
    const last = written.at(-1);
    if (last) head = { ...last, lastSequence: last.sequence };
    return { kind: 'committed' };
  });
  store.readRecords.mockImplementation(async (_a, from, to) =>
    records.filter((r) => r.sequence >= from && r.sequence <= to),
  );
  return store;
}

const monitorArb = fc.record({
  field: fc.constantFrom(...MONITOR_FIELDS),
  operator: fc.constantFrom(...MONITOR_OPERATORS),
  value: fc.integer({ min: -300, max: 300 }),
});

/** A random walk of deltas, cut into account updates of 1–5 changes. */
const walkArb = fc.array(
  fc.array(
    fc.record({
      balance: fc.integer({ min: -150, max: 150 }),
      held: fc.integer({ min: -50, max: 50 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  { minLength: 1, maxLength: 12 },
);

describe('balance monitors along random walks (docs/contract.md §28)', () => {
  it('publish one event per truth flip, none on redelivered or replayed batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(monitorArb, { minLength: 1, maxLength: 3 }),
        walkArb,
        fc.array(fc.nat(), { maxLength: 6 }),
        async (conditions, walk, replays) => {
          const monitors = conditions.map(
            (c, i): Monitor => ({
              ...c,
              id: `m${i}`,
              accountId: 'a1',
              state: holds(c, { balance: 0, available: 0 }),
              stateSince: at(0),
              sequence: 0,
              createdAt: at(0),
            }),
          );
          const table = monitorTable(monitors);
          const published: OutboundEvent[] = [];
          const events = fakeJournalEvents({
            publish: async (batch) => {
              published.push(...batch);
              return [];
            },
          });
          const projector = new JournalProjector({
            store: journalTable(),
            events,
            monitors: table.port,
            source: 'urn:test',
            clock: () => new Date(at(0)),
            log: silentLog,
            metrics: noMetrics,
          });
          // The expected flips, from the truth before and after every record.
          let balance = 0;
          let available = 0;
          let version = 0;
          const truths = monitors.map((m) => m.state);
          let expected = 0;
          const batches: StreamChange[][] = [];
          walk.forEach((update, u) => {
            const changes: AccountChange[] = update.map((d) => {
              balance += d.balance;
              available += d.balance - d.held;
              version++;
              monitors.forEach((m, i) => {
                const truth = holds(m, { balance, available });
                if (truth !== truths[i]) expected++;
                truths[i] = truth;
              });
              return {
                kind: 'credit',
                balanceDelta: d.balance,
                availableDelta: d.balance - d.held,
                at: at(u + 1),
              };
            });
            const image: AccountImage = {
              accountId: 'a1',
              version,
              balance,
              available,
              changes,
              journalFromCreation: true,
            };
            batches.push([{ kind: 'image', image }]);
          });
          for (const batch of batches) expect(await projector.project(batch)).toBeUndefined();
          // Redeliveries and replays of earlier batches, in any order.
          for (const r of replays) await projector.project(batches[r % batches.length] ?? []);
          const flips = published.filter(
            (e): e is MonitorEvent => e.type === 'ledger.balance_monitor.v1',
          );
          expect(flips).toHaveLength(expected);
          expect(new Set(flips.map((e) => e.id)).size).toBe(flips.length);
          // Each monitor ends where the walk left its truth, nothing left pending.
          monitors.forEach((m, i) => {
            const row = table.rows.get(m.id);
            expect(row?.state).toBe(truths[i]);
            expect(row?.pending).toBeUndefined();
          });
          // Every event alternates the state of its monitor, starting from the creation.
          for (const m of monitors) {
            const states = flips.filter((e) => e.data.monitorId === m.id).map((e) => e.data.state);
            states.forEach((s, k) => {
              expect(s).toBe((k % 2 === 0) !== m.state ? 'true' : 'false');
            });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('publishes a flip recorded before a crash on the next batch, and only then clears it', async () => {
    const monitor: Monitor = {
      id: 'm1',
      accountId: 'a1',
      field: 'balance',
      operator: 'gte',
      value: 10,
      state: false,
      stateSince: at(0),
      sequence: 0,
      createdAt: at(0),
    };
    const table = monitorTable([monitor]);
    let refuse = true;
    const published: OutboundEvent[] = [];
    const events = fakeJournalEvents({
      publish: async (batch) => {
        if (refuse) return batch.map((e) => e.id);
        published.push(...batch);
        return [];
      },
    });
    const projector = new JournalProjector({
      store: journalTable(),
      events,
      monitors: table.port,
      source: 'urn:test',
      clock: () => new Date(at(0)),
      log: silentLog,
      metrics: noMetrics,
    });
    const change: StreamChange = {
      kind: 'image',
      image: {
        accountId: 'a1',
        version: 1,
        balance: 20,
        available: 20,
        changes: [{ kind: 'credit', balanceDelta: 20, availableDelta: 20, at: at(1) }],
        journalFromCreation: true,
      },
    };
    // SNS refuses: the stream record fails, the flip stays pending on the monitor.
    expect(await projector.project([change])).toBe(0);
    expect(table.rows.get('m1')?.pending).toHaveLength(1);
    refuse = false;
    expect(await projector.project([change])).toBeUndefined();
    const flips = published.filter((e) => e.type === 'ledger.balance_monitor.v1');
    expect(flips.map((e) => e.id)).toEqual(['m1:0000000000000001']);
    expect(table.rows.get('m1')).toMatchObject({ state: true, sequence: 1, stateSince: at(1) });
    expect(table.rows.get('m1')?.pending).toBeUndefined();
    await projector.project([change]);
    expect(published.filter((e) => e.type === 'ledger.balance_monitor.v1')).toHaveLength(1);
  });

  it.each(['listMonitors', 'recordFlips'] as const)(
    'a failing %s delays only monitor evaluation: records are written and published (§31)',
    async (failing) => {
      const monitor: Monitor = {
        id: 'm1',
        accountId: 'a1',
        field: 'balance',
        operator: 'gte',
        value: 10,
        state: false,
        stateSince: at(0),
        sequence: 0,
        createdAt: at(0),
      };
      const table = monitorTable([monitor]);
      let broken = true;
      const real = table.port[failing];
      const port: MonitorEvaluationPort = {
        ...table.port,
        [failing]: (...args: Parameters<typeof real>) => {
          if (broken) return Promise.reject(new Error('monitors read throttled'));
          return (real as (...a: typeof args) => ReturnType<typeof real>)(...args);
        },
      };
      const published: OutboundEvent[] = [];
      const store = journalTable();
      const projector = new JournalProjector({
        store,
        events: fakeJournalEvents({
          publish: async (batch) => {
            published.push(...batch);
            return [];
          },
        }),
        monitors: port,
        source: 'urn:test',
        clock: () => new Date(at(0)),
        log: silentLog,
        metrics: noMetrics,
      });
      const image = (version: number, balance: number): StreamChange => ({
        kind: 'image',
        image: {
          accountId: 'a1',
          version,
          balance,
          available: balance,
          changes: [{ kind: 'credit', balanceDelta: 10, availableDelta: 10, at: at(version) }],
          journalFromCreation: true,
        },
      });
      const batch = [image(1, 10), image(2, 20), image(3, 30)];
      // Monitors fail: every record is still written and published; the stream retries from
      // the first update whose monitors were not evaluated.
      expect(await projector.project(batch)).toBe(0);
      expect((await store.readHead('a1'))?.lastSequence).toBe(3);
      expect(published.filter((e) => e.type === 'ledger.journal.v1')).toHaveLength(3);
      expect(published.some((e) => e.type === 'ledger.balance_monitor.v1')).toBe(false);
      // Healed: the retry finds the records projected and evaluates them, one flip at 1.
      broken = false;
      expect(await projector.project(batch)).toBeUndefined();
      const flips = published.filter((e) => e.type === 'ledger.balance_monitor.v1');
      expect(flips.map((e) => e.id)).toEqual(['m1:0000000000000001']);
      expect(table.rows.get('m1')).toMatchObject({ state: true, sequence: 1 });
    },
  );
});
