import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { EVENTS_CONSUMER_TIMEOUT_SECONDS } from '../../contract/events';
import type { EventOutcome, LedgerEventInput, SeenOutcome } from '../../domain/events/model';
import type { DeadLetterPort } from '../../domain/events/port';
import { chunksOf } from '../../domain/events/runs';
import type { EventService } from '../../domain/events/service';
import type { GapWaiverInput } from '../../domain/gaps/waiver';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import { withDeadline } from '../../domain/shared/retry';
import { isStorageValidation } from '../../dynamodb/table/sdk-errors';
import { lanesOf } from './lanes';
import { parseLedgerEvent } from './parse';
import { POISON_REASONS } from './poison';

export interface EventsConsumerDeps {
  readonly events: EventService;
  readonly deadLetters: DeadLetterPort;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
  /**
   * Commit the new, valid records of one account in a batch together (docs/contract.md §20);
   * false applies every record on its own. @default true
   */
  readonly batchWrites?: boolean;
  /** Epoch ms (the retries' clock). @default Date.now */
  readonly now?: () => number;
}

/** What the handler reads from the Lambda context: its time left. */
export interface InvocationContext {
  getRemainingTimeInMillis(): number;
}

export type EventsHandler = (
  event: SQSEvent,
  context?: InvocationContext,
) => Promise<SQSBatchResponse>;

/**
 * Every retry of a batch ends this long before the function's time is up, so the records still
 * failing are reported (and redelivered) instead of the whole batch being cut off by the timeout.
 */
export function retryDeadline(now: number, remainingMs: number): number {
  return now + remainingMs - Math.min(2_000, remainingMs / 5);
}

type RecordResult = 'done' | 'retry';

/** A record that parsed as an event, with the log fields that name it. */
interface Valid {
  readonly record: SQSRecord;
  readonly event: LedgerEventInput;
  readonly fields: Record<string, unknown>;
}

/**
 * The SQS consumer (ReportBatchItemFailures). A record is done once its effect committed, it
 * was a duplicate, or it reached the DLQ; anything else is reported for redelivery. Records of
 * one batch run concurrently, but those that touch a common account run one after another: a
 * transfer joins the lanes of both its accounts into one (`lanes.ts`), so no two records of a
 * batch contend for one account item, and nothing ever waits on two lanes. Within a lane,
 * consecutive credits and debits of one account commit together, in chunks one transaction
 * carries (docs/contract.md §20); a chunk that cannot commit as a whole — a duplicate, an id
 * conflict, a rejection, or a failed write — is applied record by record instead, so every
 * record gets exactly the outcome it would have had on its own.
 */
export function createEventsConsumer(deps: EventsConsumerDeps): EventsHandler {
  const { clock, log, metrics } = deps;
  const now = deps.now ?? Date.now;
  const batchWrites = deps.batchWrites ?? true;

  async function deadLetter(record: SQSRecord, code: string, detail: string, fields: object) {
    await deps.deadLetters.send({
      body: record.body,
      code,
      detail,
      sourceMessageId: record.messageId,
    });
    metrics.count(METRICS.deadLetter, 1, { name: 'errorCode', value: code });
    log.warn('ledger event dead-lettered', { ...fields, errorCode: code, errorDetail: detail });
  }

  /**
   * An event or a waiver the inbox saw before (docs/contract.md §6): a duplicate is counted,
   * logged and acknowledged; the same id with other content is dead-lettered `id_conflict`.
   */
  async function seenBefore(
    record: SQSRecord,
    seen: { readonly outcome: SeenOutcome; readonly source: string; readonly id: string },
    fields: Record<string, unknown>,
  ) {
    if (seen.outcome.kind === 'id_conflict') {
      const detail = `event ${seen.id} from ${seen.source} was already received with other content`;
      return deadLetter(record, 'id_conflict', detail, fields);
    }
    metrics.count(METRICS.inboxDuplicate);
    log.info('ledger event duplicate', fields);
  }

  /** What an event's outcome means for its record: logged, counted, dead-lettered or thrown. */
  async function settle({ record, event, fields }: Valid, outcome: EventOutcome) {
    switch (outcome.kind) {
      case 'applied': {
        // Counted however far the event jumped, past the listed 1,000 too (§30).
        const opened = outcome.sequence?.newGapCount ?? 0;
        if (opened > 0) {
          metrics.count(METRICS.sequenceGap, opened);
          const missing = outcome.sequence?.newGaps ?? [];
          log.warn('sequence gap', { ...fields, sequence: event.sequence, missing, opened });
        }
        metrics.count(METRICS.ledgerEventApplied);
        log.info('ledger event applied', { ...fields, entryId: outcome.entryId });
        return;
      }
      case 'duplicate':
      case 'id_conflict':
        return seenBefore(record, { outcome, source: event.source, id: event.id }, fields);
      case 'rejected': {
        const reason = POISON_REASONS[outcome.error.code];
        if (!reason) throw outcome.error;
        return deadLetter(record, reason, outcome.error.detail, fields);
      }
    }
  }

  /** Runs `work` for a record; a throw means the record is redelivered (and why is logged). */
  async function guarded(fields: object, work: () => Promise<void>): Promise<RecordResult> {
    try {
      await work();
      return 'done';
    } catch (error) {
      if (isStorageValidation(error)) {
        // Validation should have refused it: stays transient (no producer fault) and alarms.
        metrics.count(METRICS.storageValidationError);
        log.error('DynamoDB refused a validated ledger event as invalid; will be redelivered', {
          ...fields,
          ...errorFields(error),
        });
        return 'retry';
      }
      log.error('ledger event failed; will be redelivered', { ...fields, ...errorFields(error) });
      return 'retry';
    }
  }

  /** A gap waiver (docs/contract.md §18): its own source's open gaps close, the rest is ignored. */
  async function waive(record: SQSRecord, waiver: GapWaiverInput, fields: Record<string, unknown>) {
    Object.assign(fields, {
      eventSource: waiver.source,
      eventId: waiver.id,
      accountId: waiver.accountId,
    });
    const outcome = await deps.events.waive(waiver, clock());
    switch (outcome.kind) {
      case 'waived':
        metrics.count(METRICS.gapsWaived, outcome.waived.length);
        log.info('gaps waived', { ...fields, waived: outcome.waived, ignored: outcome.ignored });
        return;
      case 'duplicate':
      case 'id_conflict':
        return seenBefore(record, { outcome, source: waiver.source, id: waiver.id }, fields);
    }
  }

  /** One event on its own: today's path, and the fallback of a chunk. */
  const applyOne = (valid: Valid, deadline: number): Promise<RecordResult> =>
    now() < deadline
      ? guarded(valid.fields, async () =>
          settle(valid, await deps.events.apply(valid.event, clock())),
        )
      : Promise.resolve('retry');

  /** A chunk of one account's credits and debits: together, or one by one when it must. */
  async function applyChunk(
    chunk: readonly Valid[],
    deadline: number,
    results: Map<SQSRecord, RecordResult>,
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

  /**
   * One lane in batch order: records that never parse are dead-lettered as they come (they
   * touch no account); consecutive credits and debits of one account gather into a run that
   * is written in chunks when the run ends; anything else (a transfer) runs on its own.
   */
  async function processLane(records: readonly SQSRecord[], deadline: number) {
    const results = new Map<SQSRecord, RecordResult>();
    let run: Valid[] = [];
    const flush = async () => {
      const byEvent = new Map(run.map((v) => [v.event, v]));
      for (const chunk of chunksOf(run.map((v) => v.event))) {
        await applyChunk(
          chunk.map((e) => byEvent.get(e) as Valid),
          deadline,
          results,
        );
      }
      run = [];
    };
    for (const record of records) {
      const fields: Record<string, unknown> = { messageId: record.messageId };
      const parsed = parseLedgerEvent(record.body);
      if (!parsed.ok) {
        results.set(
          record,
          await guarded(fields, () => deadLetter(record, parsed.code, parsed.detail, fields)),
        );
        continue;
      }
      if ('waiver' in parsed) {
        // A waiver touches the sequence item only: it ends the run like any non-batched record.
        await flush();
        const { waiver } = parsed;
        results.set(
          record,
          now() < deadline ? await guarded(fields, () => waive(record, waiver, fields)) : 'retry',
        );
        continue;
      }
      const { event } = parsed;
      Object.assign(fields, {
        eventSource: event.source,
        eventId: event.id,
        accountId: event.accountId,
      });
      const valid = { record, event, fields };
      // Only credits and debits batch; any other kind ends the run (docs/contract.md §20).
      const batchable = batchWrites && (event.type === 'credit' || event.type === 'debit');
      if (batchable && (run[0] === undefined || run[0].event.accountId === event.accountId)) {
        run.push(valid);
        continue;
      }
      await flush();
      if (batchable) run.push(valid);
      else results.set(record, await applyOne(valid, deadline));
    }
    await flush();
    return records.filter((record) => results.get(record) !== 'done');
  }

  /**
   * The lanes of a batch run under one deadline (the Lambda's time left, or the consumer's
   * timeout where there is no context), shared by a chunk's batched attempt and its fallback: a
   * record whose lane reaches it unstarted is reported as failed without a write; one in its
   * retries stops retrying at it.
   */
  return async (event, context) => {
    const remaining = context?.getRemainingTimeInMillis() ?? EVENTS_CONSUMER_TIMEOUT_SECONDS * 1000;
    const deadline = retryDeadline(now(), remaining);
    const failed = await withDeadline(deadline, () =>
      Promise.all(lanesOf(event.Records).map((records) => processLane(records, deadline))),
    );
    return {
      batchItemFailures: failed.flat().map((record) => ({ itemIdentifier: record.messageId })),
    };
  };
}
