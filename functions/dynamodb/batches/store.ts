import { ConditionalCheckFailedException, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { BatchPort, LeaseResult, MovementsWriteResult } from '../../domain/batches/port';
import type { IdempotencyRecord } from '../../domain/idempotency/model';
import { toAccountRecord } from '../accounts/items';
import { claimRecorder, toIdempotencyRecord, unexpectedFailure } from '../idempotency/command';
import { composeMoney } from '../movements/compose';
import { commitMoney } from '../movements/decode';
import { toAttributes } from '../table/attributes';
import { deleteIfStill } from '../table/delete-if';
import { keys, TTL_ATTRIBUTE } from '../table/keys';
import { getItems } from '../table/reads';
import { storageError } from '../table/sdk-errors';
import { retryPolicy, type StoreOptions } from '../table/transact';
import { batchPlan } from './items';

/** `kind` of a batch's lease item (`BATCH_LEASE#<scopeId>`, functions/dynamodb/table/keys.ts). */
export const BATCH_LEASE_KIND = 'batch-lease';

/** The batches feature's `BatchPort` on the table (docs/contract.md §25). */
export function createBatchStore(options: StoreOptions): BatchPort {
  const { client, tableName } = options;
  const retry = retryPolicy(options);

  return {
    async writeMovements(movements, write): Promise<MovementsWriteResult> {
      const parts = composeMoney(tableName, batchPlan(tableName, movements, write));
      const outcome = await commitMoney(client, parts, retry);
      if (outcome.kind === 'committed') return outcome;
      const { cancellation } = outcome;
      const claimed = new Map<number, IdempotencyRecord>();
      let batch: IdempotencyRecord | undefined;
      for (const [role, old] of cancellation.failed) {
        const [kind, id = ''] = role.split(/:(.*)/s);
        if (role === 'batch' && old) batch = toIdempotencyRecord(old);
        else if (kind === 'claim' && old) claimed.set(Number(id), toIdempotencyRecord(old));
        else if (!/^(account|gate|payment|probe)$/.test(kind ?? '')) {
          throw unexpectedFailure(cancellation.failed);
        }
      }
      return {
        kind: 'refused',
        claimed,
        accounts: cancellation.accounts,
        payments: new Set(cancellation.payments),
        gates: cancellation.gates,
        ...(batch ? { batch } : {}),
      };
    },

    ...claimRecorder(client, tableName, retry),

    async readAccounts(accountIds) {
      const items = await getItems(client, tableName, accountIds.map(keys.account));
      const found = items.flatMap((item) => (item ? [toAccountRecord(item)] : []));
      return new Map(found.map((account) => [account.id, account]));
    },

    async takeLease(lease, nowMs): Promise<LeaseResult> {
      try {
        await client.send(
          new PutItemCommand({
            TableName: tableName,
            Item: toAttributes({
              ...keys.batchLease(lease.scopeId),
              kind: BATCH_LEASE_KIND,
              token: lease.token,
              expiresAtMs: lease.expiresAtMs,
              // TTL removes a crashed holder's lease; until then the condition reads expiresAtMs.
              [TTL_ATTRIBUTE]: Math.ceil(lease.expiresAtMs / 1000),
            }),
            ConditionExpression: 'attribute_not_exists(pk) OR #expiresAtMs <= :now',
            ExpressionAttributeNames: { '#expiresAtMs': 'expiresAtMs' },
            ExpressionAttributeValues: toAttributes({ ':now': nowMs }),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { kind: 'taken' };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw storageError(error);
        // The SDK's retry of a put whose answer was lost finds our own lease: it is ours.
        const held = error.Item ? unmarshall(error.Item) : {};
        if (held.token === lease.token) return { kind: 'taken' };
        return { kind: 'held', expiresAtMs: Number(held.expiresAtMs ?? nowMs) };
      }
    },

    async releaseLease(lease): Promise<void> {
      // False: expired and taken over by a retry; that copy's lease now, not ours to delete.
      await deleteIfStill(client, tableName, keys.batchLease(lease.scopeId), 'token', lease.token);
    },
  };
}
