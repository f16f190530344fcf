import type { SQSRecord } from 'aws-lambda';
import { errorFields } from '../../domain/shared/log';
import { METRICS } from '../../domain/shared/metrics';
import { isStorageValidation } from '../../dynamodb/table/sdk-errors';
import type { EventsConsumerDeps, RecordFate, RecordSettler, Valid } from './records';

/**
 * How the events consumer applies events (docs/contract.md §20): one on its own, or a chunk of
 * one account's credits and debits together — one by one instead when the chunk cannot commit
 * as a whole, so every record gets exactly the outcome it would have had on its own.
 */
export function eventApplier(deps: EventsConsumerDeps, { settle, guarded }: RecordSettler) {
  const { clock, log, metrics } = deps;
  const now = deps.now ?? Date.now;

  /** One event on its own: today's path, and the fallback of a chunk. */
  const applyOne = (valid: Valid, deadline: number): Promise<RecordFate> =>
    now() < deadline
      ? guarded(valid.fields, async () =>
          settle(valid, await deps.events.apply(valid.event, clock())),
        )
      : Promise.resolve('retry');

  /** A chunk of one account's credits and debits: together, or one by one when it must. */
  async function applyChunk(
    chunk: readonly Valid[],
    deadline: number,
    results: Map<SQSRecord, RecordFate>,
  ) {
    const [only] = chunk;
    if (only && chunk.length === 1) {
      results.set(only.record, await applyOne(only, deadline));
      return;
    }
    if (now() >= deadline) {
      for (const valid of chunk) results.set(valid.record, 'retry');
      return;
    }
    const outcomes = await deps.events
      .applyRun(
        chunk.map((v) => v.event),
        clock(),
      )
      .catch((error) => {
        const fields = {
          accountId: chunk[0]?.event.accountId,
          records: chunk.length,
          ...errorFields(error),
        };
        if (isStorageValidation(error)) {
          // runs.ts should have kept the chunk valid: our bug, alarmed on; the records still apply.
          metrics.count(METRICS.storageValidationError);
          log.error('DynamoDB refused a batched write as invalid; applying one by one', fields);
        } else {
          log.warn('batched ledger events failed; applying them one by one', fields);
        }
        return 'refused' as const;
      });
    if (outcomes === 'refused') {
      metrics.count(METRICS.ledgerEventBatchFallback);
      for (const valid of chunk) results.set(valid.record, await applyOne(valid, deadline));
      return;
    }
    metrics.count(METRICS.ledgerEventsBatched, chunk.length);
    for (const [i, valid] of chunk.entries()) {
      const outcome = outcomes[i];
      results.set(
        valid.record,
        outcome ? await guarded(valid.fields, () => settle(valid, outcome)) : 'retry',
      );
    }
  }

  return { applyOne, applyChunk };
}
