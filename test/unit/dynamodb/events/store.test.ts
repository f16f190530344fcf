import {
  type CancellationReason,
  DynamoDBClient,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PostingEntry } from '../../../../functions/domain/accounts/model';
import type { InboxClaim, SequenceWrite } from '../../../../functions/domain/events/port';
import { createEventStore } from '../../../../functions/dynamodb/events/store';

const ddb = mockClient(DynamoDBClient);
const store = createEventStore({
  client: new DynamoDBClient({ region: 'eu-west-1' }),
  tableName: 'ledger',
  retry: { sleep: async () => {}, maxAttempts: 2 },
});
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

describe('applyEvent', () => {
  it('writes inbox, balance, entry, paymentId and sequence in one transaction', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(store.applyEvent(claim, entry, { currency: 'EUR' }, sequence)).resolves.toEqual({
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
    const result = await store.applyEvent(claim, entry, { currency: 'EUR' }, sequence);
    expect(result.kind).toBe(kind);
  });
});
