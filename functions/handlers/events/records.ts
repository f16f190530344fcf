import type { SQSRecord } from 'aws-lambda';
import type { EventOutcome, LedgerEventInput, SeenOutcome } from '../../domain/events/model';
import type { DeadLetterPort } from '../../domain/events/port';
import type { EventService } from '../../domain/events/service';
import type { GapWaiverInput } from '../../domain/events/waiver';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import { isStorageValidation } from '../../dynamodb/table/sdk-errors';
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

/** Done: committed, a duplicate, or dead-lettered; retry: reported for redelivery. */
export type RecordFate = 'done' | 'retry';

/** A record that parsed as an event, with the log fields that name it. */
export interface Valid {
  readonly record: SQSRecord;
  readonly event: LedgerEventInput;
  readonly fields: Record<string, unknown>;
}

/**
 * What the events consumer does with one record's outcome (docs/contract.md §6, §18, §20):
 * dead-letter it, count and log a duplicate, settle an applied or rejected event, apply a gap
 * waiver, and turn a throw into a redelivery.
 */
export function recordSettler(deps: EventsConsumerDeps) {
  const { clock, log, metrics } = deps;

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
    if (seen.outcome.kind === 'refused_before') {
      // The refusal recorded under the event id, replayed: dead-lettered as it was the first time.
      const { code, detail } = seen.outcome.refusal;
      metrics.count(METRICS.inboxDuplicate);
      return deadLetter(record, POISON_REASONS[code] ?? code, detail, {
        ...fields,
        replayed: true,
      });
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
      case 'refused_before':
        return seenBefore(record, { outcome, source: event.source, id: event.id }, fields);
      case 'rejected': {
        const reason = POISON_REASONS[outcome.error.code];
        if (!reason) throw outcome.error;
        return deadLetter(record, reason, outcome.error.detail, fields);
      }
    }
  }

  /** Runs `work` for a record; a throw means the record is redelivered (and why is logged). */
  async function guarded(fields: object, work: () => Promise<void>): Promise<RecordFate> {
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

  return { deadLetter, settle, guarded, waive };
}

export type RecordSettler = ReturnType<typeof recordSettler>;
