import { randomUUID } from 'node:crypto';
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import type { AccountRecord, LedgerEntry } from '../../../functions/domain/accounts/model';
import { DEFAULT_INTAKE_SHARDS } from '../../../functions/domain/accounts/model';
import { newAccountItem } from '../../../functions/dynamodb/accounts/items';
import { gateSyncItem, intakeItems } from '../../../functions/dynamodb/intake/items';
import { localDynamoClient } from '../../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../../local/services/dynamodb/table';

/**
 * A table beside the console test's own, with NO stream: a deferred account and its pending
 * credits written with the project's item builders (the account, its gates, each credit through
 * its gate), so no folder ever posts them and the console shows them pending, every run alike.
 * The stack's own table gets its deferred credits over HTTP, and its folder posts them.
 */
export const PENDING_TABLE = 'console-pending-test';

export const PENDING = {
  /** Amounts of the pending credits, oldest first, accepted a minute apart. */
  credits: [300, 450, 125],
  /** The first is accepted this long before the seed runs. */
  oldestAgeSeconds: 180,
} as const;

export interface PendingSeed {
  readonly accountId: string;
  /** Entry ids of the pending credits, oldest first. */
  readonly pendingIds: readonly string[];
  /** A deferred account with nothing pending. */
  readonly idleId: string;
}

function deferredAccount(name: string, at: string): AccountRecord {
  return {
    id: randomUUID(),
    ownerId: 'alice',
    name,
    currency: 'EUR',
    balance: 0,
    available: 0,
    overdraftLimit: 0,
    status: 'open',
    creditIntake: 'deferred',
    intakeShards: DEFAULT_INTAKE_SHARDS,
    version: 0,
    createdAt: at,
    updatedAt: at,
  };
}

export async function seedPendingTable(dynamoPort: number): Promise<PendingSeed> {
  const client = localDynamoClient(`http://127.0.0.1:${dynamoPort}`);
  try {
    await ensureLedgerTable(client, PENDING_TABLE, { stream: false });
    const start = Date.now() - PENDING.oldestAgeSeconds * 1000;
    const account = deferredAccount('Alice deferred', new Date(start - 60_000).toISOString());
    const idle = deferredAccount('Alice deferred, idle', new Date(start).toISOString());
    for (const a of [account, idle]) {
      const gates = Array.from({ length: DEFAULT_INTAKE_SHARDS }, (_, shard) =>
        gateSyncItem(PENDING_TABLE, a, shard),
      );
      await client.send(
        new TransactWriteItemsCommand({
          TransactItems: [newAccountItem(PENDING_TABLE, a), ...gates],
        }),
      );
    }
    const pendingIds: string[] = [];
    for (const [i, amount] of PENDING.credits.entries()) {
      const at = new Date(start + i * 60_000).toISOString();
      const entry: LedgerEntry = {
        id: randomUUID(),
        accountId: account.id,
        type: 'credit',
        amount,
        currency: 'EUR',
        reference: `card-settlement-${i + 1}`,
        origin: 'http',
        createdAt: at,
        effectiveAt: at,
      };
      const guard = { ownerId: 'alice', currency: 'EUR', requireOpen: true, effectiveAt: at };
      const { gate, pending } = intakeItems(PENDING_TABLE, entry, guard, DEFAULT_INTAKE_SHARDS);
      await client.send(new TransactWriteItemsCommand({ TransactItems: [gate, pending] }));
      pendingIds.push(entry.id);
    }
    return { accountId: account.id, pendingIds, idleId: idle.id };
  } finally {
    client.destroy();
  }
}
