import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  type AttributeValue,
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type {
  DynamoDBRecord,
  DynamoDBStreamEvent,
  AttributeValue as LambdaAttributeValue,
} from 'aws-lambda';
import { describeError } from '../functions/domain/shared/log';
import { sleep } from '../functions/domain/shared/retry';
import { preview } from './preview';

/**
 * A stand-in for the Lambda DynamoDB Streams event source mapping with
 * ReportBatchItemFailures, for the local stack's outbox dispatcher:
 *
 * - finds the table's stream (DescribeTable → LatestStreamArn) and its shards (DescribeStream,
 *   all pages), and describes again every few seconds and whenever a shard ends, so shards that
 *   DynamoDB opens later (a rollover, a split) are picked up;
 * - reads a child shard only after its parent has been read to the end, so records of one item
 *   stay in order across a rollover;
 * - reads each shard from TRIM_HORIZON (or LATEST at start, if asked) with GetRecords, and hands
 *   the records to the handler as a Lambda `DynamoDBStreamEvent`, at most `batchSize` at a time;
 * - on `batchItemFailures` it keeps the records before the lowest failed sequence number as done
 *   and retries from that record (with the rest of the batch) after a backoff; a handler that
 *   throws or answers with something malformed retries the whole batch. It never skips a
 *   record: like Lambda with the default MaximumRetryAttempts (-1), it retries until the
 *   handler succeeds. Later records of that shard wait.
 */

export type StreamBatchHandler = (event: DynamoDBStreamEvent) => Promise<unknown>;

export type StartingPosition = 'TRIM_HORIZON' | 'LATEST';

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

/** How the handler's answer is read (ReportBatchItemFailures, as Lambda reads it). */
export type StreamVerdict =
  | { readonly ok: true; readonly firstFailed: number | undefined }
  | { readonly ok: false; readonly reason: string };

type ShardState = 'waiting' | 'reading' | 'done';

interface ShardCursor {
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
  /** GetRecords returned no NextShardIterator: the shard is closed and fully read. */
  atEnd: boolean;
  failures: number;
  retryAt: number;
}

/** DescribeTable → the table's current stream; fails when streams are not enabled. */
export async function resolveStreamArn(
  client: DynamoDBClient,
  tableName: string,
  signal?: AbortSignal,
): Promise<string> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }), {
    abortSignal: signal,
  });
  const arn = Table?.LatestStreamArn;
  if (!arn || Table?.StreamSpecification?.StreamEnabled === false) {
    throw new Error(`table ${tableName} has no stream; the outbox dispatcher needs one`);
  }
  return arn;
}

export class StreamPoller {
  private readonly controller = new AbortController();
  private readonly shards = new Map<string, ShardCursor>();
  private readonly log: (line: string) => void;
  private readonly batchSize: number;
  private loop: Promise<void> | undefined;
  private nextDescribe = 0;
  private describeFailures = 0;

  constructor(private readonly options: StreamPollerOptions) {
    const batchSize = options.batchSize ?? DEFAULT_STREAM_BATCH_SIZE;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100) {
      throw new Error(`batchSize must be an integer between 1 and 100 (got ${batchSize})`);
    }
    this.batchSize = batchSize;
    this.log = options.log ?? (() => {});
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
  async open(): Promise<void> {
    await this.discover(this.options.startingPosition ?? 'TRIM_HORIZON');
    this.activateChildren();
    for (const shard of this.reading()) await this.openIterator(shard);
  }

  /** Stops polling; a batch in progress finishes first. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.loop;
  }

  /** Shard ids and their state, for logs and tests. */
  shardStates(): Record<string, ShardState> {
    return Object.fromEntries([...this.shards.values()].map((s) => [s.id, s.state]));
  }

  /**
   * One pass over the shards: describe if due, then for each readable shard one GetRecords
   * (when nothing is pending) and one handler call. True when anything was read or handled.
   */
  async pollOnce(): Promise<boolean> {
    const now = Date.now();
    if (now >= this.nextDescribe) await this.rediscover();
    this.activateChildren();
    let worked = false;
    for (const shard of this.reading()) {
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
        // step() and rediscover() catch their own errors; this is a last resort.
        if (signal.aborted) break;
        this.log(`unexpected error: ${describeError(error)}`);
      }
      if (!worked) await sleep(idle, signal);
    }
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
        { abortSignal: this.controller.signal },
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
      const start: ShardIteratorType = initial === 'LATEST' ? 'LATEST' : 'TRIM_HORIZON';
      this.shards.set(id, {
        id,
        parentId: shard.ParentShardId,
        state: skip ? 'done' : 'waiting',
        start,
        iterator: undefined,
        pending: [],
        lastRead: undefined,
        atEnd: false,
        failures: 0,
        retryAt: 0,
      });
      if (!initial) this.log(`new shard ${short(id)}${parentNote(shard.ParentShardId)}`);
    }
    // Forget finished shards that the stream no longer lists (trimmed after 24 h).
    for (const [id, shard] of this.shards) {
      if (shard.state === 'done' && !ids.has(id)) this.shards.delete(id);
    }
    this.nextDescribe =
      Date.now() + (this.options.describeIntervalMs ?? DEFAULT_DESCRIBE_INTERVAL_MS);
  }

  private async rediscover(): Promise<void> {
    try {
      await this.discover();
      this.describeFailures = 0;
    } catch (error) {
      if (this.controller.signal.aborted) return;
      const wait = this.backoff(++this.describeFailures);
      this.nextDescribe = Date.now() + wait;
      this.log(`DescribeStream failed: ${describeError(error)}; trying again in ${wait} ms`);
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
      { abortSignal: this.controller.signal },
    );
    if (!ShardIterator) throw new Error(`GetShardIterator returned no iterator for ${shard.id}`);
    shard.iterator = ShardIterator;
  }

  /** Reads when nothing is pending, then hands one batch to the handler. Never throws. */
  private async step(shard: ShardCursor): Promise<boolean> {
    let worked = false;
    if (shard.pending.length === 0 && !shard.atEnd) {
      try {
        worked = await this.read(shard);
      } catch (error) {
        if (this.controller.signal.aborted) return false;
        this.readFailed(shard, error);
        return false;
      }
    }
    if (shard.pending.length > 0) {
      if (this.controller.signal.aborted) return worked;
      return (await this.handle(shard)) || worked;
    }
    if (shard.atEnd) {
      shard.state = 'done';
      this.nextDescribe = 0; // look for its children now
      this.log(`shard ${short(shard.id)} is closed and fully read`);
      return true;
    }
    return worked;
  }

  private async read(shard: ShardCursor): Promise<boolean> {
    if (!shard.iterator) await this.openIterator(shard);
    const result = await this.options.client.send(
      new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: this.batchSize }),
      { abortSignal: this.controller.signal },
    );
    const records = result.Records ?? [];
    shard.pending.push(...records);
    const last = records.at(-1)?.dynamodb?.SequenceNumber;
    if (last !== undefined) shard.lastRead = last;
    shard.iterator = result.NextShardIterator;
    if (!result.NextShardIterator) shard.atEnd = true;
    shard.failures = 0;
    return records.length > 0;
  }

  private readFailed(shard: ShardCursor, error: unknown): void {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'ExpiredIteratorException') {
      // Resume right after the last record read (or from the start position).
      shard.iterator = undefined;
      this.log(`shard ${short(shard.id)}: iterator expired; opening a new one`);
      return;
    }
    if (name === 'TrimmedDataAccessException') {
      // Records older than 24 h were removed before they were read: nothing can bring them
      // back. Say so loudly and continue from the oldest record still there.
      shard.iterator = undefined;
      shard.lastRead = undefined;
      shard.start = 'TRIM_HORIZON';
      this.log(
        `shard ${short(shard.id)}: records were trimmed before they were read; continuing from the oldest record left`,
      );
      return;
    }
    if (name === 'ResourceNotFoundException') {
      // The shard (or the stream) is gone; the next describe tells which.
      shard.iterator = undefined;
      this.nextDescribe = 0;
    }
    const wait = this.backoff(++shard.failures);
    shard.retryAt = Date.now() + wait;
    this.log(
      `shard ${short(shard.id)}: GetRecords failed: ${describeError(error)}; retrying in ${wait} ms`,
    );
  }

  private async handle(shard: ShardCursor): Promise<boolean> {
    const batch = shard.pending.slice(0, this.batchSize);
    const event: DynamoDBStreamEvent = {
      Records: batch.map((r) =>
        toLambdaStreamRecord(r, this.options.streamArn, this.options.region),
      ),
    };
    const started = Date.now();
    let verdict: StreamVerdict;
    try {
      verdict = judgeStreamResponse(await this.options.handler(event), event);
    } catch (error) {
      verdict = { ok: false, reason: `handler threw: ${describeError(error)}` };
    }
    const range = sequenceRange(event);
    const took = `${Date.now() - started} ms`;
    const head = `shard ${short(shard.id)}: ${batch.length} record(s) ${range} ${eventNames(event)}`;

    if (verdict.ok && verdict.firstFailed === undefined) {
      shard.pending.splice(0, batch.length);
      shard.failures = 0;
      shard.retryAt = 0;
      this.log(`${head} -> ok (${took})`);
      return true;
    }
    const done = verdict.ok ? (verdict.firstFailed ?? 0) : 0;
    shard.pending.splice(0, done);
    const wait = this.backoff(++shard.failures);
    shard.retryAt = Date.now() + wait;
    const why = verdict.ok
      ? `failed at ${event.Records[done]?.dynamodb?.SequenceNumber}`
      : `whole batch failed: ${verdict.reason}`;
    this.log(
      `${head} -> ${why}; ${done} done, retrying ${batch.length - done} in ${wait} ms (attempt ${shard.failures + 1}) (${took})`,
    );
    return done > 0;
  }

  private backoff(failures: number): number {
    const first = this.options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
    const max = this.options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    return Math.min(first * 2 ** Math.max(0, failures - 1), max);
  }
}

/** Resolves the table's stream, starts polling it and resolves once every shard is open. */
export async function startStreamPoller(
  options: Omit<StreamPollerOptions, 'streamArn'> & {
    readonly dynamo: DynamoDBClient;
    readonly tableName: string;
  },
): Promise<StreamPoller> {
  const { dynamo, tableName, ...rest } = options;
  const streamArn = await resolveStreamArn(dynamo, tableName);
  const poller = new StreamPoller({ ...rest, streamArn });
  await poller.start();
  return poller;
}

/**
 * Reads a handler's answer the way Lambda reads ReportBatchItemFailures for streams: no answer
 * or an empty list means success; otherwise the lowest listed sequence number is where the
 * retry starts. An identifier that is not a sequence number of the batch, or a malformed
 * answer, fails the whole batch.
 */
export function judgeStreamResponse(response: unknown, event: DynamoDBStreamEvent): StreamVerdict {
  if (response === undefined || response === null) return { ok: true, firstFailed: undefined };
  if (typeof response !== 'object' || Array.isArray(response)) {
    return { ok: false, reason: `malformed response: ${preview(response)}` };
  }
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return { ok: true, firstFailed: undefined };
  if (!Array.isArray(failures)) {
    return { ok: false, reason: 'malformed response: batchItemFailures is not a list' };
  }
  const index = new Map<string, number>();
  event.Records.forEach((r, i) => {
    const seq = r.dynamodb?.SequenceNumber;
    if (seq !== undefined) index.set(seq, i);
  });
  let firstFailed: number | undefined;
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const at = typeof id === 'string' ? index.get(id) : undefined;
    if (at === undefined) {
      return {
        ok: false,
        reason: `malformed response: itemIdentifier ${preview(id)} is not a sequence number of the batch`,
      };
    }
    firstFailed = firstFailed === undefined ? at : Math.min(firstFailed, at);
  }
  return { ok: true, firstFailed };
}

/** One stream record as the Lambda event source mapping delivers it. */
export function toLambdaStreamRecord(
  record: _Record,
  streamArn: string,
  region: string,
): DynamoDBRecord {
  const d = record.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime;
  const lambda: DynamoDBRecord = {
    ...(record.eventID === undefined ? {} : { eventID: record.eventID }),
    ...(record.eventName === undefined ? {} : { eventName: record.eventName }),
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(created === undefined
        ? {}
        : { ApproximateCreationDateTime: Math.floor(toDate(created).getTime() / 1000) }),
      ...(d.Keys ? { Keys: toLambdaImage(d.Keys) } : {}),
      ...(d.NewImage ? { NewImage: toLambdaImage(d.NewImage) } : {}),
      ...(d.OldImage ? { OldImage: toLambdaImage(d.OldImage) } : {}),
      ...(d.SequenceNumber === undefined ? {} : { SequenceNumber: d.SequenceNumber }),
      ...(d.SizeBytes === undefined ? {} : { SizeBytes: d.SizeBytes }),
      ...(d.StreamViewType === undefined ? {} : { StreamViewType: d.StreamViewType }),
    },
  };
  // TTL deletions carry { type: "Service", principalId: "dynamodb.amazonaws.com" }.
  if (record.userIdentity) {
    lambda.userIdentity = {
      type: record.userIdentity.Type,
      principalId: record.userIdentity.PrincipalId,
    };
  }
  return lambda;
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

function toLambdaImage(
  image: Record<string, AttributeValue>,
): Record<string, LambdaAttributeValue> {
  const out: Record<string, LambdaAttributeValue> = {};
  for (const [name, value] of Object.entries(image)) {
    const converted = toLambdaValue(value);
    if (converted) out[name] = converted;
  }
  return out;
}

/** The SDK's attribute value (binary as bytes) → Lambda's JSON one (binary as base64). */
function toLambdaValue(value: AttributeValue): LambdaAttributeValue | undefined {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) {
    return { L: value.L.map(toLambdaValue).filter((v): v is LambdaAttributeValue => !!v) };
  }
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  return undefined;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

function sequenceRange(event: DynamoDBStreamEvent): string {
  const first = event.Records[0]?.dynamodb?.SequenceNumber ?? '?';
  const last = event.Records.at(-1)?.dynamodb?.SequenceNumber ?? '?';
  return first === last ? `seq ${trimSeq(first)}` : `seq ${trimSeq(first)}-${trimSeq(last)}`;
}

/** DynamoDB Local pads sequence numbers with zeros (000000000000000000042); show 42. */
function trimSeq(seq: string): string {
  return seq.replace(/^0+(?=\d)/, '');
}

function eventNames(event: DynamoDBStreamEvent): string {
  const counts = new Map<string, number>();
  for (const r of event.Records) {
    const name = r.eventName ?? '?';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return `(${[...counts].map(([n, c]) => `${n} ${c}`).join(', ')})`;
}

/** shardId-00000001795972442179-dedb43dc → …dedb43dc (unique enough for a log line). */
function short(shardId: string): string {
  const tail = shardId.split('-').at(-1) ?? shardId;
  return tail.length < shardId.length ? `…${tail}` : shardId;
}

function parentNote(parentId: string | undefined): string {
  return parentId ? ` (child of ${short(parentId)})` : '';
}
