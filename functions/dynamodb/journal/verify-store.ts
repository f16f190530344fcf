import { type AttributeValue, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { JournalVerifier, type JournalVerifyPort } from '../../domain/journal/verify';
import { JOURNAL_TIME_SK_PREFIX, keys } from '../table/keys';
import { getItem } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { HEAD_ITEM_KIND, toJournalRecord } from './items';
import { toCheckpoint } from './marker';
import { createJournalStore } from './store';

/** Time-keyed copies per page: one Query each, about as many records as one records page. */
const COPIES_PAGE = 1000;

/**
 * What `verify` reads (docs/contract.md §27), an operator's command: the head and records as the
 * projector wrote them, the time-keyed copies, and the accounts with a journal — found by a Scan
 * of the journal heads (the table has no index of them; the cost is one read of the table).
 */
/** The journal verifier over the table: what `npm run cli -- verify` and the soak run. */
export const createJournalVerifier = (options: StoreOptions): JournalVerifier =>
  new JournalVerifier(createJournalVerifyStore(options));

export function createJournalVerifyStore(options: StoreOptions): JournalVerifyPort {
  const { client, tableName } = options;
  const journal = createJournalStore(options);
  return {
    readHead: (accountId) => journal.readHead(accountId),
    readRecords: (accountId, from, to) => journal.readRecords(accountId, from, to),

    async readAccountVersion(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? Number(item.version ?? 0) : undefined;
    },

    async readCheckpoint(accountId) {
      const item = await getItem(client, tableName, keys.reconcileCheckpoint(accountId));
      if (!item) return undefined;
      const { checkedSequence, hash } = toCheckpoint(item);
      return hash === undefined
        ? { sequence: checkedSequence }
        : { sequence: checkedSequence, hash };
    },

    async readTimeCopies(accountId, through, start) {
      const head = keys.journalAsOf(accountId, through.committedAt, through.lastSequence);
      try {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: marshall({
              ':pk': head.pk,
              ':from': JOURNAL_TIME_SK_PREFIX,
              ':to': head.sk,
            }),
            ConsistentRead: true,
            Limit: COPIES_PAGE,
            ...(start === undefined ? {} : { ExclusiveStartKey: JSON.parse(start) }),
          }),
        );
        const items = (page.Items ?? []).map((raw) => {
          const item = unmarshall(raw);
          const key = String(item.sk).slice(JOURNAL_TIME_SK_PREFIX.length);
          return { key, record: toJournalRecord(item) };
        });
        const next = page.LastEvaluatedKey ? JSON.stringify(page.LastEvaluatedKey) : undefined;
        return next === undefined ? { items } : { items, next };
      } catch (error) {
        throw storageError(error);
      }
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
