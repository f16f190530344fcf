import {
  ConditionalCheckFailedException,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { LedgerEntry } from '../../domain/accounts/model';
import type { PendingCredit } from '../../domain/accounts/pending-credits';
import { signedAmount } from '../../domain/reconciliation/model';
import type { ReconcilePort } from '../../domain/reconciliation/port';
import { ENTRY_POINTER_KIND, toLedgerEntry } from '../accounts/entries';
import { JOURNAL_FROM_CREATION } from '../accounts/items';
import { toHoldRecord } from '../holds/items';
import { readIntakePartitions } from '../intake/partitions';
import { checkpointAttributes, toCheckpoint } from '../journal/marker';
import { createJournalStore } from '../journal/store';
import { toAttributes } from '../table/attributes';
import { deleteIfStill } from '../table/delete-if';
import { ENTRY_SK_PREFIX, HOLD_SK_PREFIX, type ItemKey, keys } from '../table/keys';
import { getItem, getItems, queryAll } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import type { StoreOptions } from '../table/transact';
import { findingAttributes, reconcileShardOf, toFinding } from './items';

/** Keys per BatchGetItem. */
const BATCH = 100;

/**
 * The reconciler's table access (docs/architecture.md "Reconciliation"): markers, checkpoints
 * and findings are its own items; everything else it only reads, strongly consistent.
 */
export function createReconcileStore(options: StoreOptions): ReconcilePort {
  const { client, tableName } = options;
  const journal = createJournalStore(options);

  async function send<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw storageError(error);
    }
  }

  async function batch(list: readonly ItemKey[]) {
    const out: (Record<string, unknown> | undefined)[] = [];
    for (let i = 0; i < list.length; i += BATCH) {
      out.push(...(await getItems(client, tableName, list.slice(i, i + BATCH))));
    }
    return out;
  }

  /** Entries by id: the id-keyed pointer says where each sits, then the entry itself. */
  async function entriesById(refs: readonly { accountId: string; entryId: string }[]) {
    const unique = [...new Map(refs.map((r) => [r.entryId, r])).values()];
    const pointers = await batch(unique.map((r) => keys.entryPointer(r.entryId)));
    const located: ItemKey[] = [];
    const older: { accountId: string; entryId: string }[] = [];
    unique.forEach((ref, i) => {
      const pointer = pointers[i];
      if (pointer?.kind === ENTRY_POINTER_KIND) {
        located.push(keys.entry(String(pointer.accountId), String(pointer.createdAt), ref.entryId));
      } else older.push(ref);
    });
    const found = new Map<string, LedgerEntry>();
    for (const item of await batch(located)) {
      if (item) found.set(String(item.id), toLedgerEntry(item));
    }
    // Entries from before the pointers (ledger depth): a Query of their account's entries.
    for (const ref of older) {
      const [item] = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'id = :id',
        ExpressionAttributeValues: marshall({
          ':pk': keys.account(ref.accountId).pk,
          ':prefix': ENTRY_SK_PREFIX,
          ':id': ref.entryId,
        }),
        ConsistentRead: true,
      });
      if (item) found.set(ref.entryId, toLedgerEntry(item));
    }
    return found;
  }

  const accountItems = (accountId: string, prefix: string) =>
    queryAll(client, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: marshall({ ':pk': keys.account(accountId).pk, ':prefix': prefix }),
      ConsistentRead: true,
    });

  /**
   * The legs of a movement still pending in deferred accounts (docs/contract.md §24): a
   * transfer or ledger transaction sums to zero with its pending credits.
   */
  async function pendingLegs(
    accounts: readonly { readonly accountId: string }[],
    wanted: (pending: PendingCredit) => boolean,
  ): Promise<LedgerEntry[]> {
    const legs: LedgerEntry[] = [];
    for (const accountId of new Set(accounts.map((a) => a.accountId))) {
      const account = await getItem(client, tableName, keys.account(accountId));
      const shards = typeof account?.intakeShards === 'number' ? account.intakeShards : 0;
      for (const { pending } of await readIntakePartitions(client, tableName, accountId, shards)) {
        legs.push(...pending.filter(wanted).map((p) => p.entry));
      }
    }
    return legs;
  }

  return {
    async changedAccounts(shard, start) {
      const pk = keys.reconcileMarker(shard, '').pk;
      const page = await send(() =>
        client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: marshall({ ':pk': pk }),
            ConsistentRead: true,
            Limit: BATCH,
            ...(start === undefined ? {} : { ExclusiveStartKey: marshall({ pk, sk: start }) }),
          }),
        ),
      );
      const items = (page.Items ?? []).map((raw) => {
        const item = unmarshall(raw);
        return { accountId: String(item.accountId), lastSequence: Number(item.lastSequence) };
      });
      const next = page.LastEvaluatedKey ? String(unmarshall(page.LastEvaluatedKey).sk) : undefined;
      return next === undefined ? { items } : { items, next };
    },

    async clearMarker({ accountId, lastSequence }) {
      // False: the account changed again since; its marker stays for the next run.
      const marker = keys.reconcileMarker(reconcileShardOf(accountId), accountId);
      await deleteIfStill(client, tableName, marker, 'lastSequence', lastSequence);
    },

    async readCheckpoint(accountId) {
      const item = await getItem(client, tableName, keys.reconcileCheckpoint(accountId));
      return item ? toCheckpoint(item) : undefined;
    },

    async saveCheckpoint(checkpoint) {
      await send(() =>
        client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes(checkpointAttributes(checkpoint)),
          }),
        ),
      );
    },

    readRecords: (accountId, from, to) => journal.readRecords(accountId, from, to),

    readEntries: (refs) => entriesById(refs),

    async readAccount(accountId) {
      const item = await getItem(client, tableName, keys.account(accountId));
      if (!item) return undefined;
      return {
        accountId,
        version: Number(item.version ?? 0),
        balance: Number(item.balance),
        available: Number(item.available ?? item.balance),
        journalFromCreation: item[JOURNAL_FROM_CREATION] === true,
      };
    },

    async sumEntries(accountId) {
      const items = await accountItems(accountId, ENTRY_SK_PREFIX);
      return items.reduce((sum, item) => sum + signedAmount(toLedgerEntry(item)), 0);
    },

    async reservedByActiveHolds(accountId) {
      const items = await accountItems(accountId, HOLD_SK_PREFIX);
      return items
        .map((item) => toHoldRecord(item))
        .filter((hold) => hold.status === 'active')
        .reduce((sum, hold) => sum + hold.amount - hold.capturedAmount, 0);
    },

    async readGroup(kind, id) {
      if (kind === 'ledger_transaction') {
        const item = await getItem(client, tableName, keys.ledgerTransaction(id));
        if (!item || !Array.isArray(item.legs)) return undefined;
        const legs = item.legs as { accountId: string; entryId: string }[];
        const found = await entriesById(
          legs.map((l) => ({ accountId: l.accountId, entryId: l.entryId })),
        );
        const posted = [...found.values()];
        const missing = legs.filter((leg) => !posted.some((entry) => entry.id === leg.entryId));
        const pending = await pendingLegs(missing, (p) =>
          missing.some((leg) => leg.entryId === p.entry.id),
        );
        return { kind, id, expectedLegs: legs.length, legs: [...posted, ...pending] };
      }
      const transfer = await getItem(client, tableName, keys.transfer(id));
      if (!transfer) return undefined;
      // Both legs were written with the transfer's createdAt: a Query of that instant per side.
      const legs: LedgerEntry[] = [];
      for (const accountId of [String(transfer.fromAccountId), String(transfer.toAccountId)]) {
        const items = await accountItems(
          accountId,
          `${ENTRY_SK_PREFIX}${String(transfer.createdAt)}#`,
        );
        for (const item of items) {
          const entry = toLedgerEntry(item);
          if (entry.transferId === id && entry.type.startsWith('transfer_')) legs.push(entry);
        }
      }
      if (legs.length < 2) {
        const to = { accountId: String(transfer.toAccountId) };
        legs.push(...(await pendingLegs([to], (p) => p.entry.transferId === id)));
      }
      return { kind, id, expectedLegs: 2, legs };
    },

    async recordFinding(finding) {
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes(findingAttributes(finding)),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw storageError(error);
      }
    },

    async listFindings() {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: marshall({ ':pk': keys.reconcileFinding('', '', 0).pk }),
        ConsistentRead: true,
      });
      return items.map((item) => toFinding(item));
    },
  };
}
