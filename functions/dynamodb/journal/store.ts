import { type AttributeValue, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { headAfter, type JournalRecord } from '../../domain/journal/model';
import type {
  AppendResult,
  JournalAccount,
  JournalPage,
  JournalReadPort,
  JournalWritePort,
} from '../../domain/journal/port';
import { accountFigures, JOURNAL_FROM_CREATION } from '../accounts/items';
import { unexpectedFailure } from '../idempotency/command';
import {
  JOURNAL_SEQUENCE_SK_PREFIX,
  JOURNAL_TIME_SK_PREFIX,
  keys,
  SK_RANGE_END,
} from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { headItem, recordItems, toJournalHead, toJournalRecord } from './items';
import { markerItem } from './marker';

type Role = 'record' | 'head';

/**
 * The journal on the table (docs/architecture.md "Single-table keys"): records by sequence and
 * by commit time, and the head, all in the account's `JOURNAL#` partition.
 */
export function createJournalStore(options: StoreOptions): JournalWritePort & JournalReadPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const pk = (accountId: string) => keys.journalHead(accountId).pk;

  async function query(
    accountId: string,
    from: string,
    to: string,
    limit: number,
  ): Promise<Record<string, AttributeValue>[]> {
    try {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: marshall({ ':pk': pk(accountId), ':from': from, ':to': to }),
          Limit: limit,
          // The catch-up path and as-of must see a record the moment it is written.
          ConsistentRead: true,
        }),
      );
      return Items;
    } catch (error) {
      throw storageError(error);
    }
  }

  const sequenceKey = (accountId: string, sequence: number) =>
    keys.journalRecord(accountId, sequence).sk;

  return {
    async readHead(accountId) {
      const item = await getItem(client, tableName, keys.journalHead(accountId));
      return item ? toJournalHead(item) : undefined;
    },

    async append(records, previous): Promise<AppendResult> {
      const next = headAfter(records);
      if (!next) return { kind: 'committed' };
      const parts: TransactPart<Role>[] = [
        ...records.flatMap((record) =>
          recordItems(tableName, record).map((item) => ({ role: 'record' as const, item })),
        ),
        { role: 'head', item: headItem(tableName, next, previous), decisive: true },
        // The reconciler's mark (§19): this account has records it has not checked yet.
        { role: 'record', item: markerItem(tableName, next.accountId, next.lastSequence) },
      ];
      const outcome = await transactWithRetry(client, parts, retry);
      if (outcome.kind === 'committed') return outcome;
      if (!outcome.failed.has('head')) throw unexpectedFailure(outcome.failed);
      const head = outcome.failed.get('head');
      return { kind: 'head_moved', head: head ? toJournalHead(head) : undefined };
    },

    async markForReconcile(accountId, lastSequence) {
      const { Put } = markerItem(tableName, accountId, lastSequence);
      if (!Put) return;
      try {
        await client.send(new PutItemCommand(Put));
      } catch (error) {
        throw storageError(error);
      }
    },

    async readRecords(accountId, from, to) {
      const items = await query(
        accountId,
        sequenceKey(accountId, from),
        sequenceKey(accountId, to),
        to - from + 1,
      );
      return items.map((item) => toJournalRecord(unmarshall(item)));
    },

    async getAccount(accountId): Promise<JournalAccount | undefined> {
      const item = await getItem(client, tableName, keys.account(accountId));
      if (!item) return undefined;
      return {
        ...accountFigures(accountId, item),
        updatedAt: String(item.updatedAt),
        journalFromCreation: item[JOURNAL_FROM_CREATION] === true,
      };
    },

    async listRecords(accountId, afterSequence, limit): Promise<JournalPage> {
      // One extra record tells whether another page exists without an empty last page.
      const items = await query(
        accountId,
        sequenceKey(accountId, afterSequence + 1),
        `${JOURNAL_SEQUENCE_SK_PREFIX}${SK_RANGE_END}`,
        limit + 1,
      );
      const records: JournalRecord[] = items
        .slice(0, limit)
        .map((i) => toJournalRecord(unmarshall(i)));
      const last = records.at(-1);
      return {
        items: records,
        nextAfterSequence: items.length > limit && last ? last.sequence : null,
      };
    },

    async firstRecordAfter(accountId, asOf) {
      // Every record of `asOf` itself sorts before `AT#<asOf>#~`: the first after it is next.
      const [item] = await query(
        accountId,
        `${JOURNAL_TIME_SK_PREFIX}${asOf}#${SK_RANGE_END}`,
        `${JOURNAL_TIME_SK_PREFIX}${SK_RANGE_END}`,
        1,
      );
      return item ? toJournalRecord(unmarshall(item)) : undefined;
    },
  };
}
