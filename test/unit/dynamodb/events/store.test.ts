import {
  type CancellationReason,
  DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PostingEntry } from '../../../../functions/domain/accounts/model';
import type { LedgerEventInput } from '../../../../functions/domain/events/model';
import { itemsOf } from '../../../../functions/domain/events/runs';
import type { SequenceWrite } from '../../../../functions/domain/gaps/port';
import type { InboxClaim } from '../../../../functions/domain/idempotency/port';
import { inboxOnce } from '../../../../functions/domain/movements/once';
import { createEventStore } from '../../../../functions/dynamodb/events/store';
import { createMovementStore } from '../../../../functions/dynamodb/movements/store';
import { mockedStoreOptions } from '../../../support/sdk/mocked-store';

const ddb = mockClient(DynamoDBClient);
const store = createEventStore(mockedStoreOptions());
const movements = createMovementStore(mockedStoreOptions());
const claim: InboxClaim = { source: 'urn:a', id: 'e1', nowSeconds: 100, expiresAt: 200 };
const entry: PostingEntry = {
  id: 'x1',
  accountId: 'a1',
  type: 'credit',
  amount: 5,
  currency: 'EUR',
  paymentId: 'p1',
  origin: 'event',
  createdAt: '2026-11-29T10:00:00.000Z',
  effectiveAt: '2026-11-29T10:00:00.000Z',
};
const sequence: SequenceWrite = {
  source: 'urn:a',
  accountId: 'a1',
  expectedVersion: 3,
  next: {
    lastSequence: 4,
    gaps: [2],
    gapsTruncated: false,
    gapDetails: [{ number: 2, openedAt: '2026-11-29T09:00:00.000Z' }],
    waived: [],
  },
  dueAt: Date.parse('2026-11-29T09:05:00.000Z'),
};
const none: CancellationReason = { Code: 'None' };
const failed: CancellationReason = { Code: 'ConditionalCheckFailed' };
const cancel = (...reasons: CancellationReason[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: reasons,
  });

beforeEach(() => ddb.reset());

describe('an event credit: the movement store under an inbox claim', () => {
  it('writes inbox, balance, entry, paymentId and sequence in one transaction', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(
      movements.post(inboxOnce(claim, sequence), { entry, guard: { currency: 'EUR' } }),
    ).resolves.toEqual({
      kind: 'committed',
    });
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items).toHaveLength(6);
    const [inbox, balance, ledger, pointer, payment, seq] = items;
    expect(inbox?.Put?.Item?.expiresAt).toEqual({ N: '200' });
    expect(inbox?.Put?.ConditionExpression).toBe('attribute_not_exists(pk) OR #expiresAt < :now');
    expect(balance?.Update?.ConditionExpression).not.toContain('ownerId');
    expect(ledger?.Put?.Item?.origin).toEqual({ S: 'event' });
    expect(pointer?.Put?.Item?.pk).toEqual({ S: 'ENTRY_ID#x1' });
    expect(payment?.Put?.Item?.pk).toEqual({ S: 'PAYMENT#a1#p1' });
    expect(seq?.Put?.ConditionExpression).toBe('#version = :version');
    expect(seq?.Put?.ExpressionAttributeValues?.[':version']).toEqual({ N: '3' });
    expect(seq?.Put?.Item?.version).toEqual({ N: '4' });
    expect(seq?.Put?.Item?.gaps).toEqual({ L: [{ N: '2' }] });
  });

  it.each([
    [
      'a duplicate wins over every other failure',
      [failed, failed, none, none, failed, failed],
      'duplicate',
    ],
    [
      'a moved sequence is re-read before judging the account',
      [none, failed, none, none, none, failed],
      'sequence_moved',
    ],
    ['an account failure', [none, failed, none, none, failed, none], 'account_rejected'],
    ['a used paymentId', [none, none, none, none, failed, none], 'payment_id_taken'],
  ])('%s', async (_name, reasons, kind) => {
    ddb.on(TransactWriteItemsCommand).rejects(cancel(...reasons));
    const result = await movements.post(inboxOnce(claim, sequence), {
      entry,
      guard: { currency: 'EUR' },
    });
    expect(result.kind).toBe(kind);
  });
});

describe('applyEventRun (docs/contract.md §20)', () => {
  const second: PostingEntry = {
    ...entry,
    id: 'x2',
    paymentId: undefined,
    type: 'debit',
    amount: 2,
  };
  const run = {
    accountId: 'a1',
    currency: 'EUR',
    records: [
      { claim, entry },
      { claim: { ...claim, id: 'e2' }, entry: second },
    ],
    sequences: [sequence],
  };

  it('writes ONE account update, then each record’s inbox, entry, pointer and paymentId, then the sequences', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(store.applyEventRun(run)).resolves.toEqual({ kind: 'committed' });
    const calls = ddb.commandCalls(TransactWriteItemsCommand);
    expect(calls).toHaveLength(1);
    const items = calls[0]?.args[0].input.TransactItems ?? [];
    const names = items.map((i) => {
      const pk = String((i.Put?.Item ?? i.Update?.Key)?.pk?.S);
      return pk.split('#')[0];
    });
    expect(names).toEqual([
      'ACCOUNT',
      'INBOX',
      'ACCOUNT',
      'ENTRY_ID',
      'PAYMENT',
      'INBOX',
      'ACCOUNT',
      'ENTRY_ID',
      'ACCOUNT',
    ]);
    // runs.ts counts what runParts writes: one definition of a chunk's size.
    const events: LedgerEventInput[] = run.records.map(({ claim: c, entry: e }, i) => ({
      source: c.source,
      id: c.id,
      type: e.type,
      accountId: e.accountId,
      amount: e.amount,
      currency: e.currency,
      paymentId: e.paymentId,
      sequence: i + 1,
      contentHash: 'h',
    }));
    expect(items).toHaveLength(itemsOf(events));
    const account = items[0]?.Update;
    // Net change of both records: +5 − 2.
    expect(account?.ExpressionAttributeValues?.[':balanceDelta']).toEqual({ N: '3' });
    expect(account?.ConditionExpression).toContain('#currency = :currency');
    // Producers cannot post to a closed account (docs/contract.md §17), batched or not.
    expect(account?.ConditionExpression).toContain('#status <> :closed');
    expect(items[8]?.Put?.Item?.sk).toEqual({ S: 'SOURCE#urn:a' });
  });

  it.each([
    ['a seen inbox item', [none, failed, none, none, none, none, none, none, none]],
    ['the account guard', [failed, none, none, none, none, none, none, none, none]],
    ['a taken paymentId', [none, none, none, none, failed, none, none, none, none]],
  ])('answers refused for %s, so the records go one by one', async (_name, reasons) => {
    ddb.on(TransactWriteItemsCommand).rejects(cancel(...reasons));
    await expect(store.applyEventRun(run)).resolves.toEqual({ kind: 'refused' });
  });

  it('answers sequence_moved when only a sequence item moved', async () => {
    ddb
      .on(TransactWriteItemsCommand)
      .rejects(cancel(none, none, none, none, none, none, none, none, failed));
    await expect(store.applyEventRun(run)).resolves.toEqual({ kind: 'sequence_moved' });
  });
});

describe('applyEventRun: the balance ceiling at every record’s turn', () => {
  it('bounds the balance by the highest running increase, not only the net change', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    const at = (id: string, type: 'credit' | 'debit', amount: number) => ({
      claim: { ...claim, id },
      entry: { ...entry, id, type, amount, paymentId: undefined },
    });
    await store.applyEventRun({
      accountId: 'a1',
      currency: 'EUR',
      records: [at('c1', 'credit', 10), at('d1', 'debit', 20), at('c2', 'credit', 5)],
      sequences: [],
    });
    const account =
      ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems?.[0]?.Update;
    expect(account?.ConditionExpression).toContain('#balance <= :ceiling');
    expect(account?.ExpressionAttributeValues?.[':ceiling']).toEqual({
      N: String(Number.MAX_SAFE_INTEGER - 10),
    });
    // Journal-ready: version grows by the number of changes, each listed in lastChanges.
    expect(account?.UpdateExpression).toContain('#version = if_not_exists(#version, :zero) + :n');
    expect(account?.ExpressionAttributeValues?.[':n']).toEqual({ N: '3' });
    expect(account?.ExpressionAttributeValues?.[':lastChanges']?.L?.map((c) => c.M?.kind)).toEqual([
      { S: 'credit' },
      { S: 'debit' },
      { S: 'credit' },
    ]);
    expect(account?.ExpressionAttributeValues?.[':required']).toEqual({ N: '10' });
  });
});
