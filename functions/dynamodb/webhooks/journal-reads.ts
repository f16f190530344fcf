import { QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { MONITOR_EVENT_TYPE } from '../../contract/monitors';
import { journalEvent } from '../../domain/journal/events';
import { journalPosition, sequenceOf } from '../../domain/webhooks/delivery';
import type { NextEvent } from '../../domain/webhooks/delivery-port';
import { toJournalRecord } from '../journal/items';
import { JOURNAL_TIME_SK_PREFIX, keys, SK_RANGE_END } from '../table/keys';
import { getItem, queryAll } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { deliveryKeys } from './delivery-items';

/** How the delivery function reads an account's events in order (docs/contract.md §32). */
export interface JournalReadOptions extends StoreOptions {
  /** `source` of the events, as the projector publishes them (`urn:idempotent-ledger:<stage>`). */
  readonly source: string;
}

/** After every monitor event of its sequence: where a cursor starts (nothing of it is sent). */
const afterAll = (sequence: number) => `${journalPosition(sequence)}${SK_RANGE_END}`;

/**
 * Where a new cursor starts: before the account's first record committed at or after `from`
 * (the endpoint's creation), else after its last record; records are never sent from before.
 */
export async function startPosition(options: StoreOptions, accountId: string, from: string) {
  const { client, tableName } = options;
  const pk = keys.journalHead(accountId).pk;
  const first = await queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :end',
    ExpressionAttributeValues: marshall({
      ':pk': pk,
      ':from': `${JOURNAL_TIME_SK_PREFIX}${from}`,
      ':end': `${JOURNAL_TIME_SK_PREFIX}${SK_RANGE_END}`,
    }),
    ConsistentRead: true,
    Limit: 1,
  });
  if (first[0]) return afterAll(Number(first[0].sequence) - 1);
  const head = await getItem(client, tableName, keys.journalHead(accountId));
  return afterAll(Number(head?.lastSequence ?? 0));
}

/**
 * The account's event after `position`: a kept monitor event of the same sequence, else the
 * next journal record (strongly consistent: gapless), as the CloudEvent the topic carries.
 */
export async function nextEvent(
  options: JournalReadOptions,
  accountId: string,
  position: string,
): Promise<NextEvent | undefined> {
  const { client, tableName } = options;
  const sequence = sequenceOf(position);
  const monitors = await queryAll(client, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :end',
    ExpressionAttributeValues: marshall({
      ':pk': deliveryKeys.monitorEvent(accountId, '').pk,
      ':from': position,
      ':end': afterAll(sequence),
    }),
    ConsistentRead: true,
    Limit: 2,
  });
  const monitor = monitors.find((item) => String(item.sk) > position);
  if (monitor) {
    return {
      position: String(monitor.sk),
      body: String(monitor.body),
      eventId: String(monitor.eventId),
      eventType: MONITOR_EVENT_TYPE,
    };
  }
  const item = await getItem(client, tableName, keys.journalRecord(accountId, sequence + 1));
  if (!item) return undefined;
  const event = journalEvent(toJournalRecord(item), options.source);
  return {
    position: journalPosition(sequence + 1),
    body: JSON.stringify(event),
    eventId: event.id,
    eventType: event.type,
  };
}

/** One page of a Query: its items and the sort key to go on from (none when it was the last). */
export async function queryPage(
  client: StoreOptions['client'],
  input: QueryCommandInput,
): Promise<{ items: Record<string, unknown>[]; lastSk: string | undefined }> {
  try {
    const page = await client.send(new QueryCommand(input));
    const last = page.LastEvaluatedKey ? unmarshall(page.LastEvaluatedKey) : undefined;
    return {
      items: (page.Items ?? []).map((item) => unmarshall(item)),
      lastSk: typeof last?.sk === 'string' ? last.sk : undefined,
    };
  } catch (error) {
    throw storageError(error);
  }
}
