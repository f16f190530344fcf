import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { JournalVerifyPort } from '../../domain/journal/verify';
import { JOURNAL_TIME_SK_PREFIX, keys, SK_RANGE_END } from '../table/keys';
import { queryAll } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { HEAD_ITEM_KIND, toJournalRecord } from './items';
import { createJournalStore } from './store';

/**
 * What `verify` reads (docs/contract.md §27), an operator's command: the head and records as the
 * projector wrote them, the time-keyed copies, and the accounts with a journal — found by a Scan
 * of the journal heads (the table has no index of them; the cost is one read of the table).
 */
export function createJournalVerifyStore(options: StoreOptions): JournalVerifyPort {
  const { client, tableName } = options;
  const journal = createJournalStore(options);
  return {
    readHead: (accountId) => journal.readHead(accountId),
    readRecords: (accountId, from, to) => journal.readRecords(accountId, from, to),

    async readTimeCopies(accountId) {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: marshall({
          ':pk': keys.journalHead(accountId).pk,
          ':from': JOURNAL_TIME_SK_PREFIX,
          ':to': `${JOURNAL_TIME_SK_PREFIX}${SK_RANGE_END}`,
        }),
        ConsistentRead: true,
      });
      return items.map((item) => toJournalRecord(item));
    },

    async journalAccounts(start) {
      try {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: '#kind = :head',
            ProjectionExpression: 'accountId',
            ExpressionAttributeNames: { '#kind': 'kind' },
            ExpressionAttributeValues: marshall({ ':head': HEAD_ITEM_KIND }),
            ...(start === undefined
              ? {}
              : { ExclusiveStartKey: JSON.parse(start) as Record<string, AttributeValue> }),
          }),
        );
        const items = (page.Items ?? []).map((raw) => String(unmarshall(raw).accountId));
        const next = page.LastEvaluatedKey ? JSON.stringify(page.LastEvaluatedKey) : undefined;
        return next === undefined ? { items } : { items, next };
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}
