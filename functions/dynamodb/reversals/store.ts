import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { intakeShardOf } from '../../domain/accounts/pending-credits';
import type { ReversalPort } from '../../domain/reversals/port';
import { ENTRY_POINTER_KIND, toLedgerEntry } from '../accounts/entries';
import { toAccountRecord } from '../accounts/items';
import { createEntryReadStore } from '../accounts/reads';
import { createLedgerStore } from '../accounts/store';
import { toLedgerTransactionRecord } from '../ledger-transactions/items';
import { ENTRY_SK_PREFIX, keys } from '../table/keys';
import { getItem, getItems } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions } from '../table/transact';
import { toTransferRecord } from '../transfers/items';

/**
 * Entries written before ledger depth have no pointer: the account's listing is searched,
 * newest first, this many pages of `SEARCH_PAGE` entries at most. An older entry than that is
 * not found by id (docs/contract.md §16).
 */
export const MAX_ENTRY_SEARCH_PAGES = 10;
const SEARCH_PAGE = 1000;

/** The DynamoDB adapter of reversals (docs/contract.md §16). */
export function createReversalStore(options: StoreOptions): ReversalPort {
  const { client, tableName } = options;
  const _retry = retryPolicy(options);
  const ledger = createLedgerStore(options);
  const entries = createEntryReadStore(options);

  /** The bounded search of an older entry's listing item. */
  async function searchEntry(accountId: string, entryId: string) {
    const { pk } = keys.account(accountId);
    let start: Record<string, never> | undefined;
    try {
      for (let page = 0; page < MAX_ENTRY_SEARCH_PAGES; page++) {
        const { Items = [], LastEvaluatedKey } = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            FilterExpression: '#id = :id',
            ExpressionAttributeNames: { '#id': 'id' },
            ExpressionAttributeValues: marshall({
              ':pk': pk,
              ':prefix': ENTRY_SK_PREFIX,
              ':id': entryId,
            }),
            ScanIndexForward: false,
            ConsistentRead: true,
            Limit: SEARCH_PAGE,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        const [item] = Items;
        if (item) return toLedgerEntry(unmarshall(item));
        if (!LastEvaluatedKey) return undefined;
        start = LastEvaluatedKey as Record<string, never>;
      }
      return undefined;
    } catch (error) {
      throw storageError(error);
    }
  }

  return {
    async findEntry(accountId, entryId) {
      const [accountItem, pointer] = await getItems(client, tableName, [
        keys.account(accountId),
        keys.entryPointer(entryId),
      ]);
      if (!accountItem) return {};
      const account = toAccountRecord(accountItem);
      if (pointer && pointer.kind === ENTRY_POINTER_KIND) {
        const entry = toLedgerEntry(pointer);
        return entry.accountId === accountId
          ? { account, found: { entry, pointer: true } }
          : { account };
      }
      const entry = await searchEntry(accountId, entryId);
      if (entry) return { account, found: { entry, pointer: false } };
      // A credit a deferred account has not posted yet has no pointer and no listing item (§24).
      if (account.intakeShards === undefined) return { account };
      const shard = intakeShardOf(entryId, account.intakeShards);
      if (await entries.pendingEntry(accountId, shard, entryId)) return { account, pending: true };
      // Posted between the two reads (the folder removes the pending item as it posts, soak seed
      // 7001): its pointer exists now.
      const posted = await getItem(client, tableName, keys.entryPointer(entryId));
      if (posted?.kind !== ENTRY_POINTER_KIND || posted.accountId !== accountId) return { account };
      return { account, found: { entry: toLedgerEntry(posted), pointer: true } };
    },

    async getTransfer(transferId) {
      const item = await getItem(client, tableName, keys.transfer(transferId));
      return item ? toTransferRecord(item) : undefined;
    },

    async getLedgerTransaction(id) {
      const item = await getItem(client, tableName, keys.ledgerTransaction(id));
      return item ? toLedgerTransactionRecord(item) : undefined;
    },

    recordResponse: (claim) => ledger.recordResponse(claim),
    findRecord: (key) => ledger.findRecord(key),
  };
}
