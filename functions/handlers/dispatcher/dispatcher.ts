import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { ExportJobQueue } from '../../domain/exports/port';
import type { CreditIntakeQueue, IntakeDuePort } from '../../domain/intake/port';
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
  /** The `INTAKE_DUE` markers the sweep finds stranded accounts by (§36), set before sending. */
  readonly intakeDue: Pick<IntakeDuePort, 'mark'>;
  /** A marker falls due this long after its oldest credit's acceptance. */
  readonly strandedAfterSeconds: number;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
}

/** An account's first pending-credit record in a batch and its oldest acceptance there. */
interface FirstSeen {
  readonly index: number;
  readonly acceptedAt: string;
}

export type DispatcherHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

const failureAt = (record: DynamoDBRecord | undefined): DynamoDBBatchResponse => ({
  batchItemFailures: [{ itemIdentifier: record?.dynamodb?.SequenceNumber ?? '' }],
});

/**
 * The outbox dispatcher, one of the table stream's two readers (§22): every new outbox item goes
 * to `export-jobs`, then is marked dispatched; and every account with a new pending credit goes
 * to `credit-intake`, ONE message per account per batch however many credits it received
 * (docs/contract.md §24), after its `INTAKE_DUE` marker is upserted (§36), sent once the batch's outbox items are through (or before reporting
 * one of them failed). A failure reports the earliest record not yet delivered, so the stream
 * retries from it (in order) instead of dropping it; a resend carries the same `executionId`,
 * and a repeated account message only makes a folder find less to post.
 */
export function createOutboxDispatcher(deps: DispatcherDeps): DispatcherHandler {
  const { clock, log, metrics } = deps;

  /** Marks, then sends, the accounts seen so far; the index of the first record of any not. */
  async function notifyAccounts(seen: ReadonlyMap<string, FirstSeen>): Promise<number> {
    if (seen.size === 0) return Number.POSITIVE_INFINITY;
    const strandedMs = deps.strandedAfterSeconds * 1000;
    const marked = await Promise.all(
      [...seen].map(([accountId, { acceptedAt }]) =>
        deps.intakeDue
          .mark(accountId, acceptedAt, new Date(Date.parse(acceptedAt) + strandedMs))
          .then(() => accountId)
          .catch((error: unknown) => {
            log.error('INTAKE_DUE marker not written; the stream will retry', {
              accountId,
              ...errorFields(error),
            });
            return undefined;
          }),
      ),
    );
    const ready = marked.filter((id): id is string => id !== undefined);
    const unsent = new Set([...seen.keys()].filter((id) => !ready.includes(id)));
    if (ready.length > 0) {
      const refused = await deps.creditIntake.notify(ready).catch(() => ready);
      metrics.count(METRICS.creditIntakeNotified, ready.length - refused.length);
      for (const id of refused) unsent.add(id);
    }
    if (unsent.size === 0) return Number.POSITIVE_INFINITY;
    log.error('credit-intake notification failed; the stream will retry', {
      accounts: [...unsent],
    });
    return Math.min(...[...unsent].map((id) => seen.get(id)?.index ?? 0));
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
    /** Each account with a new pending credit: its first such record, its oldest acceptance. */
    const firstSeen = new Map<string, FirstSeen>();
    let failedJob = Number.POSITIVE_INFINITY;
    for (const [index, record] of records.entries()) {
      const pending = decodePendingCreditInsert(record);
      if (pending !== undefined) {
        const seen = firstSeen.get(pending.accountId);
        if (!seen) firstSeen.set(pending.accountId, { index, acceptedAt: pending.acceptedAt });
        else if (pending.acceptedAt < seen.acceptedAt) {
          firstSeen.set(pending.accountId, { index: seen.index, acceptedAt: pending.acceptedAt });
        }
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
