import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import {
  DEAD_LETTER_ATTRIBUTES,
  EVENTS_CONSUMER_TIMEOUT_SECONDS,
  RECEIVES_EXHAUSTED,
} from '../../contract/events';
import { MAX_RECEIVE_COUNT } from '../../contract/names';
import type { LedgerEventInput } from '../../domain/events/model';
import { chunksOf } from '../../domain/events/runs';
import { withDeadline } from '../../domain/shared/retry';
import { type InvocationContext, retryDeadline } from '../shared/invocation';
import { eventApplier } from './chunks';
import { lanesOf } from './lanes';
import { parseLedgerEvent } from './parse';
import { type EventsConsumerDeps, type RecordFate, recordSettler, type Valid } from './records';

export type { EventsConsumerDeps };

export type EventsHandler = (
  event: SQSEvent,
  context?: InvocationContext,
) => Promise<SQSBatchResponse>;

/** The receive after which SQS's redrive policy moves a message that failed again. */
const lastReceive = (record: SQSRecord) =>
  Number(record.attributes.ApproximateReceiveCount) >= MAX_RECEIVE_COUNT;

/**
 * A dead letter carries `error_code` (the consumer's own, or a redrive tool's copy of it): back
 * on the queue it is a redrive, named by its message id, which may evaluate a recorded refusal
 * again once (docs/contract.md §6, §31). A duplicate delivery of the original carries none.
 */
function redriven(record: SQSRecord, event: LedgerEventInput): LedgerEventInput {
  const code = record.messageAttributes?.[DEAD_LETTER_ATTRIBUTES.code]?.stringValue;
  return code === undefined ? event : { ...event, redrive: record.messageId };
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
  const now = deps.now ?? Date.now;
  const batchWrites = deps.batchWrites ?? true;
  const settler = recordSettler(deps);
  const { deadLetter, guarded, waive } = settler;
  const { applyOne, applyChunk } = eventApplier(deps, settler);

  /**
   * One lane in batch order: records that never parse are dead-lettered as they come (they
   * touch no account); consecutive credits and debits of one account gather into a run that
   * is written in chunks when the run ends; anything else (a transfer) runs on its own.
   */
  async function processLane(records: readonly SQSRecord[], deadline: number) {
    const results = new Map<SQSRecord, RecordFate>();
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
      const event = redriven(record, parsed.event);
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
    const again: SQSRecord[] = [];
    for (const record of failed.flat()) {
      if (!lastReceive(record)) again.push(record);
      else if ((await exhausted(record)) === 'retry') again.push(record);
    }
    return { batchItemFailures: again.map((record) => ({ itemIdentifier: record.messageId })) };
  };

  /**
   * A record that failed transiently on its last allowed receive is dead-lettered by the
   * consumer itself as `receives_exhausted` (docs/contract.md §6), so the DLQ says why; should
   * that send fail, SQS's redrive policy moves it after this receive, without `error_code`.
   */
  function exhausted(record: SQSRecord) {
    const receives = record.attributes.ApproximateReceiveCount;
    const detail = `no receive of ${receives} could apply it (transient failures, logged under its messageId)`;
    const fields = { messageId: record.messageId };
    return guarded(fields, () => deadLetter(record, RECEIVES_EXHAUSTED, detail, fields));
  }
}
