import {
  type _Record,
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import { describeError } from '../../functions/domain/shared/log';
import { newShardLine, shardName } from './stream-log';

/**
 * Stream iteration for one consumer of a DynamoDB stream, as the Lambda event source mapping
 * does it:
 *
 * - finds the stream's shards (DescribeStream, all pages), and describes again every few
 *   seconds and whenever a shard ends, so shards that DynamoDB opens later (a rollover, a
 *   split) are picked up;
 * - lets a child shard be read only after its parent has been read to the end, so records of
 *   one item stay in order across a rollover;
 * - reads each shard from TRIM_HORIZON (or LATEST at start, if asked) with GetRecords and
 *   resumes after the last record read when an iterator expires.
 *
 * Records read wait in their shard's `pending` list, oldest first: they are the consumer's
 * checkpoint per shard (everything before `pending[0]` is done). Each consumer has its own
 * shards, so two consumers of one stream keep two checkpoints per shard.
 */

export type StartingPosition = 'TRIM_HORIZON' | 'LATEST';

export type ShardState = 'waiting' | 'reading' | 'done';

export interface ShardCursor {
  readonly id: string;
  readonly parentId: string | undefined;
  state: ShardState;
  /** Where a new iterator starts when there is none (first read, or it expired). */
  start: ShardIteratorType;
  iterator: string | undefined;
  /** Records read from the shard and not yet handled successfully, oldest first. */
  pending: _Record[];
  /** Sequence number of the last record read, to resume after an expired iterator. */
  lastRead: string | undefined;
  /** GetRecords returned no next iterator: the shard is closed and everything was read. */
  atEnd: boolean;
  /** Consecutive failures (reads or batches), for the backoff. */
  failures: number;
  /** Not before this time (epoch ms) after a failure. */
  retryAt: number;
}

export interface StreamShardsOptions {
  readonly client: DynamoDBStreamsClient;
  readonly streamArn: string;
  /** Records per GetRecords. */
  readonly batchSize: number;
  /** How often the shard list is described again. */
  readonly describeIntervalMs: number;
  /** Pause before the next attempt after `failures` consecutive failures. */
  readonly backoff: (failures: number) => number;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
}

export class StreamShards {
  private readonly shards = new Map<string, ShardCursor>();
  private nextDescribe = 0;
  private describeFailures = 0;

  constructor(private readonly options: StreamShardsOptions) {}

  /** Describes the stream and opens an iterator on every shard that may be read now. */
  async open(startingPosition: StartingPosition): Promise<void> {
    await this.discover(startingPosition);
    this.activateChildren();
    for (const shard of this.reading()) await this.openIterator(shard);
  }

  /** Describes again when due, then lists the shards that may be read, oldest first. */
  async readable(): Promise<ShardCursor[]> {
    if (Date.now() >= this.nextDescribe) await this.rediscover();
    this.activateChildren();
    return this.reading();
  }

  /** Shard ids and their state, for logs and tests. */
  states(): Record<string, ShardState> {
    return Object.fromEntries([...this.shards.values()].map((s) => [s.id, s.state]));
  }

  /** Reads the next records of the shard into `pending`. Never throws; true when any arrived. */
  async read(shard: ShardCursor): Promise<boolean> {
    try {
      if (!shard.iterator) await this.openIterator(shard);
      const result = await this.options.client.send(
        new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: this.options.batchSize }),
        { abortSignal: this.options.signal },
      );
      const records = result.Records ?? [];
      shard.pending.push(...records);
      const last = records.at(-1)?.dynamodb?.SequenceNumber;
      if (last !== undefined) shard.lastRead = last;
      shard.iterator = result.NextShardIterator;
      if (!result.NextShardIterator) shard.atEnd = true;
      shard.failures = 0;
      return records.length > 0;
    } catch (error) {
      if (!this.options.signal.aborted) this.readFailed(shard, error);
      return false;
    }
  }

  /** The shard is closed and fully handled: look for its children now. */
  finish(shard: ShardCursor): void {
    shard.state = 'done';
    this.nextDescribe = 0;
    this.options.log(`${shardName(shard.id)} is closed and fully read`);
  }

  private reading(): ShardCursor[] {
    return [...this.shards.values()].filter((s) => s.state === 'reading');
  }

  /** Lists every shard (all pages) and tracks the new ones. */
  private async discover(initial?: StartingPosition): Promise<void> {
    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.options.client.send(
        new DescribeStreamCommand({
          StreamArn: this.options.streamArn,
          ...(exclusiveStartShardId ? { ExclusiveStartShardId: exclusiveStartShardId } : {}),
        }),
        { abortSignal: this.options.signal },
      );
      listed.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);

    const ids = new Set<string>();
    for (const shard of listed) {
      const id = shard.ShardId;
      if (!id) continue;
      ids.add(id);
      if (this.shards.has(id)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      // At start with LATEST, closed shards hold only the past: skip them. Shards that appear
      // later are new, so they are read from their first record (as Lambda does).
      const skip = initial === 'LATEST' && closed;
      this.shards.set(id, {
        id,
        parentId: shard.ParentShardId,
        state: skip ? 'done' : 'waiting',
        start: initial === 'LATEST' ? 'LATEST' : 'TRIM_HORIZON',
        iterator: undefined,
        pending: [],
        lastRead: undefined,
        atEnd: false,
        failures: 0,
        retryAt: 0,
      });
      if (!initial) this.options.log(newShardLine(id, shard.ParentShardId));
    }
    // Forget finished shards that the stream no longer lists (trimmed after 24 h).
    for (const [id, shard] of this.shards) {
      if (shard.state === 'done' && !ids.has(id)) this.shards.delete(id);
    }
    this.nextDescribe = Date.now() + this.options.describeIntervalMs;
  }

  private async rediscover(): Promise<void> {
    try {
      await this.discover();
      this.describeFailures = 0;
    } catch (error) {
      if (this.options.signal.aborted) return;
      const wait = this.options.backoff(++this.describeFailures);
      this.nextDescribe = Date.now() + wait;
      this.options.log(
        `DescribeStream failed: ${describeError(error)}; trying again in ${wait} ms`,
      );
    }
  }

  /** A waiting shard becomes readable once its parent is read to the end (or is not tracked). */
  private activateChildren(): void {
    for (const shard of this.shards.values()) {
      if (shard.state !== 'waiting') continue;
      const parent = shard.parentId ? this.shards.get(shard.parentId) : undefined;
      if (!parent || parent.state === 'done') shard.state = 'reading';
    }
  }

  private async openIterator(shard: ShardCursor): Promise<void> {
    const resume = shard.lastRead !== undefined;
    const { ShardIterator } = await this.options.client.send(
      new GetShardIteratorCommand({
        StreamArn: this.options.streamArn,
        ShardId: shard.id,
        ShardIteratorType: resume ? 'AFTER_SEQUENCE_NUMBER' : shard.start,
        ...(resume ? { SequenceNumber: shard.lastRead } : {}),
      }),
      { abortSignal: this.options.signal },
    );
    if (!ShardIterator) throw new Error(`GetShardIterator returned no iterator for ${shard.id}`);
    shard.iterator = ShardIterator;
  }

  private readFailed(shard: ShardCursor, error: unknown): void {
    const name = (error as { name?: unknown } | null)?.name;
    const { log } = this.options;
    if (name === 'ExpiredIteratorException') {
      // Resume right after the last record read (or from the start position).
      shard.iterator = undefined;
      log(`${shardName(shard.id)}: iterator expired; opening a new one`);
      return;
    }
    if (name === 'TrimmedDataAccessException') {
      // Records older than 24 h were removed before they were read: nothing can bring them
      // back. Say so loudly and continue from the oldest record still there.
      shard.iterator = undefined;
      shard.lastRead = undefined;
      shard.start = 'TRIM_HORIZON';
      log(
        `${shardName(shard.id)}: records were trimmed before they were read; continuing from the oldest record left`,
      );
      return;
    }
    if (name === 'ResourceNotFoundException') {
      // The shard (or the stream) is gone; the next describe tells which.
      shard.iterator = undefined;
      this.nextDescribe = 0;
    }
    const wait = this.options.backoff(++shard.failures);
    shard.retryAt = Date.now() + wait;
    log(
      `${shardName(shard.id)}: GetRecords failed: ${describeError(error)}; retrying in ${wait} ms`,
    );
  }
}
