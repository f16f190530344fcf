import {
  BatchGetItemCommand,
  DynamoDBClient,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ledgerMovement,
  newLedgerTransaction,
} from '../../../../functions/domain/movements/ledger-transaction';
import { requestOnce } from '../../../../functions/domain/movements/once';
import { createLedgerTransactionStore } from '../../../../functions/dynamodb/ledger-transactions/store';
import { createMovementStore } from '../../../../functions/dynamodb/movements/store';
import { cancelled, conditionFailed as failed, none } from '../../../support/sdk/cancellation';
import { createdClaim, mockedStoreOptions } from '../../../support/sdk/mocked-store';

/** docs/contract.md §16: one transaction of every leg; cancellation reasons read as facts. */
const ddb = mockClient(DynamoDBClient);
const options = mockedStoreOptions();
const store = createLedgerTransactionStore(options);
/** The transaction itself is the movement store's (docs/contract.md §23). */
const movements = createMovementStore(options);
const claim = createdClaim;
let n = 0;
const record = newLedgerTransaction(
  {
    currency: 'EUR',
    legs: [
      { accountId: 'a', direction: 'debit', amount: 30 },
      { accountId: 'b', direction: 'credit', amount: 20 },
      { accountId: 'c', direction: 'credit', amount: 10 },
    ],
    paymentId: 'p',
    metadata: { k: 'v' },
  },
  { id: 'l1', entryId: () => `e${++n}` },
  {
    ownerId: 'alice',
    origin: 'http',
    createdAt: '2026-12-01T10:00:00.000Z',
    effectiveAt: '2026-12-01T10:00:00.000Z',
  },
);
const write = { record, legs: ledgerMovement(record) };

beforeEach(() => ddb.reset());

describe('createLedgerTransaction', () => {
  it('writes the claim, three guarded accounts, entries with pointers, the paymentId and the record', async () => {
    ddb.on(TransactWriteItemsCommand).resolves({});
    await expect(movements.ledgerTransaction(requestOnce(claim), write)).resolves.toEqual({
      kind: 'committed',
    });
    const items = ddb.commandCalls(TransactWriteItemsCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items.map((i) => i.Put?.Item?.pk?.S ?? i.Update?.Key?.pk?.S)).toEqual([
      'IDEMPOTENCY#scope',
      'ACCOUNT#a',
      'ACCOUNT#b',
      'ACCOUNT#c',
      'ACCOUNT#a',
      'ENTRY_ID#e1',
      'ACCOUNT#b',
      'ENTRY_ID#e2',
      'ACCOUNT#c',
      'ENTRY_ID#e3',
      'PAYMENT#a#p',
      'LEDGER_TRANSACTION#l1',
    ]);
    const [, a, b] = items;
    expect(a?.Update?.ConditionExpression).toContain('#spendable >= :required');
    expect(a?.Update?.ConditionExpression).toContain('#status <> :closed');
    expect(a?.Update?.ExpressionAttributeValues?.[':balanceDelta']).toEqual({ N: '-30' });
    expect(b?.Update?.ConditionExpression).not.toContain(':required');
    expect(b?.Update?.ConditionExpression).toContain('#balance <= :ceiling');
    expect(items[4]?.Put?.Item?.type).toEqual({ S: 'ledger_debit' });
    expect(items[4]?.Put?.Item?.metadata).toEqual({ M: { k: { S: 'v' } } });
    expect(items[11]?.Put?.Item?.ownerId).toEqual({ S: 'alice' });
    // The journal's descriptors (§15): one per leg, of the leg's kind, with its ids.
    const descriptors = items.slice(1, 4).map((i) => {
      const values = unmarshall(i.Update?.ExpressionAttributeValues ?? {});
      expect(i.Update?.UpdateExpression).toContain(
        '#version = if_not_exists(#version, :zero) + :n',
      );
      expect(values[':n']).toBe(1);
      return values[':lastChanges'];
    });
    expect(descriptors).toEqual(
      [
        ['ledger_debit', -30, 'e1'],
        ['ledger_credit', 20, 'e2'],
        ['ledger_credit', 10, 'e3'],
      ].map(([kind, delta, entryId]) => [
        {
          kind,
          balanceDelta: delta,
          availableDelta: delta,
          at: '2026-12-01T10:00:00.000Z',
          entryId,
          ledgerTransactionId: 'l1',
          effectiveAt: '2026-12-01T10:00:00.000Z',
        },
      ]),
    );
  });

  it.each([
    {
      name: 'an existing claim wins -> claimed',
      reasons: [
        failed({ fingerprint: 'x', statusCode: 201, body: '{}', expiresAt: 1500 }),
        failed(),
      ],
      kind: 'claimed',
    },
    {
      name: 'accounts -> legs_rejected by index, in leg order',
      reasons: [
        none,
        none,
        failed(),
        failed({ id: 'c', ownerId: 'alice', currency: 'EUR', balance: 1 }),
      ],
      expected: {
        kind: 'legs_rejected',
        legs: [
          { index: 1, account: undefined },
          { index: 2, account: expect.objectContaining({ id: 'c', available: 1 }) },
        ],
      },
    },
    {
      name: 'the paymentId alone -> payment_id_taken',
      reasons: [none, none, none, none, none, none, none, none, none, none, failed()],
      expected: { kind: 'payment_id_taken' },
    },
  ])('$name', async ({ reasons, kind, expected }) => {
    const padded = [...reasons, ...Array.from({ length: 12 - reasons.length }, () => none)];
    ddb.on(TransactWriteItemsCommand).rejects(cancelled(...padded));
    const result = await movements.ledgerTransaction(requestOnce(claim), write);
    if (expected) expect(result).toEqual(expected);
    else expect(result.kind).toBe(kind);
  });
});

describe('getAccounts', () => {
  it('reads every account in one BatchGetItem, in order, asking again for unprocessed keys', async () => {
    const item = (id: string) =>
      marshall({
        pk: `ACCOUNT#${id}`,
        sk: 'ACCOUNT',
        id,
        ownerId: 'o',
        currency: 'EUR',
        balance: 0,
      });
    ddb
      .on(BatchGetItemCommand)
      .resolvesOnce({
        Responses: { ledger: [item('b')] },
        UnprocessedKeys: { ledger: { Keys: [marshall({ pk: 'ACCOUNT#a', sk: 'ACCOUNT' })] } },
      })
      .resolvesOnce({ Responses: { ledger: [item('a')] } });
    const accounts = await store.getAccounts(['a', 'b', 'missing']);
    expect(accounts.map((a) => a?.id)).toEqual(['a', 'b', undefined]);
    const calls = ddb.commandCalls(BatchGetItemCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.args[0].input.RequestItems?.ledger?.ConsistentRead).toBe(true);
  });
});
