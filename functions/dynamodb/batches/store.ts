import type { AccountRecord } from '../../domain/accounts/model';
import type { BatchPort, MovementsWriteResult } from '../../domain/batches/port';
import type { IdempotencyRecord } from '../../domain/idempotency/model';
import type { RecordResult } from '../../domain/idempotency/port';
import { toAccountRecord } from '../accounts/items';
import {
  claimItem,
  findClaimRecord,
  toIdempotencyRecord,
  unexpectedFailure,
} from '../idempotency/command';
import { retryPolicy, type StoreOptions, transactWithRetry } from '../table/transact';
import { batchParts } from './items';

/** The batches feature's `BatchPort` on the table (docs/contract.md §25). */
export function createBatchStore(options: StoreOptions): BatchPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  return {
    async writeMovements(movements, write): Promise<MovementsWriteResult> {
      const outcome = await transactWithRetry(
        client,
        batchParts(tableName, movements, write),
        retry,
      );
      if (outcome.kind === 'committed') return outcome;
      const claimed = new Map<number, IdempotencyRecord>();
      const accounts = new Map<string, AccountRecord | undefined>();
      const payments = new Set<number>();
      let batch: IdempotencyRecord | undefined;
      for (const [role, old] of outcome.failed) {
        const [kind, id = ''] = role.split(/:(.*)/s);
        if (role === 'batch' && old) batch = toIdempotencyRecord(old);
        else if (kind === 'claim' && old) claimed.set(Number(id), toIdempotencyRecord(old));
        else if (kind === 'account') accounts.set(id, old ? toAccountRecord(old) : undefined);
        else if (kind === 'payment') payments.add(Number(id));
        else if (role !== 'probe') throw unexpectedFailure(outcome.failed);
      }
      return { kind: 'refused', claimed, accounts, payments, ...(batch ? { batch } : {}) };
    },

    async recordResponse(claim): Promise<RecordResult> {
      const outcome = await transactWithRetry(
        client,
        [{ role: 'claim', item: claimItem(tableName, claim), decisive: true }],
        retry,
      );
      if (outcome.kind === 'committed') return { kind: 'recorded' };
      const record = outcome.failed.get('claim');
      if (record) return { kind: 'claimed', record: toIdempotencyRecord(record) };
      throw unexpectedFailure(outcome.failed);
    },

    findRecord: (key) => findClaimRecord(client, tableName, key),
  };
}
