import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Lifecycle } from '../../../../local/services/lifecycle';
import { startStreamTrigger } from '../../../../local/triggers/stream';
import { StreamPoller, type StreamPollerOptions } from '../../../../local/triggers/stream-poller';

const STREAM_ARN =
  'arn:aws:dynamodb:ddblocal:000000000000:table/ledger/stream/2026-11-29T17:14:02.071';
const streams = mockClient(DynamoDBStreamsClient);

/**
 * An in-memory DynamoDB stream behind the mocked client: shards with records, closed or open,
 * iterators "<shardId>|<position>", GetRecords honouring Limit. Enough to drive the poller
 * through its real SDK calls.
 */
class FakeStream {
  readonly shards = new Map<string, { parent?: string; records: _Record[]; closed: boolean }>();
  private seq = 0;
  /** Iterators handed out that GetRecords should reject once as expired. */
  readonly expire = new Set<string>();

  shard(id: string, parent?: string): this {
    this.shards.set(id, { ...(parent ? { parent } : {}), records: [], closed: false });
    return this;
  }

  put(shardId: string, count: number, eventName: 'INSERT' | 'MODIFY' = 'INSERT'): string[] {
    const shard = this.shards.get(shardId);
    if (!shard) throw new Error(`no shard ${shardId}`);
    const added: string[] = [];
    for (let i = 0; i < count; i++) {
      const sequence = String(++this.seq).padStart(21, '0');
      shard.records.push(streamRecord(sequence, eventName));
      added.push(sequence);
    }
    return added;
  }

  close(shardId: string): void {
    const shard = this.shards.get(shardId);
    if (shard) shard.closed = true;
  }

  install(): void {
    streams.on(DescribeStreamCommand).callsFake(() => ({
      StreamDescription: {
        StreamArn: STREAM_ARN,
        StreamStatus: 'ENABLED',
        Shards: [...this.shards].map(([id, s]) => ({
          ShardId: id,
          ...(s.parent ? { ParentShardId: s.parent } : {}),
          SequenceNumberRange: {
            StartingSequenceNumber: s.records[0]?.dynamodb?.SequenceNumber ?? '0',
            ...(s.closed
              ? { EndingSequenceNumber: s.records.at(-1)?.dynamodb?.SequenceNumber ?? '0' }
              : {}),
          },
        })),
      },
    }));
    streams.on(GetShardIteratorCommand).callsFake((input: GetShardIteratorCommandInput) => {
      const shard = this.shards.get(input.ShardId ?? '');
      if (!shard) throw new Error(`no shard ${input.ShardId}`);
      let position = 0;
      if (input.ShardIteratorType === 'LATEST') position = shard.records.length;
      if (input.ShardIteratorType === 'AFTER_SEQUENCE_NUMBER') {
        position =
          shard.records.findIndex((r) => r.dynamodb?.SequenceNumber === input.SequenceNumber) + 1;
      }
      return { ShardIterator: `${input.ShardId}|${position}` };
    });
    streams.on(GetRecordsCommand).callsFake((input: { ShardIterator?: string; Limit?: number }) => {
      const iterator = input.ShardIterator ?? '';
      if (this.expire.delete(iterator)) {
        throw new ExpiredIteratorException({ message: 'Iterator expired', $metadata: {} });
      }
      const [shardId = '', pos = '0'] = iterator.split('|');
      const shard = this.shards.get(shardId);
      if (!shard) throw new Error(`no shard ${shardId}`);
      const start = Number(pos);
      const records = shard.records.slice(start, start + (input.Limit ?? 1000));
      const next = start + records.length;
      const ended = shard.closed && next >= shard.records.length;
      return { Records: records, ...(ended ? {} : { NextShardIterator: `${shardId}|${next}` }) };
    });
  }
}

function streamRecord(sequence: string, eventName: 'INSERT' | 'MODIFY'): _Record {
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'ddblocal',
    dynamodb: {
      ApproximateCreationDateTime: new Date('2026-11-29T17:14:00.000Z'),
      Keys: { pk: { S: `OUTBOX#${sequence}` }, sk: { S: 'OUTBOX' } },
      NewImage: { pk: { S: `OUTBOX#${sequence}` }, sk: { S: 'OUTBOX' }, kind: { S: 'outbox' } },
      SequenceNumber: sequence,
      SizeBytes: 42,
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

/** A handler that records every event and answers with `answer` (called with the call count). */
function recorder(answer: (event: DynamoDBStreamEvent, call: number) => unknown = () => undefined) {
  const events: DynamoDBStreamEvent[] = [];
  const handler = async (event: DynamoDBStreamEvent) => {
    events.push(event);
    return answer(event, events.length);
  };
  const sequences = () => events.map((e) => e.Records.map((r) => r.dynamodb?.SequenceNumber));
  return { events, handler, sequences };
}

function poller(
  handler: StreamPollerOptions['handler'],
  extra: Partial<StreamPollerOptions> = {},
  logs: string[] = [],
): StreamPoller {
  return new StreamPoller({
    client: new DynamoDBStreamsClient({ region: 'us-east-1' }),
    streamArn: STREAM_ARN,
    region: 'us-east-1',
    handler,
    retryBackoffMs: 0,
    describeIntervalMs: 0,
    idleDelayMs: 5,
    log: (line) => logs.push(line),
    ...extra,
  });
}

/** Runs passes until `done()` holds (each pass is one describe + one step per shard). */
async function pollUntil(p: StreamPoller, done: () => boolean, maxPasses = 50): Promise<void> {
  for (let i = 0; i < maxPasses && !done(); i++) await p.pollOnce();
  expect(done()).toBe(true);
}

let stream: FakeStream;

beforeEach(() => {
  streams.reset();
  stream = new FakeStream();
});

afterEach(() => {
  streams.reset();
});

describe('StreamPoller', () => {
  it('hands the records to the handler as a Lambda DynamoDBStreamEvent and logs one line per batch', async () => {
    stream.shard('shardId-00001-aaaa').install();
    const written = stream.put('shardId-00001-aaaa', 3);
    const { events, handler, sequences } = recorder();
    const logs: string[] = [];
    const p = poller(handler, {}, logs);
    await p.open();

    await pollUntil(p, () => events.length === 1);

    expect(sequences()).toEqual([written]);
    expect(events[0]?.Records[0]).toMatchObject({
      eventSource: 'aws:dynamodb',
      eventSourceARN: STREAM_ARN,
      awsRegion: 'us-east-1',
      eventName: 'INSERT',
      dynamodb: {
        ApproximateCreationDateTime: expect.any(Number),
        SequenceNumber: written[0],
        StreamViewType: 'NEW_IMAGE',
        NewImage: { kind: { S: 'outbox' } },
      },
    });
    expect(logs).toEqual([
      expect.stringMatching(/…aaaa: 3 record\(s\) seq 1-3 \(INSERT 3\) -> ok/),
    ]);
    expect(streams.commandCalls(GetShardIteratorCommand)[0]?.args[0].input).toMatchObject({
      ShardIteratorType: 'TRIM_HORIZON',
    });
    expect(streams.commandCalls(GetRecordsCommand)[0]?.args[0].input).toMatchObject({ Limit: 100 });
  });

  it('retries from the failed record, keeping the rest of the batch, until it succeeds', async () => {
    stream.shard('s-1').install();
    const written = stream.put('s-1', 4);
    // The 2nd record fails twice, then everything succeeds.
    const { handler, sequences } = recorder((_event, call) =>
      call <= 2
        ? { batchItemFailures: [{ itemIdentifier: written[1] }] }
        : { batchItemFailures: [] },
    );
    const logs: string[] = [];
    const p = poller(handler, {}, logs);
    await p.open();
    await pollUntil(p, () => sequences().length === 3);

    expect(sequences()).toEqual([written, written.slice(1), written.slice(1)]);
    // Each record succeeded exactly once, in order: the first in call 1, the rest in call 3.
    expect(logs.filter((l) => l.includes('failed at'))).toHaveLength(2);
    expect(logs[0]).toMatch(/failed at 000000000000000000002; 1 done, retrying 3/);

    // Nothing more is delivered afterwards.
    for (let i = 0; i < 5; i++) await p.pollOnce();
    expect(sequences()).toHaveLength(3);
  });

  it('retries a whole batch when the handler throws, with growing backoff, and never skips a record', async () => {
    stream.shard('s-1').install();
    const written = stream.put('s-1', 3);
    let calls = 0;
    const delivered: string[] = [];
    const handler = async (event: DynamoDBStreamEvent) => {
      calls++;
      if (calls <= 3) throw new Error('SQS is down');
      for (const r of event.Records) delivered.push(r.dynamodb?.SequenceNumber ?? '');
      return { batchItemFailures: [] };
    };
    const logs: string[] = [];
    const p = poller(handler, { retryBackoffMs: 1, maxBackoffMs: 4 }, logs);
    await p.open();
    for (let i = 0; i < 200 && delivered.length < 3; i++) {
      await p.pollOnce();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }

    expect(delivered).toEqual(written);
    const failures = logs.filter((l) => l.includes('whole batch failed'));
    expect(failures).toHaveLength(3);
    expect(failures.map((l) => l.match(/in (\d+) ms/)?.[1])).toEqual(['1', '2', '4']);
    expect(failures[0]).toMatch(/handler threw: Error: SQS is down/);
  });

  it('treats a malformed answer as a failure of the whole batch', async () => {
    stream.shard('s-1').install();
    const written = stream.put('s-1', 2);
    const { handler, sequences } = recorder((_, call) =>
      call === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] } : undefined,
    );
    const p = poller(handler);
    await p.open();
    await pollUntil(p, () => sequences().length === 2);

    expect(sequences()).toEqual([written, written]);
  });

  it('reads records written later, in order, in batches of at most batchSize', async () => {
    stream.shard('s-1').install();
    const first = stream.put('s-1', 5);
    const { handler, sequences } = recorder();
    const p = poller(handler, { batchSize: 2 });
    await p.open();
    await pollUntil(p, () => sequences().flat().length === 5);
    const later = stream.put('s-1', 1, 'MODIFY');
    await pollUntil(p, () => sequences().flat().length === 6);

    expect(sequences()).toEqual([first.slice(0, 2), first.slice(2, 4), first.slice(4), later]);
  });

  it('reads a child shard only after its parent is read to the end, and finds new shards', async () => {
    stream.shard('parent').install();
    const parentRecords = stream.put('parent', 2);
    const { handler, sequences } = recorder();
    const logs: string[] = [];
    const p = poller(handler, {}, logs);
    await p.open();
    await pollUntil(p, () => sequences().flat().length === 2);

    // Rollover: the parent gets one more record and closes; a child appears with new records.
    const lastOfParent = stream.put('parent', 1);
    stream.close('parent');
    stream.shard('child', 'parent');
    const childRecords = stream.put('child', 2);
    await pollUntil(p, () => sequences().flat().length === 5);

    expect(sequences().flat()).toEqual([...parentRecords, ...lastOfParent, ...childRecords]);
    expect(p.shardStates()).toEqual({ parent: 'done', child: 'reading' });
    expect(logs).toContainEqual(expect.stringMatching(/new shard child \(child of parent\)/));
    expect(logs).toContainEqual(expect.stringMatching(/shard parent is closed and fully read/));
  });

  it('at start, waits for a parent that is still being read before its child', async () => {
    stream.shard('old').shard('new', 'old').install();
    const oldRecords = stream.put('old', 3);
    stream.close('old');
    const newRecords = stream.put('new', 1);
    const { handler, sequences } = recorder();
    const p = poller(handler, { batchSize: 1 });
    await p.open();

    expect(p.shardStates()).toEqual({ old: 'reading', new: 'waiting' });
    await pollUntil(p, () => sequences().flat().length === 4);
    expect(sequences().flat()).toEqual([...oldRecords, ...newRecords]);
  });

  it('with LATEST, skips closed shards and starts open ones at their end', async () => {
    stream.shard('old').shard('new', 'old').install();
    stream.put('old', 2);
    stream.close('old');
    stream.put('new', 2);
    const { handler, sequences } = recorder();
    const p = poller(handler, { startingPosition: 'LATEST' });
    await p.open();
    const fresh = stream.put('new', 1);
    await pollUntil(p, () => sequences().flat().length === 1);

    expect(sequences().flat()).toEqual(fresh);
    expect(p.shardStates()).toEqual({ old: 'done', new: 'reading' });
  });

  it('opens a new iterator after the last record read when one expires', async () => {
    stream.shard('s-1').install();
    const first = stream.put('s-1', 2);
    const { handler, sequences } = recorder();
    const logs: string[] = [];
    const p = poller(handler, {}, logs);
    await p.open();
    await pollUntil(p, () => sequences().flat().length === 2);
    stream.expire.add('s-1|2');
    const second = stream.put('s-1', 1);
    await pollUntil(p, () => sequences().flat().length === 3);

    expect(sequences().flat()).toEqual([...first, ...second]);
    expect(logs).toContainEqual(expect.stringMatching(/iterator expired/));
    expect(streams.commandCalls(GetShardIteratorCommand).at(-1)?.args[0].input).toMatchObject({
      ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
      SequenceNumber: first[1],
    });
  });

  it('runs in the background and stops cleanly, letting a batch in progress finish', async () => {
    stream.shard('s-1').install();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    let finished = 0;
    const handler = async () => {
      started++;
      await gate;
      finished++;
      return { batchItemFailures: [] };
    };
    const p = poller(handler, { idleDelayMs: 1 });
    await p.start();
    stream.put('s-1', 1);
    await expect.poll(() => started).toBe(1);

    const stopping = p.stop();
    let stopped = false;
    void stopping.then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false); // waits for the handler
    release();
    await stopping;
    expect(finished).toBe(1);

    const calls = streams.calls().length;
    stream.put('s-1', 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(streams.calls().length).toBe(calls);
  });

  it('keeps polling after a GetRecords error', async () => {
    stream.shard('s-1').install();
    const written = stream.put('s-1', 1);
    streams
      .on(GetRecordsCommand)
      .rejectsOnce(Object.assign(new Error('connection reset'), { name: 'NetworkingError' }));
    // The fake answers again after the one rejection.
    const { handler, sequences } = recorder();
    const logs: string[] = [];
    const p = poller(handler, {}, logs);
    await p.open();
    await p.pollOnce();
    expect(logs).toContainEqual(expect.stringMatching(/GetRecords failed: NetworkingError/));
    stream.install();
    await pollUntil(p, () => sequences().length === 1);
    expect(sequences()).toEqual([written]);
  });
});

describe('startStreamTrigger (how npm start starts a stream consumer)', () => {
  const tableStream = () => ({
    arn: STREAM_ARN,
    client: new DynamoDBStreamsClient({ region: 'us-east-1' }),
  });
  const tuning = { idleDelayMs: 1, retryBackoffMs: 1, maxBackoffMs: 1, describeIntervalMs: 0 };

  it('reads the stream from its ARN in the background until the lifecycle stops it', async () => {
    stream.shard('s-1').install();
    const written = stream.put('s-1', 2);
    const { handler, sequences } = recorder();
    const stops: string[] = [];
    const lifecycle = new Lifecycle((line) => stops.push(line));

    await startStreamTrigger(lifecycle, {
      name: 'outbox dispatcher',
      stream: tableStream(),
      handler,
      log: () => {},
      tuning,
    });

    expect(streams.commandCalls(DescribeStreamCommand)[0]?.args[0].input).toEqual({
      StreamArn: STREAM_ARN,
    });
    await expect.poll(() => sequences().flat()).toEqual(written);
    await lifecycle.stopAll();
    expect(stops).toEqual(['stopped stream poller (outbox dispatcher)']);
    const calls = streams.calls().length;
    stream.put('s-1', 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(streams.calls().length).toBe(calls);
  });

  it('gives each consumer of the stream its own checkpoint per shard', async () => {
    stream.shard('s-1').shard('s-2').install();
    const one = stream.put('s-1', 3);
    const two = stream.put('s-2', 2);
    // The first consumer never gets past the second record of s-1; the other is not held back.
    const stuck = recorder((event) =>
      event.Records.some((r) => r.dynamodb?.SequenceNumber === one[1])
        ? { batchItemFailures: [{ itemIdentifier: one[1] }] }
        : undefined,
    );
    const other = recorder();
    const lifecycle = new Lifecycle();
    const consumer = (name: string, handler: StreamPollerOptions['handler']) =>
      startStreamTrigger(lifecycle, {
        name,
        stream: tableStream(),
        handler,
        log: () => {},
        tuning,
      });

    await consumer('dispatcher', stuck.handler);
    await consumer('projector', other.handler);
    await expect.poll(() => other.sequences().flat().sort()).toEqual([...one, ...two].sort());
    await expect.poll(() => stuck.events.length).toBeGreaterThan(3);
    await lifecycle.stopAll();

    // The other consumer got every record once; the stuck one checkpointed the record before
    // the failure, retries from the failed one with the rest of its batch, and read s-2 once.
    expect(other.sequences().flat()).toHaveLength(5);
    const batches = stuck.sequences();
    expect(batches[0]).toEqual(one);
    expect(batches.filter((b) => b[0] === one[0])).toHaveLength(1);
    expect(batches.filter((b) => b[0] === one[1]).length).toBeGreaterThan(1);
    expect(batches.filter((b) => b[0] === two[0])).toEqual([two]);
    for (const batch of batches) expect([one, one.slice(1), two]).toContainEqual(batch);
  });
});
