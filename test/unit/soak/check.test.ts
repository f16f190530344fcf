import { describe, expect, it } from 'vitest';
import { chain } from '../../../functions/domain/journal/chain';
import type { JournalRecord } from '../../../functions/domain/journal/model';
import { check } from '../../../soak/check/check';
import type { Answer } from '../../../soak/client';
import type { Executed } from '../../../soak/execute';
import type { Observed } from '../../../soak/observe';
import type { Operation, Plan } from '../../../soak/plan';
import type { RunRecord } from '../../../soak/runner';

/**
 * The soak's checker (soak/check/) on hand-made runs: a clean one passes, and each planted
 * defect — a credit applied twice, a refusal the model never gives, a journal whose chain is
 * cut, a break the journal verifier found in the table, a monitor that did not fire, a credit
 * left pending, an exchange applied with legs that balance only across currencies, rates not
 * echoed — is a finding of its own check.
 */
const plan: Plan = {
  seed: 1,
  accounts: [{ currency: 'EUR', deferred: false, overdraft: 0, events: false, closable: false }],
  monitors: [{ account: 0, field: 'balance', operator: 'gte', value: 10 }],
  operations: [
    { kind: 'credit', account: 0, amount: 20 },
    { kind: 'debit', account: 0, amount: 50 },
  ],
};

const answer = (sent: number, status: number, body: Record<string, unknown>): Answer => ({
  status,
  ...(typeof body.code === 'string' ? { code: body.code } : {}),
  body,
  sent,
  answered: sent + 1,
  attempts: 1,
  at: 0,
});

function run(debit: Answer = answer(3, 409, { code: 'insufficient_funds' })): RunRecord {
  const ops = plan.operations as Operation[];
  const executed: Executed[] = [
    { index: 0, op: ops[0] as Operation, answer: answer(1, 201, { id: 'e1' }) },
    { index: 1, op: ops[1] as Operation, answer: debit },
  ];
  return {
    run: 'r1',
    plan,
    startedAt: 0,
    accounts: ['a'],
    monitors: ['m'],
    executed,
    eventsSent: 0,
  };
}

const record = (
  sequence: number,
  entryId: string,
  delta: number,
  after: number,
): JournalRecord => ({
  accountId: 'a',
  sequence,
  kind: 'credit',
  balanceDelta: delta,
  availableDelta: delta,
  balanceAfter: after,
  availableAfter: after,
  committedAt: '2026-12-06T00:00:00.000Z',
  entryId,
});

function observed(records: JournalRecord[], changes: Partial<Observed> = {}): Observed {
  const balance = records.at(-1)?.balanceAfter ?? 0;
  return {
    accounts: [{ balance, available: balance, version: records.length, status: 'open' }],
    journals: [chain(records, undefined)],
    pending: [0],
    statements: [
      { openingBalance: 0, closingBalance: balance, totalCredits: balance, totalDebits: 0 },
    ],
    monitors: [{ state: String(balance >= 10) }],
    monitorEvents: new Map([['m', [1]]]),
    deadLetters: new Map(),
    verified: [{ accountId: 'a', records: records.length }],
    ...changes,
  };
}

const checks = (r: RunRecord, o: Observed) => [...new Set(check(r, o).map((f) => f.check))].sort();

describe('the soak checker', () => {
  it('passes a run the model explains', () => {
    expect(check(run(), observed([record(1, 'e1', 20, 20)]))).toEqual([]);
  });

  it('finds a credit applied twice (its retry applied again under another entry)', () => {
    const twice = observed([record(1, 'e1', 20, 20), record(2, 'e1-again', 20, 40)]);
    expect(checks(run(), twice)).toEqual(['applied_once', 'balances', 'conservation']);
  });

  it('finds a refusal the model never gives in its window', () => {
    const debit = answer(3, 409, { code: 'insufficient_funds' });
    const debit5: Operation = { kind: 'debit', account: 0, amount: 5 };
    const base = run(debit);
    const small: RunRecord = {
      ...base,
      plan: { ...plan, operations: [plan.operations[0] as Operation, debit5] },
      executed: [base.executed[0] as Executed, { index: 1, op: debit5, answer: debit }],
    };
    expect(checks(small, observed([record(1, 'e1', 20, 20)]))).toEqual(['answers']);
  });

  it("explains a movement refused period_closed at the close's own through (at or before)", () => {
    const close: Operation = { kind: 'period', account: 0, backdays: 27 };
    const debit: Operation = { kind: 'debit', account: 0, amount: 5, backdays: 27 };
    const base = run();
    const withClose: RunRecord = {
      ...base,
      plan: { ...plan, operations: [plan.operations[0] as Operation, close, debit] },
      executed: [
        base.executed[0] as Executed,
        { index: 1, op: close, answer: answer(2, 200, {}) },
        { index: 2, op: debit, answer: answer(4, 409, { code: 'period_closed' }) },
      ],
    };
    expect(checks(withClose, observed([record(1, 'e1', 20, 20)]))).toEqual([]);
    const later: Operation = { ...debit, backdays: 26 };
    const after: RunRecord = {
      ...withClose,
      executed: [
        ...withClose.executed.slice(0, 2),
        { index: 2, op: later, answer: answer(4, 409, { code: 'period_closed' }) },
      ],
    };
    expect(checks(after, observed([record(1, 'e1', 20, 20)]))).toEqual(['answers']);
  });

  it('finds a journal whose chain is broken', () => {
    const o = observed([record(1, 'e1', 20, 20)]);
    const [first] = o.journals[0] ?? [];
    const forged = { ...o, journals: [[{ ...(first as JournalRecord), hash: '0'.repeat(64) }]] };
    expect(checks(run(), forged)).toEqual(['journal_chain']);
  });

  it('finds a break the journal verifier read in the table, and a journal it read otherwise', () => {
    const o = observed([record(1, 'e1', 20, 20)]);
    const broken = {
      ...o,
      verified: [
        {
          accountId: 'a',
          records: 1,
          broken: { sequence: 1, problem: 'hash' as const, detail: 'the time-keyed copy differs' },
        },
      ],
    };
    expect(checks(run(), broken)).toEqual(['journal_verify']);
    expect(checks(run(), { ...o, verified: [{ accountId: 'a', records: 2 }] })).toEqual([
      'journal_verify',
    ]);
    expect(checks(run(), { ...o, verified: [] })).toEqual(['journal_verify']);
    // A foreign stack (--url): not verified, not a finding.
    expect(checks(run(), { ...o, verified: undefined })).toEqual([]);
  });

  it('finds a monitor that did not fire, a credit left pending, a statement that does not add up', () => {
    const o = observed([record(1, 'e1', 20, 20)], {
      monitorEvents: new Map(),
      pending: [1],
      statements: [{ openingBalance: 0, closingBalance: 20, totalCredits: 25, totalDebits: 0 }],
    });
    expect(checks(run(), o)).toEqual(['monitors', 'pending_posted', 'statements']);
  });

  it('lets an event dead-lettered after its receives apply at most once, never a permanent one', () => {
    const events: Operation = {
      kind: 'events',
      items: [{ type: 'credit', account: 0, amount: 700_000, sequence: 1, duplicate: false }],
    };
    const base = run();
    const withEvent: RunRecord = {
      ...base,
      plan: { ...plan, operations: [...plan.operations, events] },
      executed: [...base.executed, { index: 2, op: events }],
    };
    const applied = [record(1, 'e1', 20, 20), record(2, 'event-entry', 700_000, 700_020)];
    const dlq = (code: string) => ({ deadLetters: new Map([['r1-ev-700000', code]]) });
    expect(
      checks(withEvent, observed([record(1, 'e1', 20, 20)], dlq('receives_exhausted'))),
    ).toEqual([]);
    expect(checks(withEvent, observed(applied, dlq('receives_exhausted')))).toEqual([]);
    // Not sent (a foreign stack without --sqs): nothing expected of it.
    const skipped: RunRecord = {
      ...withEvent,
      executed: [...base.executed, { index: 2, op: events, skipped: 'no SQS endpoint' }],
    };
    expect(checks(skipped, observed([record(1, 'e1', 20, 20)]))).toEqual([]);
    expect(checks(withEvent, observed(applied, dlq('account_closed')))).toEqual([
      'applied_once',
      'balances',
      'conservation',
      'dead_letters',
    ]);
  });

  describe('exchanges (ledger transactions in two currencies, CONTRACT §35)', () => {
    const eur = {
      currency: 'EUR',
      deferred: false,
      overdraft: 0,
      events: false,
      closable: false,
    } as const;
    const usd = { ...eur, currency: 'USD', overdraft: 100 } as const;
    const rates = [{ base: 'USD', quote: 'EUR', rate: '0.9' }] as const;
    /** 10 USD from account 2 to 3, 9 EUR from 0 to 1, as README's "Currency exchange". */
    const exchange: Operation = {
      kind: 'ledger',
      currency: 'EUR',
      legs: [
        { account: 2, direction: 'debit', amount: 10, currency: 'USD' },
        { account: 3, direction: 'credit', amount: 10, currency: 'USD' },
        { account: 0, direction: 'debit', amount: 9 },
        { account: 1, direction: 'credit', amount: 9 },
      ],
      rates,
    };
    /** Legs that balance only across currencies: 10 USD out, 10 EUR in. */
    const unbalanced: Operation = {
      kind: 'ledger',
      legs: [
        { account: 2, direction: 'debit', amount: 10, currency: 'USD' },
        { account: 1, direction: 'credit', amount: 10, currency: 'EUR' },
      ],
    };
    const fxRun = (op: Operation, a: Answer): RunRecord => {
      const base = run();
      return {
        ...base,
        plan: {
          ...plan,
          accounts: [plan.accounts[0] as (typeof plan.accounts)[number], eur, usd, usd],
          operations: [plan.operations[0] as Operation, op],
        },
        accounts: ['a', 'b', 'c', 'd'],
        executed: [base.executed[0] as Executed, { index: 1, op, answer: a }],
      };
    };
    const leg = (
      accountId: string,
      sequence: number,
      delta: number,
      after: number,
    ): JournalRecord => ({
      ...record(sequence, '', delta, after),
      accountId,
      kind: delta < 0 ? 'ledger_debit' : 'ledger_credit',
      entryId: undefined,
      ledgerTransactionId: 'lt1',
    });
    /** The journals of accounts 0–3; account 0 was credited 20 first. */
    const fxObserved = (journals: JournalRecord[][]): Observed => {
      const one = (records: JournalRecord[]) => observed(records);
      const each = journals.map(one);
      return {
        ...(each[0] as Observed),
        accounts: each.flatMap((o) => o.accounts),
        journals: each.flatMap((o) => o.journals),
        pending: each.flatMap((o) => o.pending),
        statements: journals.map((records) => {
          const closing = records.at(-1)?.balanceAfter ?? 0;
          const sum = (sign: number) =>
            records.reduce((s, r) => s + Math.max(0, sign * r.balanceDelta), 0);
          return {
            openingBalance: 0,
            closingBalance: closing,
            totalCredits: sum(1),
            totalDebits: sum(-1),
          };
        }),
        verified: journals.map((records, i) => ({
          accountId: 'abcd'[i] ?? '',
          records: records.length,
        })),
      };
    };
    const credited = record(1, 'e1', 20, 20);

    it('passes an exchange whose legs balance per currency, its rates echoed', () => {
      const o = fxObserved([
        [credited, leg('a', 2, -9, 11)],
        [leg('b', 1, 9, 9)],
        [leg('c', 1, -10, -10)],
        [leg('d', 1, 10, 10)],
      ]);
      expect(checks(fxRun(exchange, answer(3, 201, { id: 'lt1', rates })), o)).toEqual([]);
    });

    it('finds rates not echoed as sent', () => {
      const o = fxObserved([
        [credited, leg('a', 2, -9, 11)],
        [leg('b', 1, 9, 9)],
        [leg('c', 1, -10, -10)],
        [leg('d', 1, 10, 10)],
      ]);
      const wrong = [{ base: 'USD', quote: 'EUR', rate: '0.85' }];
      expect(checks(fxRun(exchange, answer(3, 201, { id: 'lt1' })), o)).toEqual(['answers']);
      expect(checks(fxRun(exchange, answer(3, 201, { id: 'lt1', rates: wrong })), o)).toEqual([
        'answers',
      ]);
    });

    it('finds money not conserved per currency: legs balanced only across currencies, applied', () => {
      const o = fxObserved([[credited], [leg('b', 1, 10, 10)], [leg('c', 1, -10, -10)], []]);
      const found = check(fxRun(unbalanced, answer(3, 201, { id: 'lt1' })), o);
      // Σ of all balances (20) still equals the money that came in (20): only per currency
      // does it show.
      expect(found.filter((f) => f.check === 'conservation').map((f) => f.detail)).toEqual([
        'EUR: Σ balances 30, Σ money in and out 20',
        'USD: Σ balances -10, Σ money in and out 0',
      ]);
      expect([...new Set(found.map((f) => f.check))].sort()).toEqual(['answers', 'conservation']);
      // Refused as the model refuses it: nothing to find.
      const refused = answer(3, 422, { code: 'legs_unbalanced' });
      expect(checks(fxRun(unbalanced, refused), fxObserved([[credited], [], [], []]))).toEqual([]);
    });
  });
});
