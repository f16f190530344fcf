import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describeError } from '../../functions/domain/shared/log';
import { sleep } from '../../functions/domain/shared/retry';
import { type BatchHandler, invokeBatch } from './batch-response';
import { toSqsRecord } from './sqs-records';

/**
 * A stand-in for the Lambda SQS event source mapping with ReportBatchItemFailures: long-polls
 * a queue, hands each batch to the handler as a Lambda-shaped `SQSEvent` (sqs-records.ts) and
 * settles it `per-record` (batch-response.ts): deletes the records the handler did not report
 * as failed and leaves the others to become visible again (and, after the queue's
 * maxReceiveCount, to be moved to its DLQ by SQS itself). As the mapping does, it runs up to
 * `maxConcurrency` batches at once (each its own receive → invoke → delete loop) and gathers a
 * batch larger than one ReceiveMessage (10) within `maxBatchingWindowMs`.
 */

/** Any Lambda SQS handler; the response is checked at run time as Lambda does. */
export type SqsBatchHandler = BatchHandler<SQSEvent>;

export interface SqsPollerOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
  /** Goes into every record's `eventSourceARN`. */
  readonly queueArn: string;
  /** Goes into every record's `awsRegion`. */
  readonly region: string;
  readonly handler: SqsBatchHandler;
  /** Messages per batch, 1–10,000; above 10 a batch is gathered from several receives. @default 10 */
  readonly batchSize?: number;
  /** Batches handled at once, like the mapping's maximum concurrency. @default 1 */
  readonly maxConcurrency?: number;
  /** How long a batch larger than 10 may take to fill. @default 1000 */
  readonly maxBatchingWindowMs?: number;
  /** Long-poll wait per ReceiveMessage. @default 5 */
  readonly waitTimeSeconds?: number;
  /** How long a received message stays hidden; a failed one reappears after it. @default 5 */
  readonly visibilityTimeoutSeconds?: number;
  /** First pause after a failed ReceiveMessage; doubles up to 10 s. @default 500 */
  readonly errorBackoffMs?: number;
  /** One line per non-empty batch, and receive errors. @default no output */
  readonly log?: (line: string) => void;
}

export interface BatchSummary {
  readonly received: number;
  readonly deleted: number;
  /** Records left on the queue: reported failures, or the whole batch. */
  readonly failed: number;
  /** Why the whole batch failed, when it did. */
  readonly batchFailure?: string;
}

const DEFAULT_BATCH_SIZE = 10;
/** One ReceiveMessage returns at most this many messages. */
const RECEIVE_LIMIT = 10;
const DEFAULT_BATCHING_WINDOW_MS = 1_000;
/**
 * 5 s, not 1: an idle stack's pollers (ten webhook loops, the events consumer's, …) sent 17
 * ReceiveMessage a second, about 3.4 CPU-s a minute of the stack's node process. Long polls
 * return as soon as a message is there; Lambda's event source mappings wait up to 20 s. The
 * cost: a poller that was killed leaves its poll open on a queue that outlives it (the faults
 * tests' emulator) for up to 5 s, and a message that arrives then is taken for nobody, hidden for
 * its visibility timeout, as on SQS.
 */
const DEFAULT_WAIT_TIME_SECONDS = 5;
const DEFAULT_VISIBILITY_TIMEOUT_SECONDS = 5;
const MAX_BACKOFF_MS = 10_000;

export class SqsPoller {
  private readonly controller = new AbortController();
  private loops: Promise<void>[] | undefined;
  private readonly log: (line: string) => void;
  private readonly batchSize: number;
  private readonly concurrency: number;

  constructor(private readonly options: SqsPollerOptions) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > 10_000) {
      throw new Error(`batchSize must be an integer between 1 and 10000 (got ${this.batchSize})`);
    }
    this.concurrency = options.maxConcurrency ?? 1;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new Error(`maxConcurrency must be a positive integer (got ${this.concurrency})`);
    }
    this.log = options.log ?? (() => {});
  }

  /**
   * Resolves once the first ReceiveMessage has answered (a short poll, so startup does not
   * wait), then keeps polling in the background. Rejects when that first call fails, e.g. the
   * queue does not exist.
   */
  async start(): Promise<void> {
    if (this.loops) throw new Error('the poller is already running');
    const first = await this.receive(0, Math.min(this.batchSize, RECEIVE_LIMIT));
    this.loops = Array.from({ length: this.concurrency }, (_, i) =>
      this.run(i === 0 ? first : undefined),
    );
  }

  /** Aborts the long polls, lets the batches in progress finish (and delete), then resolves. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all(this.loops ?? []);
  }

  /** One receive → invoke → delete cycle. Undefined when the poll returned no messages. */
  async pollOnce(waitTimeSeconds?: number): Promise<BatchSummary | undefined> {
    return this.process(await this.receiveBatch(waitTimeSeconds));
  }

  private async run(first: Message[] | undefined): Promise<void> {
    const signal = this.controller.signal;
    let pending: Message[] | undefined = first;
    let backoff = this.options.errorBackoffMs ?? 500;
    while (!signal.aborted) {
      try {
        const messages = pending ?? (await this.receiveBatch());
        pending = undefined;
        await this.process(messages);
        backoff = this.options.errorBackoffMs ?? 500;
      } catch (error) {
        if (signal.aborted) break;
        this.log(`receive failed: ${describeError(error)}; retrying in ${backoff} ms`);
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /**
   * A long poll, then (only for a batch above 10, as the mapping needs a batching window for
   * those) short polls until the batch is full, the window has passed or the queue has nothing
   * more to give. A message received twice meanwhile counts once, with its newest receipt.
   */
  private async receiveBatch(waitTimeSeconds?: number): Promise<Message[]> {
    const first = await this.receive(waitTimeSeconds, Math.min(this.batchSize, RECEIVE_LIMIT));
    if (this.batchSize <= RECEIVE_LIMIT) return first;
    const batch = new Map(first.map((m) => [m.MessageId, m]));
    const window = this.options.maxBatchingWindowMs ?? DEFAULT_BATCHING_WINDOW_MS;
    const started = Date.now();
    while (batch.size > 0 && batch.size < this.batchSize && Date.now() - started < window) {
      const more = await this.receive(0, Math.min(this.batchSize - batch.size, RECEIVE_LIMIT));
      if (more.length === 0) break;
      for (const m of more) batch.set(m.MessageId, m);
    }
    return [...batch.values()];
  }

  private async receive(waitTimeSeconds: number | undefined, max: number): Promise<Message[]> {
    const { options } = this;
    const result = await options.client.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: waitTimeSeconds ?? options.waitTimeSeconds ?? DEFAULT_WAIT_TIME_SECONDS,
        VisibilityTimeout: options.visibilityTimeoutSeconds ?? DEFAULT_VISIBILITY_TIMEOUT_SECONDS,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: this.controller.signal },
    );
    return result.Messages ?? [];
  }

  /** Never throws: handler and delete failures leave messages on the queue and are logged. */
  private async process(messages: Message[]): Promise<BatchSummary | undefined> {
    if (messages.length === 0) return undefined;
    const started = Date.now();
    const usable = messages.filter((m) => m.MessageId && m.ReceiptHandle);
    if (usable.length < messages.length) {
      this.log(`ignored ${messages.length - usable.length} message(s) without id or receipt`);
    }
    const event: SQSEvent = {
      Records: usable.map((m) => toSqsRecord(m, this.options.queueArn, this.options.region)),
    };

    // The messages reappear once their visibility timeout passes: locally, that is the time
    // the function has (on AWS the visibility is at least six times the function timeout),
    // and at least a second, so a visibility of 0 still lets a batch run.
    const visibility = this.options.visibilityTimeoutSeconds ?? DEFAULT_VISIBILITY_TIMEOUT_SECONDS;
    const { done, batchFailure } = await invokeBatch(
      this.options.handler,
      event,
      event.Records.map((r) => r.messageId),
      'per-record',
      Math.max(1_000, visibility * 1000 - (Date.now() - started)),
    );
    const deleted = await this.delete(done.flatMap((i) => event.Records[i] ?? []));
    const summary: BatchSummary = {
      received: messages.length,
      deleted,
      failed: messages.length - deleted,
      ...(batchFailure === undefined ? {} : { batchFailure }),
    };
    this.log(
      `received ${summary.received}, deleted ${summary.deleted}, failed ${summary.failed} ` +
        `(${Date.now() - started} ms)${batchFailure === undefined ? '' : `; whole batch failed: ${batchFailure}`}`,
    );
    return summary;
  }

  /** Deletes the given records; resolves how many SQS confirmed. */
  private async delete(records: readonly SQSRecord[]): Promise<number> {
    let deleted = 0;
    for (let start = 0; start < records.length; start += 10) {
      const chunk = records.slice(start, start + 10);
      try {
        // Not tied to the abort signal: a batch that was processed is acknowledged even
        // while the poller stops.
        const result = await this.options.client.send(
          new DeleteMessageBatchCommand({
            QueueUrl: this.options.queueUrl,
            Entries: chunk.map((r, i) => ({ Id: `m${start + i}`, ReceiptHandle: r.receiptHandle })),
          }),
        );
        deleted += result.Successful?.length ?? 0;
        for (const failure of result.Failed ?? []) {
          const record = chunk[Number(failure.Id?.slice(1)) - start];
          this.log(
            `could not delete ${record?.messageId ?? failure.Id}: ${failure.Code ?? 'error'} ` +
              `${failure.Message ?? ''}; it will be redelivered`.trimEnd(),
          );
        }
      } catch (error) {
        this.log(
          `could not delete ${chunk.length} message(s): ${describeError(error)}; they will be redelivered`,
        );
      }
    }
    return deleted;
  }
}
