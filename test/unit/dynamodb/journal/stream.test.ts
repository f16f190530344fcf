import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { decodeAccountChange } from '../../../../functions/dynamodb/journal/stream';

const change = {
  kind: 'credit',
  balanceDelta: 70,
  availableDelta: 70,
  at: '2026-12-01T10:00:00.000Z',
  entryId: '3f1c6a2e-8a5b-4c1d-9e2f-0a1b2c3d4e5f',
};
const account = (extra: Record<string, unknown> = {}) => ({
  pk: 'ACCOUNT#a1',
  sk: 'ACCOUNT',
  kind: 'account',
  id: 'a1',
  balance: 170,
  available: 150,
  version: 3,
  lastChanges: [change],
  ...extra,
});
const record = (item: Record<string, unknown>, eventName = 'MODIFY'): DynamoDBRecord =>
  ({
    eventName,
    dynamodb: { SequenceNumber: '1', NewImage: marshall(item, { removeUndefinedValues: true }) },
  }) as DynamoDBRecord;

describe('decoding the table stream for the journal projector', () => {
  it('reads an account update: version, values, changes, how its journal starts', () => {
    expect(decodeAccountChange(record(account({ journalFromCreation: true })))).toEqual({
      kind: 'image',
      image: {
        accountId: 'a1',
        version: 3,
        balance: 170,
        available: 150,
        changes: [change],
        journalFromCreation: true,
      },
    });
    const old = decodeAccountChange(record(account({ available: undefined })));
    expect(old).toMatchObject({ image: { available: 170, journalFromCreation: false } });
  });

  it('skips what is not an account update with changes', () => {
    const { lastChanges: _none, ...created } = account();
    for (const r of [
      record(created),
      record({ pk: 'OUTBOX#x', sk: 'OUTBOX', kind: 'outbox' }),
      record(account(), 'REMOVE'),
      { eventName: 'MODIFY', dynamodb: {} } as DynamoDBRecord,
    ]) {
      expect(decodeAccountChange(r)).toEqual({ kind: 'other' });
    }
  });

  it('hands the search indexer account creations and metadata changes, removals too (§34)', () => {
    const { lastChanges: _none, ...created } = account();
    const metadata = {
      pk: 'ACCOUNT#a1',
      sk: 'METADATA',
      kind: 'account-metadata',
      accountId: 'a1',
    };
    const removed = {
      eventName: 'REMOVE',
      dynamodb: { OldImage: marshall(metadata) },
    } as DynamoDBRecord;
    for (const r of [record(created, 'INSERT'), record(metadata, 'INSERT'), removed]) {
      expect(decodeAccountChange(r)).toEqual({ kind: 'account', accountId: 'a1' });
    }
  });

  it('reports changes the builder would never write as malformed, never as an image', () => {
    expect(
      decodeAccountChange(record(account({ lastChanges: [{ ...change, kind: 'gift' }] }))),
    ).toMatchObject({ kind: 'malformed', accountId: 'a1' });
    expect(decodeAccountChange(record(account({ version: 0 })))).toMatchObject({
      kind: 'malformed',
      reason: 'version 0',
    });
    expect(decodeAccountChange(record(account({ lastChanges: [] })))).toMatchObject({
      kind: 'malformed',
    });
  });
});
