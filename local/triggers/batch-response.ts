import { describeError } from '../../functions/domain/shared/log';

/**
 * What a function's partial batch response (ReportBatchItemFailures) means to the event source
 * that invoked it: which records are done and which are delivered again. Both local event
 * source mappings settle every batch here, each in its own order:
 *
 * - `per-record` (SQS): each listed record is retried on its own: it stays on the queue and
 *   reappears after its visibility timeout (after the queue's maxReceiveCount, SQS itself moves
 *   it to the DLQ). Every other record is done: deleted.
 * - `in-order` (DynamoDB Streams): the records before the lowest listed one are done: the
 *   shard's checkpoint moves past them. That record and every later one of the batch are
 *   retried, in order, until the function succeeds (MaximumRetryAttempts -1).
 *
 * The answer is read as Lambda reads it: none, no `batchItemFailures` or an empty list means
 * every record succeeded. A function that throws, an answer that is not an object, a
 * `batchItemFailures` that is not a list, or an `itemIdentifier` that names no record of the
 * batch (missing, empty, another batch's) fails the whole batch: nothing is done, every record
 * is retried. Neither source splits a failed batch: SQS has no bisection, and lib/ sets
 * `bisectBatchOnError: false` on the stream, as bisecting would reorder a shard.
 */

export type BatchOrder = 'per-record' | 'in-order';

/** What a function reads from its Lambda context locally: its time left. */
export interface LocalInvocationContext {
  getRemainingTimeInMillis(): number;
}

/** A function invoked with a batch; its answer is checked at run time, as Lambda does. */
export type BatchHandler<E> = (event: E, context?: LocalInvocationContext) => Promise<unknown>;

export interface BatchSettlement {
  /** Indexes of the records the source is done with (deleted, or checkpointed past), ascending. */
  readonly done: readonly number[];
  /** Indexes of the records delivered again, ascending. */
  readonly retried: readonly number[];
  /** Why the whole batch failed, when it did (then `done` is empty). */
  readonly batchFailure?: string;
}

/**
 * Settles a batch from the function's answer. `ids` are the records' identifiers in batch
 * order (SQS: `messageId`; streams: `dynamodb.SequenceNumber`); a record without one can only
 * fail with its whole batch.
 */
export function judgeBatchResponse(
  response: unknown,
  ids: readonly (string | undefined)[],
  order: BatchOrder,
): BatchSettlement {
  const listed = listedFailures(response, ids);
  if (typeof listed === 'string') return wholeBatchFailed(ids.length, listed);
  if (order === 'in-order') {
    const first = listed.size === 0 ? ids.length : Math.min(...listed);
    return { done: range(0, first), retried: range(first, ids.length) };
  }
  const all = range(0, ids.length);
  return { done: all.filter((i) => !listed.has(i)), retried: all.filter((i) => listed.has(i)) };
}

/**
 * Invokes the function with the batch and settles it; a throw fails the whole batch. With
 * `timeoutMs` the function gets a context whose time left counts down from it.
 */
export async function invokeBatch<E>(
  handler: BatchHandler<E>,
  event: E,
  ids: readonly (string | undefined)[],
  order: BatchOrder,
  timeoutMs?: number,
): Promise<BatchSettlement> {
  let response: unknown;
  const ends = Date.now() + (timeoutMs ?? 0);
  const context =
    timeoutMs === undefined
      ? undefined
      : { getRemainingTimeInMillis: () => Math.max(0, ends - Date.now()) };
  try {
    response = await (context ? handler(event, context) : handler(event));
  } catch (error) {
    return wholeBatchFailed(ids.length, `handler threw: ${describeError(error)}`);
  }
  return judgeBatchResponse(response, ids, order);
}

/** The indexes the answer lists as failed, or why the answer is malformed. */
function listedFailures(
  response: unknown,
  ids: readonly (string | undefined)[],
): ReadonlySet<number> | string {
  if (response === undefined || response === null) return new Set();
  if (typeof response !== 'object' || Array.isArray(response)) {
    return `malformed response: ${preview(response)}`;
  }
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return 'malformed response: batchItemFailures is not a list';
  const index = new Map<string, number>();
  ids.forEach((id, i) => {
    if (id !== undefined && id !== '' && !index.has(id)) index.set(id, i);
  });
  const listed = new Set<number>();
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const at = typeof id === 'string' ? index.get(id) : undefined;
    if (at === undefined) {
      return `malformed response: itemIdentifier ${preview(id)} is not in the batch`;
    }
    listed.add(at);
  }
  return listed;
}

function wholeBatchFailed(size: number, reason: string): BatchSettlement {
  return { done: [], retried: range(0, size), batchFailure: reason };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

/** At most 80 characters of a value, for one-line logs of unexpected answers. */
function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
