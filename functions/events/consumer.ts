import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { EventService } from '../core/event-service';
import { consoleLog, errorFields, type Log } from '../observability/log';
import { METRICS, type MetricsPort, noMetrics } from '../observability/metrics';
import type { DeadLetterPort } from '../queue/dead-letter';
import { parseLedgerEvent } from './parse';
import { POISON_REASONS } from './poison';

export interface EventsConsumerDeps {
  readonly events: EventService;
  readonly deadLetters: DeadLetterPort;
  readonly clock?: () => Date;
  readonly log?: Log;
  readonly metrics?: MetricsPort;
}

export type EventsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

type RecordResult = 'done' | 'retry';

/**
 * The SQS consumer (ReportBatchItemFailures). A record is done once its effect committed, it
 * was a duplicate, or it reached the DLQ; anything else is reported for redelivery. Records of
 * one batch run concurrently, but those for the same account run one after another.
 */
export function createEventsConsumer(deps: EventsConsumerDeps): EventsHandler {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.log ?? consoleLog;
  const metrics = deps.metrics ?? noMetrics;

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

  async function processRecord(record: SQSRecord): Promise<RecordResult> {
    const fields: Record<string, unknown> = { messageId: record.messageId };
    try {
      const parsed = parseLedgerEvent(record.body);
      if (!parsed.ok) {
        await deadLetter(record, parsed.code, parsed.detail, fields);
        return 'done';
      }
      const { event } = parsed;
      Object.assign(fields, {
        eventSource: event.source,
        eventId: event.id,
        accountId: event.accountId,
      });
      const outcome = await deps.events.apply(event, clock());
      switch (outcome.kind) {
        case 'applied': {
          const gaps = outcome.sequence?.newGaps ?? [];
          if (gaps.length > 0) {
            metrics.count(METRICS.sequenceGap, gaps.length);
            log.warn('sequence gap', { ...fields, sequence: event.sequence, missing: gaps });
          }
          metrics.count(METRICS.ledgerEventApplied);
          log.info('ledger event applied', { ...fields, entryId: outcome.entryId });
          return 'done';
        }
        case 'duplicate':
          metrics.count(METRICS.inboxDuplicate);
          log.info('ledger event duplicate', fields);
          return 'done';
        case 'rejected': {
          const reason = POISON_REASONS[outcome.error.code];
          if (!reason) throw outcome.error;
          await deadLetter(record, reason, outcome.error.detail, fields);
          return 'done';
        }
      }
    } catch (error) {
      log.error('ledger event failed; will be redelivered', { ...fields, ...errorFields(error) });
      return 'retry';
    }
  }

  return async (event) => {
    const lanes = new Map<string, SQSRecord[]>();
    for (const record of event.Records) {
      const lane = laneOf(record);
      lanes.set(lane, [...(lanes.get(lane) ?? []), record]);
    }
    const failures: string[] = [];
    await Promise.all(
      [...lanes.values()].map(async (records) => {
        for (const record of records) {
          if ((await processRecord(record)) === 'retry') failures.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

/** Records for one account share a lane; unreadable ones get a lane of their own. */
function laneOf(record: SQSRecord): string {
  try {
    const subject = (JSON.parse(record.body) as { subject?: unknown }).subject;
    if (typeof subject === 'string') return `account:${subject}`;
  } catch {
    // Unparseable: it will be dead-lettered on its own lane.
  }
  return `message:${record.messageId}`;
}
