import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { CreditIntakeQueue, IntakeDuePort } from '../../domain/intake/port';
import type { CreditFolder, FolderRun } from '../../domain/intake/posting';
import { DomainError } from '../../domain/shared/errors';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import { withDeadline } from '../../domain/shared/retry';
import { CreditIntakeMessage } from '../../schemas/intake';
import { type InvocationContext, retryDeadline } from '../shared/invocation';

export interface CreditIntakeDeps {
  readonly folder: Pick<CreditFolder, 'postAll'>;
  /** `credit-intake` itself: an account the deadline cut short is queued again. */
  readonly queue: CreditIntakeQueue;
  /** The accounts' `INTAKE_DUE` markers (§36): a drained account's marker goes. */
  readonly intakeDue: Pick<IntakeDuePort, 'marks' | 'clear'>;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
  /** Epoch ms (the retries' clock). @default Date.now */
  readonly now?: () => number;
}

export type CreditIntakeHandler = (
  event: SQSEvent,
  context?: InvocationContext,
) => Promise<SQSBatchResponse>;

/** The records of a batch by the account they name; records that name none under `undefined`. */
function byAccount(records: readonly SQSRecord[]): Map<string | undefined, SQSRecord[]> {
  const groups = new Map<string | undefined, SQSRecord[]>();
  for (const record of records) {
    let accountId: string | undefined;
    try {
      accountId = CreditIntakeMessage.safeParse(JSON.parse(record.body)).data?.accountId;
    } catch {
      accountId = undefined;
    }
    groups.set(accountId, [...(groups.get(accountId) ?? []), record]);
  }
  return groups;
}

/**
 * The folder's SQS consumer (docs/contract.md §24; ReportBatchItemFailures): the records of one
 * account are one run of the folder, which posts everything pending for it; accounts run at
 * once (they share no item). A run that fails reports its records, so they are redelivered and,
 * after MAX_RECEIVE_COUNT receives, dead-lettered. A refusal that stays (the balance cap, a
 * closed period) never fails a run: the folder sets the credit aside (§36; SetAsideCredits,
 * alarmed on). A run the invocation's deadline cut short queues its account again and
 * acknowledges; a run that drained the account deletes its `INTAKE_DUE` marker while no credit
 * marked it since the run began (§36). Emits CreditIntakeLagSeconds: the age of the
 * oldest pending credit found.
 */
export function createCreditIntakeConsumer(deps: CreditIntakeDeps): CreditIntakeHandler {
  const { clock, log, metrics } = deps;
  const now = deps.now ?? Date.now;

  async function runAccount(accountId: string): Promise<FolderRun | 'failed'> {
    try {
      // Read before the run: a credit marked since then keeps the marker (its count moved).
      const marks = await deps.intakeDue.marks(accountId);
      const run = await deps.folder.postAll(accountId);
      if (run.finished && marks !== undefined) await deps.intakeDue.clear(accountId, marks);
      if (run.posted > 0) metrics.count(METRICS.creditsPosted, run.posted);
      if (run.setAside) metrics.count(METRICS.setAsideCredits, run.setAside);
      log.info('pending credits posted', {
        accountId,
        posted: run.posted,
        finished: run.finished,
        ...(run.setAside ? { setAside: run.setAside } : {}),
      });
      if (!run.finished) {
        const unsent = await deps.queue.notify([accountId]);
        if (unsent.length > 0) return 'failed';
      }
      return run;
    } catch (error) {
      const fields = { accountId, ...errorFields(error) };
      if (error instanceof DomainError) Object.assign(fields, { errorCode: error.code });
      log.error('posting pending credits failed; will be redelivered', fields);
      return 'failed';
    }
  }

  return async (event, context) => {
    const deadline = retryDeadline(now(), context?.getRemainingTimeInMillis() ?? 60_000);
    const failures: SQSRecord[] = [];
    let oldest: string | undefined;
    await withDeadline(deadline, () =>
      Promise.all(
        [...byAccount(event.Records)].map(async ([accountId, records]) => {
          if (accountId === undefined) {
            log.error('credit-intake message names no account', { records: records.length });
            failures.push(...records);
            return;
          }
          const run = await runAccount(accountId);
          if (run === 'failed') failures.push(...records);
          else if (run.oldestAcceptedAt && (!oldest || run.oldestAcceptedAt < oldest)) {
            oldest = run.oldestAcceptedAt;
          }
        }),
      ),
    );
    if (oldest !== undefined) {
      const lag = Math.max(0, (clock().getTime() - Date.parse(oldest)) / 1000);
      metrics.seconds(METRICS.creditIntakeLag, lag);
    }
    return { batchItemFailures: failures.map((r) => ({ itemIdentifier: r.messageId })) };
  };
}
