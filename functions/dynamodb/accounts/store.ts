import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AccountRecord } from '../../domain/accounts/model';
import type { CloseResult, EntryPage, LedgerPort } from '../../domain/accounts/port';
import type { EventSourceView } from '../../domain/gaps/port';
import type { IdempotencyClaim } from '../../domain/idempotency/port';
import { toVersionedSequence } from '../gaps/sequence-items';
import { claimedFailure, claimItem, claimRecorder } from '../idempotency/command';
import { gateCloseParts, gateFailed, gateParts } from '../intake/gates';
import { readIntakePartitions } from '../intake/partitions';
import { decodeCursor, encodeCursor } from '../table/cursor';
import { ENTRY_SK_PREFIX, keys, SOURCE_SK_PREFIX } from '../table/keys';
import { getItem, queryAll } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import {
  retryPolicy,
  type StoreOptions,
  type TransactPart,
  transactWithRetry,
} from '../table/transact';
import { writeCommand } from './command';
import { closeAccountItem, newAccountItem, toAccountRecord, toLedgerEntry } from './items';
import { metadataItem, readAccountMetadata } from './metadata';

type Role =
  | 'claim'
  | 'account'
  | 'entry'
  | 'pointer'
  | 'payment'
  | 'metadata'
  | `gate:${number}`
  | `posted:${number}`;

/** The accounts feature's `LedgerPort` on the table: accounts, entries and their claims. */
export function createLedgerStore(options: StoreOptions): LedgerPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);
  const write = (parts: TransactPart<Role>[]) => writeCommand(client, parts, retry);

  return {
    createAccount(claim: IdempotencyClaim, account: AccountRecord) {
      return write([
        { role: 'claim', item: claimItem(tableName, claim), decisive: true },
        { role: 'account', item: newAccountItem(tableName, account) },
        ...(account.metadata
          ? [{ role: 'metadata' as const, item: metadataItem(tableName, account) }]
          : []),
        ...gateParts(tableName, account),
      ]);
    },

    async closeAccount(claim, read, at): Promise<CloseResult> {
      const shards = read.intakeShards ?? 0;
      const partitions = await readIntakePartitions(client, tableName, read.id, shards);
      const gates = gateCloseParts(tableName, read.id, partitions);
      if (!gates) return { kind: 'pending_credits' };
      const outcome = await transactWithRetry(
        client,
        [
          { role: 'claim', item: claimItem(tableName, claim), decisive: true },
          { role: 'account', item: closeAccountItem(tableName, read, at) },
          ...gates,
        ],
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const claimed = claimedFailure(outcome.failed);
      if (claimed) return claimed;
      if (!outcome.failed.has('account') && gateFailed(outcome.failed)) {
        return { kind: 'pending_credits' };
      }
      const account = outcome.failed.get('account');
      return { kind: 'account_moved', account: account ? toAccountRecord(account) : undefined };
    },

    ...claimRecorder(client, tableName, retry),

    async getAccount(accountId: string) {
      const item = await getItem(client, tableName, keys.account(accountId));
      return item ? toAccountRecord(item) : undefined;
    },

    getAccountMetadata: (accountId) => readAccountMetadata(client, tableName, accountId),

    async listEntries(
      accountId: string,
      limit: number,
      cursor: string | undefined,
    ): Promise<EntryPage> {
      const { pk } = keys.account(accountId);
      const startKey = cursor === undefined ? undefined : { pk, sk: decodeCursor(cursor) };
      try {
        // One extra item tells whether another page exists without an empty last page.
        const { Items = [] } = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: marshall({ ':pk': pk, ':prefix': ENTRY_SK_PREFIX }),
            ScanIndexForward: false,
            Limit: limit + 1,
            // A reconciliation right after a 201 must see that entry (docs/contract.md §5).
            ConsistentRead: true,
            ExclusiveStartKey: startKey && marshall(startKey),
          }),
        );
        const page = Items.slice(0, limit).map((item) => unmarshall(item));
        const last = page.at(-1);
        const nextCursor = Items.length > limit && last ? encodeCursor(String(last.sk)) : null;
        return { items: page.map(toLedgerEntry), nextCursor };
      } catch (error) {
        throw storageError(error);
      }
    },

    async listEventSources(accountId: string): Promise<EventSourceView[]> {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: marshall({
          ':pk': keys.account(accountId).pk,
          ':prefix': SOURCE_SK_PREFIX,
        }),
        ConsistentRead: true,
      });
      return items.map((item) => {
        const { state } = toVersionedSequence(item);
        return {
          source: String(item.source),
          lastSequence: state.lastSequence,
          gaps: state.gaps,
          gapsTruncated: state.gapsTruncated,
          gapDetails: state.gapDetails,
          gapRanges: state.gapRanges ?? [],
          waived: state.waived,
        };
      });
    },
  };
}
