import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { ExportJobQueue } from '../../domain/exports/port';
import type { CreditIntakeQueue } from '../../domain/intake/port';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import type { OutboxMarks } from '../../dynamodb/exports/outbox-store';
import { decodeOutboxInsert } from '../../dynamodb/exports/outbox-stream';
import { decodePendingCreditInsert } from '../../dynamodb/intake/stream';

export interface DispatcherDeps {
  readonly jobs: ExportJobQueue;
  readonly outbox: OutboxMarks;
  /** `credit-intake` (docs/contract.md §24): the folder's feed. */
  readonly creditIntake: CreditIntakeQueue;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
}

export type DispatcherHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

const failureAt = (record: DynamoDBRecord | undefined): DynamoDBBatchResponse => ({
  batchItemFailures: [{ itemIdentifier: record?.dynamodb?.SequenceNumber ?? '' }],
});

/**
 * The outbox dispatcher, one of the table stream's two readers (§22): every new outbox item goes
 * to `export-jobs`, then is marked dispatched; and every account with a new pending credit goes
 * to `credit-intake`, ONE message per account per batch however many credits it received
 * (docs/contract.md §24), sent once the batch's outbox items are through (or before reporting
 * one of them failed). A failure reports the earliest record not yet delivered, so the stream
 * retries from it (in order) instead of dropping it; a resend carries the same `executionId`,
 * and a repeated account message only makes a folder find less to post.
 */
export function createOutboxDispatcher(deps: DispatcherDeps): DispatcherHandler {
  const { clock, log, metrics } = deps;

  /** Sends the accounts seen so far; the index of the first record of any not accepted. */
  async function notifyAccounts(firstSeen: ReadonlyMap<string, number>): Promise<number> {
    if (firstSeen.size === 0) return Number.POSITIVE_INFINITY;
    const unsent = await deps.creditIntake
      .notify([...firstSeen.keys()])
      .catch(() => [...firstSeen.keys()]);
    metrics.count(METRICS.creditIntakeNotified, firstSeen.size - unsent.length);
    if (unsent.length === 0) return Number.POSITIVE_INFINITY;
    log.error('credit-intake notification failed; the stream will retry', { accounts: unsent });
    return Math.min(...unsent.map((id) => firstSeen.get(id) ?? 0));
  }

  async function dispatchJob(record: DynamoDBRecord): Promise<boolean> {
    const decoded = decodeOutboxInsert(record);
    if (decoded.kind === 'other') return true;
    if (decoded.kind === 'malformed') {
      // Written by our own transaction: a malformed item is a bug, not a retryable state.
      log.error('outbox item malformed; skipped', { pk: decoded.pk, issues: decoded.issues });
      return true;
    }
    const { job } = decoded;
    try {
      await deps.jobs.send(job);
      await deps.outbox.markDispatched(job.executionId, clock().toISOString());
      metrics.count(METRICS.exportJobDispatched);
      log.info('export job dispatched', { taskId: job.taskId, executionId: job.executionId });
      return true;
    } catch (error) {
      metrics.count(METRICS.exportJobDispatchFailure);
      log.error('export job dispatch failed; the stream will retry', {
        executionId: job.executionId,
        ...errorFields(error),
      });
      return false;
    }
  }

  return async (event) => {
    const records = event.Records;
    /** Each account with a new pending credit, and the index of its first such record. */
    const firstSeen = new Map<string, number>();
    let failedJob = Number.POSITIVE_INFINITY;
    for (const [index, record] of records.entries()) {
      const accountId = decodePendingCreditInsert(record);
      if (accountId !== undefined) {
        if (!firstSeen.has(accountId)) firstSeen.set(accountId, index);
        continue;
      }
      if (!(await dispatchJob(record))) {
        failedJob = index;
        break;
      }
    }
    const failedNotice = await notifyAccounts(firstSeen);
    const first = Math.min(failedJob, failedNotice);
    return Number.isFinite(first) ? failureAt(records[first]) : { batchItemFailures: [] };
  };
}
