import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { PostingEntry } from '../../../../functions/domain/accounts/model';
import { postingGuard } from '../../../../functions/domain/movements/legs';
import { batchPlan } from '../../../../functions/dynamodb/batches/items';
import { runPlan } from '../../../../functions/dynamodb/events/items';
import { foldPlan } from '../../../../functions/dynamodb/intake/posting-store';
import { composeMoney } from '../../../../functions/dynamodb/movements/compose';
import { decodeCancellation } from '../../../../functions/dynamodb/movements/decode';
import { entryLeg, type MoneyPlan } from '../../../../functions/dynamodb/movements/plan';

/**
 * docs/architecture.md "One write path": every transport's plan goes through ONE composer, which
 * routes each leg once and covers each draw at its turn; ONE decoder reads what refused.
 */
const at = '2026-12-01T10:00:00.000Z';
const posting = (id: string, type: 'credit' | 'debit', amount: number): PostingEntry => ({
  id,
  accountId: 'a1',
  type,
  amount,
  currency: 'EUR',
  origin: 'event',
  createdAt: at,
  effectiveAt: at,
});
const oneByOne = (entries: PostingEntry[]): MoneyPlan => ({
  movements: [{ legs: entries.map((entry) => entryLeg(entry, postingGuard(entry))) }],
});
const accountUpdate = (parts: { role: string; item: TransactWriteItem }[]) => {
  const update = parts.find(({ role }) => role === 'account:a1')?.item.Update;
  if (!update) throw new Error('no update of a1');
  return { ...update, values: unmarshall(update.ExpressionAttributeValues ?? {}) };
};
const claim = { source: 's', id: 'e', nowSeconds: 1, expiresAt: 2 };

describe('the one composer', () => {
  it('covers every draw at its turn: required − what the legs before it moved', () => {
    const cover = (entries: PostingEntry[]) =>
      accountUpdate(composeMoney('t', oneByOne(entries))).values[':required'];
    // Running +30, −70, +430: the debit needs 70 more than the account holds before.
    const run = [
      posting('c1', 'credit', 30),
      posting('d1', 'debit', 100),
      posting('c2', 'credit', 500),
    ];
    expect(cover(run)).toBe(70);
    expect(cover([posting('d1', 'debit', 40)])).toBe(40);
    // A credit first pays for the debit after it, even on an account below zero (§17).
    expect(cover([posting('c1', 'credit', 100), posting('d1', 'debit', 50)])).toBe(-50);
    expect(cover([posting('c1', 'credit', 5)])).toBeUndefined();
  });

  it('routes a credit into a deferred account to its gate once, a debit to the account', () => {
    const credit = posting('c1', 'credit', 5);
    const debit = { ...posting('d1', 'debit', 5), accountId: 'a2' };
    const parts = composeMoney('t', {
      movements: [
        { legs: [entryLeg(credit, postingGuard(credit)), entryLeg(debit, postingGuard(debit))] },
      ],
      intake: new Map([['a1', 4]]),
    });
    expect(parts.map(({ role }) => role)).toEqual([
      'account:a2',
      expect.stringMatching(/^gate:a1:[0-3]$/),
      'pending:0',
      'entry:0',
      'pointer:0',
    ]);
  });

  it('gives the SQS run, the batch and the folder the same account update as a single credit', () => {
    const entry = posting('c1', 'credit', 5);
    const single = accountUpdate(composeMoney('t', oneByOne([entry])));
    const run = accountUpdate(
      composeMoney(
        't',
        runPlan('t', {
          accountId: 'a1',
          currency: 'EUR',
          records: [{ claim, entry }],
          sequences: [],
        }),
      ),
    );
    const batch = accountUpdate(
      composeMoney(
        't',
        batchPlan(
          't',
          [
            {
              claim: {
                scopeId: 's',
                fingerprint: 'f',
                expiresAt: 1,
                nowSeconds: 0,
                response: { statusCode: 201, body: '' },
              } as never,
              legs: [{ entry, guard: postingGuard(entry) }],
            },
          ],
          {},
        ),
      ),
    );
    for (const other of [run, batch]) {
      expect(other.UpdateExpression).toBe(single.UpdateExpression);
      expect(other.ConditionExpression).toBe(single.ConditionExpression);
    }
    const folded = accountUpdate(
      composeMoney(
        't',
        foldPlan(
          't',
          'a1',
          [{ entry: { ...entry, paymentId: 'p' }, acceptedAt: at, shard: 0 }],
          at,
        ),
      ),
    );
    expect(folded.UpdateExpression).toBe(single.UpdateExpression);
    // The folder alone may credit a deferred account; its paymentId was claimed at intake.
    expect(folded.ConditionExpression).not.toContain('#creditIntake');
    expect(single.ConditionExpression).toContain('#creditIntake');
  });
});

describe('the one decoder', () => {
  it('reads accounts, gates, paymentIds and taken items by what they mean', () => {
    const cancellation = decodeCancellation(
      new Map<string, Record<string, unknown> | undefined>([
        ['account:a1', { id: 'a1', ownerId: 'o', currency: 'EUR', balance: 3 }],
        ['gate:a:b:2', { accountId: 'a:b', ownerId: 'o', currency: 'EUR', creditIntake: 'direct' }],
        ['payment:1', undefined],
        ['pending:3', undefined],
        ['claim:0', { scopeId: 's' }],
      ]),
    );
    expect(cancellation.accounts.get('a1')).toMatchObject({ balance: 3 });
    expect(cancellation.accounts.has('a:b')).toBe(false);
    expect(cancellation.gates.get('a:b')).toMatchObject({ creditIntake: 'direct' });
    expect([...cancellation.payments]).toEqual([1]);
    expect([...cancellation.taken]).toEqual([3]);
    expect(cancellation.failed.has('claim:0')).toBe(true);
  });
});
