import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { type EventSpec, ledgerEvent, sqsEvent, sqsRecord } from '../../../kit/ledger-events';
import { bodyOf } from '../../support/ledger-api';
import { useLedgerFixture } from '../fixture';

/**
 * docs/contract.md §26 for ledger events through the real consumer: `data.effectiveAt` of a
 * credit, debit, transfer and ledger transaction lands on its entries (default: the commit's
 * time); later than now + 5 s or more than BACKDATE_LIMIT_DAYS back is dead-lettered as
 * `validation_failed`, at or before an account's closedThrough as `period_closed` (§6), with
 * nothing written; the inbox hash covers it when given.
 */

let now = new Date();
const fixture = useLedgerFixture({ clock: () => now });
const { api, consume, deadLetters } = fixture;
beforeEach(() => {
  now = new Date();
});

const DAY = 86_400_000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

type Kind = 'credit' | 'debit' | 'transfer' | 'transaction';
const KINDS: Kind[] = ['credit', 'debit', 'transfer', 'transaction'];

/** The event of `kind` about `a` (to `b` for two accounts), `data.effectiveAt` when given. */
function event(kind: Kind, a: string, b: string, effectiveAt?: string, id = randomUUID()) {
  const spec: EventSpec = {
    id,
    subject: a,
    amount: 10,
    type: `ledger.${kind}.v1`,
    ...(effectiveAt === undefined ? {} : { effectiveAt }),
  };
  if (kind === 'transfer') spec.toAccountId = b;
  if (kind === 'transaction') {
    spec.legs = [
      { accountId: a, direction: 'debit', amount: 10 },
      { accountId: b, direction: 'credit', amount: 10 },
    ];
  }
  return JSON.stringify(ledgerEvent(spec));
}
const batch = (...bodies: string[]) =>
  consume(sqsEvent(...bodies.map((body, i) => sqsRecord(body, `m-${i}`))));

/** `[type, effectiveAt]` of an account's entries from events, sorted. */
const fromEvents = async (accountId: string) =>
  (await api.entries(accountId))
    .filter((e) => e.origin === 'event')
    .map((e) => [String(e.type), String(e.effectiveAt)])
    .sort();

const SIDES: Record<Kind, [string, string | undefined]> = {
  credit: ['credit', undefined],
  debit: ['debit', undefined],
  transfer: ['transfer_out', 'transfer_in'],
  transaction: ['ledger_debit', 'ledger_credit'],
};

describe('data.effectiveAt of ledger events (docs/contract.md §26)', () => {
  it.each(KINDS)(
    'ledger.%s.v1: lands on its entries in UTC, or defaults to the commit',
    async (kind) => {
      const [a, b] = [await api.account(1_000), await api.account()];
      const given = at(-3 * DAY + 7);
      const zoned = new Date(new Date(given).getTime() - 5 * 3_600_000)
        .toISOString()
        .replace('Z', '-05:00');
      expect((await batch(event(kind, a, b, zoned))).batchItemFailures).toEqual([]);
      expect((await batch(event(kind, a, b))).batchItemFailures).toEqual([]);
      expect(deadLetters).toEqual([]);
      const [mine, theirs] = SIDES[kind];
      expect(await fromEvents(a)).toEqual([
        [mine, given],
        [mine, now.toISOString()],
      ]);
      if (theirs) {
        expect(await fromEvents(b)).toEqual([
          [theirs, given],
          [theirs, now.toISOString()],
        ]);
      }
    },
  );

  it.each(KINDS)(
    'ledger.%s.v1: 5 s ahead applies, 1 ms more is poison validation_failed',
    async (kind) => {
      const [a, b] = [await api.account(1_000), await api.account()];
      const ahead = event(kind, a, b, at(5_001));
      expect((await batch(ahead)).batchItemFailures).toEqual([]);
      expect(deadLetters.map((l) => [l.code, l.body])).toEqual([['validation_failed', ahead]]);
      expect(deadLetters[0]?.detail).toContain('effectiveAt');
      expect(await api.money(a)).toEqual({ balance: 1_000, available: 1_000 });
      expect((await batch(event(kind, a, b, at(5_000)))).batchItemFailures).toEqual([]);
      expect(deadLetters).toHaveLength(1);
      expect(await api.money(a)).toEqual({
        balance: kind === 'credit' ? 1_010 : 990,
        available: kind === 'credit' ? 1_010 : 990,
      });
    },
  );

  it.each(KINDS)(
    'ledger.%s.v1: 90 days back applies, 1 ms more is poison validation_failed',
    async (kind) => {
      const [a, b] = [await api.account(1_000), await api.account()];
      const old = event(kind, a, b, at(-90 * DAY - 1));
      expect((await batch(old)).batchItemFailures).toEqual([]);
      expect(deadLetters.map((l) => [l.code, l.body])).toEqual([['validation_failed', old]]);
      expect((await batch(event(kind, a, b, at(-90 * DAY)))).batchItemFailures).toEqual([]);
      expect(deadLetters).toHaveLength(1);
      expect(await fromEvents(a)).toEqual([[SIDES[kind][0], at(-90 * DAY)]]);
    },
  );

  it('dead-letters only the refused record of a batched run of one account', async () => {
    const a = await api.account();
    const bodies = [at(-DAY), at(6_000), at(-2 * DAY), at(-91 * DAY), undefined].map((when) =>
      event('credit', a, a, when),
    );
    expect((await batch(...bodies)).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => [l.code, l.body])).toEqual([
      ['validation_failed', bodies[1]],
      ['validation_failed', bodies[3]],
    ]);
    expect(await fromEvents(a)).toEqual(
      [at(-2 * DAY), at(-DAY), now.toISOString()].map((when) => ['credit', when]),
    );
  });

  it('is part of the inbox hash when given: the same id with another effectiveAt is id_conflict', async () => {
    const a = await api.account();
    const id = randomUUID();
    const first = event('credit', a, a, at(-DAY), id);
    expect((await batch(first)).batchItemFailures).toEqual([]);
    expect((await batch(first)).batchItemFailures).toEqual([]);
    expect(deadLetters).toEqual([]);
    const moved = event('credit', a, a, at(-2 * DAY), id);
    const undated = event('credit', a, a, undefined, id);
    expect((await batch(moved)).batchItemFailures).toEqual([]);
    expect((await batch(undated)).batchItemFailures).toEqual([]);
    expect(deadLetters.map((l) => l.code)).toEqual(['id_conflict', 'id_conflict']);
    expect(await api.money(a)).toEqual({ balance: 10, available: 10 });
  });
});

describe('closed periods for ledger events (docs/contract.md §26, §6)', () => {
  const CLOSED: [Kind, 'a' | 'b'][] = [
    ['credit', 'a'],
    ['debit', 'a'],
    ['transfer', 'a'],
    ['transfer', 'b'],
    ['transaction', 'a'],
    ['transaction', 'b'],
  ];

  it.each(CLOSED)(
    'ledger.%s.v1 with account %s closed through it: poison period_closed',
    async (kind, which) => {
      const [a, b] = [await api.account(1_000), await api.account(1_000)];
      const through = at(-5 * DAY);
      const closed = await api.post(`/v1/accounts/${which === 'a' ? a : b}/period-closes`, {
        through,
      });
      expect(bodyOf(closed).closedThrough).toBe(through);
      const refused = [event(kind, a, b, through), event(kind, a, b, at(-9 * DAY))];
      expect((await batch(...refused)).batchItemFailures).toEqual([]);
      expect(deadLetters.map((l) => [l.code, l.body])).toEqual(
        refused.map((body) => ['period_closed', body]),
      );
      for (const id of [a, b])
        expect(await api.money(id)).toEqual({ balance: 1_000, available: 1_000 });
      // 1 ms after it, and without data.effectiveAt, the events apply.
      const later = [event(kind, a, b, at(-5 * DAY + 1)), event(kind, a, b)];
      expect((await batch(...later)).batchItemFailures).toEqual([]);
      expect(deadLetters).toHaveLength(2);
      expect(await fromEvents(a)).toHaveLength(2);
    },
  );
});
