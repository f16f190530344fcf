import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describeError } from '../../functions/domain/shared/log';
import { sleep } from '../../functions/domain/shared/retry';
import { type BatchHandler, invokeBatch } from './batch-response';
import { batchHead } from './stream-log';
import { toLambdaStreamRecord } from './stream-records';
import {
  type ShardCursor,
  type ShardState,
  type StartingPosition,
  StreamShards,
} from './stream-shards';

/**
 * A stand-in for the Lambda DynamoDB Streams event source mapping with
 * ReportBatchItemFailures, one per consumer of a table's stream (the outbox dispatcher today):
 *
 * - iterates the stream's shards as Lambda does (stream-shards.ts: parents before children,
 *   new shards picked up, expired iterators resumed) and hands each shard's records to the
 *   handler as a Lambda `DynamoDBStreamEvent` (stream-records.ts), at most `batchSize` at a
 *   time, one shard after another;
 * - settles each batch `in-order` (batch-response.ts): the records before the lowest failed
 *   sequence number are done, and the poller retries from that record (with the rest of the
 *   batch) after a backoff; a handler that throws or answers with something malformed retries
 *   the whole batch. It never skips a record: like Lambda with MaximumRetryAttempts -1, it
 *   retries until the handler succeeds. Later records of that shard wait; other shards go on.
 */

export type StreamBatchHandler = BatchHandler<DynamoDBStreamEvent>;

export type { ShardState, StartingPosition };

export interface StreamPollerOptions {
  readonly client: DynamoDBStreamsClient;
  readonly streamArn: string;
  /** Goes into every record's `awsRegion` (DynamoDB Local itself says `ddblocal`). */
  readonly region: string;
  readonly handler: StreamBatchHandler;
  /** Where to begin in the shards that exist at start; later shards are read from their start. @default 'TRIM_HORIZON' */
  readonly startingPosition?: StartingPosition;
  /** Records per handler call and per GetRecords, 1–100. @default 100 */
  readonly batchSize?: number;
  /** Pause when no shard had anything to do. @default 250 */
  readonly idleDelayMs?: number;
  /** How often the shard list is described again. @default 5000 */
  readonly describeIntervalMs?: number;
  /** First pause after a failed batch or call; doubles up to `maxBackoffMs`. @default 500 */
  readonly retryBackoffMs?: number;
  /** @default 10000 */
  readonly maxBackoffMs?: number;
  /** One line per batch, shard changes and errors. @default no output */
  readonly log?: (line: string) => void;
}

const DEFAULT_STREAM_BATCH_SIZE = 100;
const DEFAULT_IDLE_DELAY_MS = 250;
const DEFAULT_DESCRIBE_INTERVAL_MS = 5_000;
const DEFAULT_RETRY_BACKOFF_MS = 500;
const DEFAULT_MAX_BACKOFF_MS = 10_000;

export class StreamPoller {
  private readonly controller = new AbortController();
  private readonly shards: StreamShards;
  private readonly log: (line: string) => void;
  private readonly batchSize: number;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: StreamPollerOptions) {
    const batchSize = options.batchSize ?? DEFAULT_STREAM_BATCH_SIZE;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100) {
      throw new Error(`batchSize must be an integer between 1 and 100 (got ${batchSize})`);
    }
    this.batchSize = batchSize;
    this.log = options.log ?? (() => {});
    this.shards = new StreamShards({
      client: options.client,
      streamArn: options.streamArn,
      batchSize,
      describeIntervalMs: options.describeIntervalMs ?? DEFAULT_DESCRIBE_INTERVAL_MS,
      backoff: (failures) => this.backoff(failures),
      signal: this.controller.signal,
      log: this.log,
    });
  }

  /**
   * Describes the stream and opens an iterator on every shard it can read now, then keeps
   * polling in the background. Rejects when the stream cannot be described or read.
   */
  async start(): Promise<void> {
    if (this.loop) throw new Error('the stream poller is already running');
    await this.open();
    this.loop = this.run();
  }

  /** Describes the stream and opens the first iterators, without polling (see `pollOnce`). */
  open(): Promise<void> {
    return this.shards.open(this.options.startingPosition ?? 'TRIM_HORIZON');
  }

  /** Stops polling; a batch in progress finishes first. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.loop;
  }

  /** Shard ids and their state, for logs and tests. */
  shardStates(): Record<string, ShardState> {
    return this.shards.states();
  }

  /**
   * One pass over the shards: describe if due, then for each readable shard one GetRecords
   * (when nothing is pending) and one handler call. True when anything was read or handled.
   */
  async pollOnce(): Promise<boolean> {
    let worked = false;
    for (const shard of await this.shards.readable()) {
      if (this.controller.signal.aborted) break;
      if (shard.retryAt > Date.now()) continue;
      if (await this.step(shard)) worked = true;
    }
    return worked;
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    const idle = this.options.idleDelayMs ?? DEFAULT_IDLE_DELAY_MS;
    while (!signal.aborted) {
      let worked = false;
      try {
        worked = await this.pollOnce();
      } catch (error) {
        // Reads, describes and batches catch their own errors; this is a last resort.
        if (signal.aborted) break;
        this.log(`unexpected error: ${describeError(error)}`);
      }
      if (!worked) await sleep(idle, signal);
    }
  }

  /** Reads when nothing is pending, then hands one batch to the handler. Never throws. */
  private async step(shard: ShardCursor): Promise<boolean> {
    let worked = false;
    if (shard.pending.length === 0 && !shard.atEnd) {
      worked = await this.shards.read(shard);
    }
    if (shard.pending.length > 0) {
      if (this.controller.signal.aborted) return worked;
      return (await this.handle(shard)) || worked;
    }
    if (shard.atEnd) {
      this.shards.finish(shard);
      return true;
    }
    return worked;
  }

  /** One batch from the shard's pending records; moves its checkpoint past what is done. */
  private async handle(shard: ShardCursor): Promise<boolean> {
    const batch = shard.pending.slice(0, this.batchSize);
    const { streamArn, region } = this.options;
    const event: DynamoDBStreamEvent = {
      Records: batch.map((r) => toLambdaStreamRecord(r, streamArn, region)),
    };
    const started = Date.now();
    const { done, retried, batchFailure } = await invokeBatch(
      this.options.handler,
      event,
      event.Records.map((r) => r.dynamodb?.SequenceNumber),
      'in-order',
    );
    const took = `${Date.now() - started} ms`;
    const head = batchHead(shard.id, event);
    shard.pending.splice(0, done.length);

    if (retried.length === 0) {
      shard.failures = 0;
      shard.retryAt = 0;
      this.log(`${head} -> ok (${took})`);
      return true;
    }
    const wait = this.backoff(++shard.failures);
    shard.retryAt = Date.now() + wait;
    const why =
      batchFailure === undefined
        ? `failed at ${event.Records[done.length]?.dynamodb?.SequenceNumber}`
        : `whole batch failed: ${batchFailure}`;
    this.log(
      `${head} -> ${why}; ${done.length} done, retrying ${retried.length} in ${wait} ms (attempt ${shard.failures + 1}) (${took})`,
    );
    return done.length > 0;
  }

  private backoff(failures: number): number {
    const first = this.options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
    const max = this.options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    return Math.min(first * 2 ** Math.max(0, failures - 1), max);
  }
}
