import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AccountRecord } from '../../../functions/domain/accounts/model';
import type { PendingCredit } from '../../../functions/domain/accounts/pending-credits';
import { createEntryReadStore } from '../../../functions/dynamodb/accounts/reads';
import {
  countPending,
  type GateView,
  oldestPending,
  scanIntakeGates,
} from '../../../functions/dynamodb/intake/lag';
import {
  INTAKE_SCAN_LIMIT,
  type IntakeLagRow,
  type IntakePage,
  PENDING_CREDITS_SHOWN,
  type PendingCreditRow,
  type PendingCredits,
} from '../../shared/api';

export interface IntakeReaderOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly clock: () => Date;
}

/** Partition reads the intake-lag page runs at once (the rest wait their turn). */
const LAG_READS_AT_ONCE = 16;

const ageOf = (acceptedAt: string, now: Date): number =>
  Math.max(0, Math.floor((now.getTime() - Date.parse(acceptedAt)) / 1000));

export function pendingCreditRow(pending: PendingCredit, now: Date): PendingCreditRow {
  const { entry } = pending;
  return {
    entryId: entry.id,
    type: entry.type,
    amount: entry.amount,
    acceptedAt: pending.acceptedAt,
    effectiveAt: entry.effectiveAt,
    ageSeconds: ageOf(pending.acceptedAt, now),
    shard: pending.shard,
    ...(entry.reference === undefined ? {} : { reference: entry.reference }),
  };
}

/**
 * Worst first: the oldest pending credit first (then more pending), accounts with nothing
 * pending last, by account id.
 */
export function worstFirst(a: IntakeLagRow, b: IntakeLagRow): number {
  if (a.oldestAt !== undefined && b.oldestAt !== undefined) {
    return a.oldestAt.localeCompare(b.oldestAt) || b.pending - a.pending;
  }
  if (a.oldestAt !== undefined) return -1;
  if (b.oldestAt !== undefined) return 1;
  return b.pending - a.pending || a.accountId.localeCompare(b.accountId);
}

/** Runs `work` over `items`, at most `atOnce` at a time, results in the items' order. */
async function mapLimited<T, R>(
  items: readonly T[],
  atOnce: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}

/**
 * Deferred credits in the console (docs/contract.md §24, §29): an account's pending credits,
 * oldest first, and the intake lag of every account with intake gates. Both bounded: a
 * partition is read only to its oldest credits; accepted less posted counts give the totals.
 */
export function createIntakeReader(options: IntakeReaderOptions) {
  const { client, tableName, clock } = options;
  const entries = createEntryReadStore({ client, tableName });

  return {
    /**
     * The oldest PENDING_CREDITS_SHOWN pending credits of an account, read as `GET
     * …/pending-credits` reads them, and how many wait (accepted less posted).
     */
    async pendingCredits(account: AccountRecord): Promise<PendingCredits> {
      const shards = account.intakeShards ?? 0;
      if (shards === 0) return { items: [], total: 0 };
      const now = clock();
      const [page, counted] = await Promise.all([
        entries.pendingCredits(account.id, shards, PENDING_CREDITS_SHOWN, undefined),
        countPending(client, tableName, account.id, shards),
      ]);
      return {
        items: page.items.map((p) => pendingCreditRow(p, now)),
        total: Math.max(counted, page.items.length),
      };
    },

    /** Every account the gate Scan finds, with its pending count and oldest credit's age. */
    async lag(): Promise<IntakePage> {
      const now = clock();
      const scan = await scanIntakeGates(client, tableName, INTAKE_SCAN_LIMIT);
      const accounts = new Map<string, GateView[]>();
      for (const gate of scan.gates) {
        accounts.set(gate.accountId, [...(accounts.get(gate.accountId) ?? []), gate]);
      }
      const waiting = scan.gates.filter((g) => g.pending > 0);
      const heads = await mapLimited(waiting, LAG_READS_AT_ONCE, async (g) => {
        const [oldest] = await oldestPending(client, tableName, g.accountId, g.shard, 1);
        return oldest?.acceptedAt;
      });
      const oldestOf = new Map<string, string>();
      for (const [index, gate] of waiting.entries()) {
        const at = heads[index];
        const seen = oldestOf.get(gate.accountId);
        if (at !== undefined && (seen === undefined || at < seen)) oldestOf.set(gate.accountId, at);
      }
      const rows = [...accounts].map(([accountId, gates]): IntakeLagRow => {
        const oldestAt = oldestOf.get(accountId);
        const first = gates[0];
        return {
          accountId,
          ownerId: first?.ownerId ?? '',
          creditIntake: first?.creditIntake ?? 'deferred',
          shards: gates.length,
          pending: gates.reduce((sum, g) => sum + g.pending, 0),
          ...(oldestAt === undefined ? {} : { oldestAt, oldestAgeSeconds: ageOf(oldestAt, now) }),
        };
      });
      return {
        accounts: rows.sort(worstFirst),
        readAt: now.toISOString(),
        scanned: scan.scanned,
        complete: scan.complete,
      };
    },
  };
}

export type IntakeReader = ReturnType<typeof createIntakeReader>;
