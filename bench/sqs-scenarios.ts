/** The SQS consumer on batches of 10 new ledger events, over 10 accounts or one. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ledgerEvent, sqsEvent, sqsRecord } from '../test/support/ledger-events';
import type { LatencyProxy } from './latency-proxy';

export const BATCH_SIZE = 10;

export interface SqsSide {
  readonly name: string;
  readonly consume: (event: SQSEvent) => Promise<SQSBatchResponse>;
  /** At least {@link BATCH_SIZE} accounts of this side. */
  readonly accounts: readonly string[];
}

export interface SqsRound {
  readonly recordsPerSecond: number;
  readonly callsPerRecord: number;
}

function batch(accounts: readonly string[], spread: number) {
  return sqsEvent(
    ...Array.from({ length: BATCH_SIZE }, (_, i) =>
      sqsRecord(ledgerEvent({ subject: accounts[i % spread] as string, source: 'urn:bench' })),
    ),
  );
}

/** `batches` batches one after another, each over `spread` accounts (1 or 10). */
export async function sqsRound(
  side: SqsSide,
  spread: number,
  batches: number,
  proxy: LatencyProxy,
): Promise<SqsRound> {
  const events = Array.from({ length: batches }, () => batch(side.accounts, spread));
  const before = proxy.total();
  const start = performance.now();
  for (const event of events) {
    const { batchItemFailures } = await side.consume(event);
    if (batchItemFailures.length > 0) {
      throw new Error(`${side.name}: ${batchItemFailures.length} records failed in a batch`);
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const records = batches * BATCH_SIZE;
  return {
    recordsPerSecond: records / seconds,
    callsPerRecord: (proxy.total() - before) / records,
  };
}
