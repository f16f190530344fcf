/**
 * One account under load: ledger events from several producers drained by concurrent batches
 * (the event source mapping), and HTTP credits with many in flight. Every round checks that the
 * account ends exactly where the work says, so a fast wrong answer cannot pass for a fast one.
 */
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../functions/api/types';
import { ledgerEvent, sqsEvent, sqsRecord } from '../../kit/ledger-events';
import type { ContentionStats } from '../../local/services/contention/proxy';
import { postCredit } from '../http/scenarios';
import type { LatencyProxy } from '../latency-proxy';
import { percentile } from '../stats';
import { busiestCommits, type LayerProcess } from './layer';

export type Consume = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface EventsSide {
  readonly name: string;
  readonly consume: Consume;
  /** Records per batch (the event source's BatchSize). */
  readonly batchSize: number;
}

export interface EventsRound {
  readonly eventsPerSecond: number;
  /** Transactions DynamoDB Local committed, per event. */
  readonly transactionsPerEvent: number;
  /** Transactions the layer cancelled for a held item, per event. */
  readonly conflictsPerEvent: number;
  /** Write-budget refusals, per event. */
  readonly throttledPerEvent: number;
  /** Records reported failed and delivered again. */
  readonly redeliveries: number;
  /** Mean time an item was held per transaction DynamoDB Local saw (the layer's view), ms. */
  readonly holdMs: number;
}

/**
 * The queue as the event source mapping sees it: `concurrency` invocations at a time, each
 * taking up to `batchSize` records in order; a record reported failed goes back to the end at
 * once (SQS would hide it for its visibility timeout first, so this flatters whichever side
 * fails more). A record failing 50 times stops the bench.
 */
export async function drain(
  consume: Consume,
  records: readonly SQSRecord[],
  batchSize: number,
  concurrency: number,
): Promise<{ redeliveries: number }> {
  const queue = [...records];
  const failures = new Map<string, number>();
  let redeliveries = 0;
  let inFlight = 0;
  const worker = async () => {
    for (;;) {
      const batch = queue.splice(0, batchSize);
      if (batch.length === 0) {
        if (inFlight === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      inFlight++;
      const failed = await consume(sqsEvent(...batch)).then(
        (answer) => new Set(answer.batchItemFailures.map((f) => f.itemIdentifier)),
        () => new Set(batch.map((r) => r.messageId)),
      );
      inFlight--;
      for (const record of batch.filter((r) => failed.has(r.messageId))) {
        const count = (failures.get(record.messageId) ?? 0) + 1;
        if (count >= 50) throw new Error(`record ${record.messageId} failed ${count} times`);
        failures.set(record.messageId, count);
        redeliveries++;
        queue.push(record);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { redeliveries };
}

/**
 * `events` credits of 1 into `accountId` from `producers` sources, each numbering its own
 * events 1, 2, 3, …, interleaved round-robin as they would arrive.
 */
export function producerRecords(accountId: string, producers: number, events: number): SQSRecord[] {
  return Array.from({ length: events }, (_, i) =>
    sqsRecord(
      ledgerEvent({
        subject: accountId,
        source: `urn:bench:producer-${i % producers}`,
        sequence: Math.floor(i / producers) + 1,
        amount: 1,
      }),
    ),
  );
}

export async function eventsRound(
  side: EventsSide,
  records: readonly SQSRecord[],
  concurrency: number,
  layer: LayerProcess,
  balance: () => Promise<number>,
): Promise<EventsRound> {
  const before = await layer.stats();
  const start = performance.now();
  const { redeliveries } = await drain(side.consume, records, side.batchSize, concurrency);
  const seconds = (performance.now() - start) / 1000;
  const after = await layer.stats();
  const got = await balance();
  if (got !== records.length) {
    throw new Error(`${side.name}: balance ${got} after ${records.length} credits of 1`);
  }
  const n = records.length;
  const transactions = after.transactions - before.transactions;
  return {
    eventsPerSecond: n / seconds,
    transactionsPerEvent: transactions / n,
    conflictsPerEvent: (after.conflicts - before.conflicts) / n,
    throttledPerEvent: (after.throttled - before.throttled) / n,
    redeliveries,
    holdMs: meanHoldMs(before, after),
  };
}

/** Mean time an item was held per transaction forwarded between two readings of the layer. */
function meanHoldMs(before: ContentionStats, after: ContentionStats): number {
  return (after.heldMs - before.heldMs) / Math.max(1, after.forwarded - before.forwarded);
}

export interface HttpSide {
  readonly name: string;
  readonly send: (event: HttpEvent) => Promise<HttpResult>;
}

export interface HttpRound {
  readonly perSecond: number;
  /** From a caller's first attempt to its 201, Retry-After waits included, ms. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly callsPerCredit: number;
  /** Answers that asked the caller to come back: 503, and 409 idempotency_key_in_use. */
  readonly retryAnswersPerCredit: number;
  /** Mean time an item was held per transaction DynamoDB Local saw (the layer's view), ms. */
  readonly holdMs: number;
  /** Commits of the busiest item per credit (bench/hot/layer.ts `busiestCommits`). */
  readonly busiestCommitsPerCredit: number;
}

/**
 * `requests` credits of 1, `inFlight` callers at a time, each retrying its own key as the
 * contract tells callers to: after `Retry-After` on a 503 or a 409 idempotency_key_in_use.
 */
export async function httpRound(
  side: HttpSide,
  accountId: string,
  inFlight: number,
  requests: number,
  proxy: LatencyProxy,
  layer: LayerProcess,
  balance: () => Promise<number>,
): Promise<HttpRound> {
  const before = proxy.total();
  const layerBefore = await layer.stats();
  const startBalance = await balance();
  let next = 0;
  let retryAnswers = 0;
  const completions: number[] = [];
  const start = performance.now();
  const caller = async () => {
    while (next < requests) {
      next++;
      const key = randomUUID();
      const begun = performance.now();
      for (let attempt = 1; ; attempt++) {
        const answer = await side.send(postCredit(accountId, key));
        if (answer.statusCode === 201) {
          completions.push(performance.now() - begun);
          break;
        }
        const again =
          answer.statusCode === 503 ||
          (answer.statusCode === 409 && answer.body.includes('idempotency_key_in_use'));
        if (!again || attempt >= 100) {
          throw new Error(`${side.name}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
        }
        retryAnswers++;
        const seconds = Number(answer.headers?.['retry-after'] ?? 1);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, caller));
  const seconds = (performance.now() - start) / 1000;
  const layerAfter = await layer.stats();
  const got = (await balance()) - startBalance;
  if (got !== requests) throw new Error(`${side.name}: ${got} credited for ${requests} requests`);
  return {
    perSecond: requests / seconds,
    p50Ms: percentile(completions, 50),
    p99Ms: percentile(completions, 99),
    callsPerCredit: (proxy.total() - before) / requests,
    retryAnswersPerCredit: retryAnswers / requests,
    holdMs: meanHoldMs(layerBefore, layerAfter),
    busiestCommitsPerCredit: busiestCommits(layerBefore, layerAfter) / requests,
  };
}
