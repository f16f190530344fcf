import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { EVENTS_CONSUMER_TIMEOUT_SECONDS } from '../../contract/events';
import type { DeadLetterPort } from '../../domain/events/port';
import type { EventService } from '../../domain/events/service';
import { errorFields, type Log } from '../../domain/shared/log';
import { METRICS, type MetricsPort } from '../../domain/shared/metrics';
import { withDeadline } from '../../domain/shared/retry';
import { isStorageValidation } from '../../dynamodb/table/sdk-errors';
import { parseLedgerEvent } from './parse';
import { POISON_REASONS } from './poison';

export interface EventsConsumerDeps {
  readonly events: EventService;
  readonly deadLetters: DeadLetterPort;
  readonly clock: () => Date;
  readonly log: Log;
  readonly metrics: MetricsPort;
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

/**
 * The SQS consumer (ReportBatchItemFailures). A record is done once its effect committed, it
 * was a duplicate, or it reached the DLQ; anything else is reported for redelivery. Records of
 * one batch run concurrently, but those that touch a common account run one after another: a
 * transfer joins the lanes of both its accounts into one (docs/architecture.md "Lanes"), so no
 * two records of a batch contend for one account item, and nothing ever waits on two lanes.
 */
export function createEventsConsumer(deps: EventsConsumerDeps): EventsHandler {
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
        case 'id_conflict':
          await deadLetter(record, 'id_conflict', outcome.detail, fields);
          return 'done';
        case 'rejected': {
          const reason = POISON_REASONS[outcome.error.code];
          if (!reason) throw outcome.error;
          await deadLetter(record, reason, outcome.error.detail, fields);
          return 'done';
        }
      }
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

  const now = deps.now ?? Date.now;

  /**
   * The lanes of a batch run under one deadline (the Lambda's time left, or the consumer's
   * timeout where there is no context): a record whose lane reaches it unstarted is reported
   * as failed without a write; one in its retries stops retrying at it.
   */
  return async (event, context) => {
    const remaining = context?.getRemainingTimeInMillis() ?? EVENTS_CONSUMER_TIMEOUT_SECONDS * 1000;
    const deadline = retryDeadline(now(), remaining);
    const failures: string[] = [];
    await withDeadline(deadline, () =>
      Promise.all(
        lanesOf(event.Records).map(async (records) => {
          for (const record of records) {
            const outcome = now() < deadline ? await processRecord(record) : 'retry';
            if (outcome === 'retry') failures.push(record.messageId);
          }
        }),
      ),
    );
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

/**
 * Groups records into lanes, batch order kept within each: records that touch a common account
 * (its `subject`, or a transfer's `data.toAccountId`) share a lane, transitively. Unreadable
 * records get a lane of their own.
 */
export function lanesOf(records: readonly SQSRecord[]): SQSRecord[][] {
  const parent = new Map<string, string>();
  const find = (key: string): string => {
    let root = key;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) {
      root = up;
    }
    parent.set(key, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(rb, ra);
  };
  const keysOf = records.map((record) => {
    const accounts = accountsOf(record);
    const keys =
      accounts.length > 0 ? accounts.map((id) => `account:${id}`) : [`message:${record.messageId}`];
    for (const key of keys) if (!parent.has(key)) parent.set(key, key);
    for (const key of keys.slice(1)) union(keys[0] as string, key);
    return keys[0] as string;
  });
  const lanes = new Map<string, SQSRecord[]>();
  records.forEach((record, index) => {
    const lane = find(keysOf[index] as string);
    lanes.set(lane, [...(lanes.get(lane) ?? []), record]);
  });
  return [...lanes.values()];
}

/** The accounts a record touches, lower-cased; none when it cannot be read. */
function accountsOf(record: SQSRecord): string[] {
  try {
    const body = JSON.parse(record.body) as { subject?: unknown; data?: { toAccountId?: unknown } };
    return [body.subject, body.data?.toAccountId]
      .filter((id): id is string => typeof id === 'string')
      .map((id) => id.toLowerCase());
  } catch {
    // Unparseable: it will be dead-lettered on its own lane.
    return [];
  }
}
