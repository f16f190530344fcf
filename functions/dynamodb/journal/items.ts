import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import {
  CHANGE_ID_FIELDS,
  JOURNAL_KINDS,
  type JournalHead,
  type JournalKind,
  type JournalRecord,
} from '../../domain/journal/model';
import { putNew, toAttributes } from '../table/attributes';
import { keys } from '../table/keys';

/** `kind` of the journal's items; the record's own kind is stored as `change`. */
const RECORD_ITEM_KIND = 'journal-record';
const AS_OF_ITEM_KIND = 'journal-as-of';
export const HEAD_ITEM_KIND = 'journal-head';

/** A record as stored: its kind under `change`, as `kind` names the item's type table-wide. */
function stored(record: JournalRecord): Record<string, unknown> {
  const { kind, ...rest } = record;
  return { ...rest, change: kind };
}

/** A record by sequence and its time-keyed copy: both only ever created, never overwritten. */
export function recordItems(tableName: string, record: JournalRecord): TransactWriteItem[] {
  const { accountId, sequence, committedAt } = record;
  return [
    putNew(tableName, {
      ...keys.journalRecord(accountId, sequence),
      kind: RECORD_ITEM_KIND,
      ...stored(record),
    }),
    putNew(tableName, {
      ...keys.journalAsOf(accountId, committedAt, sequence),
      kind: AS_OF_ITEM_KIND,
      ...stored(record),
    }),
  ];
}

/**
 * The head moved to `next`, only from `previous`: absent for an account's first records, else
 * its `lastSequence` exactly. ALL_OLD tells the projector where the head stood instead.
 */
export function headItem(
  tableName: string,
  next: JournalHead,
  previous: JournalHead | undefined,
): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: toAttributes({ ...keys.journalHead(next.accountId), kind: HEAD_ITEM_KIND, ...next }),
      ...(previous === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#lastSequence = :previous',
            ExpressionAttributeNames: { '#lastSequence': 'lastSequence' },
            ExpressionAttributeValues: toAttributes({ ':previous': previous.lastSequence }),
          }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

function kindOf(value: unknown): JournalKind {
  const kind = JOURNAL_KINDS.find((k) => k === value);
  if (kind === undefined) throw new Error(`journal item has an unknown change: ${String(value)}`);
  return kind;
}

/** Attributes the table gives a journal item that are not the record's own. */
const TABLE_ATTRIBUTES = new Set(['pk', 'sk', 'kind', 'change']);

/**
 * A stored record as it was hashed (docs/contract.md §27): every attribute but the table's own
 * (keys, the item's kind) is the record's, fields this code does not know included, so a field a
 * later writer adds reaches the route, the events and the chain's check unchanged.
 */
export function toJournalRecord(item: Readonly<Record<string, unknown>>): JournalRecord {
  const rest = Object.fromEntries(
    Object.entries(item).filter(([name]) => !TABLE_ATTRIBUTES.has(name)),
  );
  const ids: Record<string, string> = {};
  for (const field of CHANGE_ID_FIELDS) {
    const value = item[field];
    if (typeof value === 'string') ids[field] = value;
  }
  return {
    ...rest,
    accountId: String(item.accountId),
    sequence: Number(item.sequence),
    kind: kindOf(item.change),
    balanceDelta: Number(item.balanceDelta),
    availableDelta: Number(item.availableDelta),
    balanceAfter: Number(item.balanceAfter),
    availableAfter: Number(item.availableAfter),
    committedAt: String(item.committedAt),
    ...(item.opening === true ? { opening: true as const } : {}),
    ...(typeof item.hash === 'string' ? { hash: item.hash } : {}),
    ...(item.chainStart === true ? { chainStart: true as const } : {}),
    ...ids,
  };
}

export function toJournalHead(item: Readonly<Record<string, unknown>>): JournalHead {
  return {
    accountId: String(item.accountId),
    lastSequence: Number(item.lastSequence),
    balanceAfter: Number(item.balanceAfter),
    availableAfter: Number(item.availableAfter),
    committedAt: String(item.committedAt),
    ...(typeof item.hash === 'string' ? { hash: item.hash } : {}),
  };
}
