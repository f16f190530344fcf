import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DynamoDBClient,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
  type TransactWriteItem,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_AWS } from '../../../../../functions/contract/local-stack';
import {
  type ContentionLayer,
  type ContentionStats,
  STATS_PATH,
  startContentionLayer,
} from '../../../../../local/services/contention/proxy';

/**
 * The contention layer with the real SDK client on one side and, on the other, a stub that
 * answers like DynamoDB Local but only when the test lets it: so "a transaction is in flight"
 * is a state the test holds, not a race it hopes for.
 */
interface StubUpstream {
  readonly endpoint: string;
  /** Requests received, by operation. */
  readonly seen: Record<string, number>;
  /** While true, TransactWriteItems are held unanswered until `release()`. */
  hold: boolean;
  release(): void;
  billing: 'PAY_PER_REQUEST' | 'PROVISIONED';
  close(): Promise<void>;
}

async function stubUpstream(): Promise<StubUpstream> {
  const waiting: (() => void)[] = [];
  const stub = {
    seen: {} as Record<string, number>,
    hold: false,
    billing: 'PAY_PER_REQUEST' as StubUpstream['billing'],
    release() {
      for (const answer of waiting.splice(0)) answer();
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target']).split('.').at(-1) ?? '';
      stub.seen[operation] = (stub.seen[operation] ?? 0) + 1;
      const answer = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(body));
      };
      if (operation === 'DescribeTable') {
        return answer({
          Table: {
            TableName: 'ledger',
            TableArn: 'arn:aws:dynamodb:ddblocal:000000000000:table/ledger',
            KeySchema: [
              { AttributeName: 'pk', KeyType: 'HASH' },
              { AttributeName: 'sk', KeyType: 'RANGE' },
            ],
            BillingModeSummary: { BillingMode: stub.billing },
          },
        });
      }
      if (operation === 'ListStreams') return answer({ Streams: [] });
      if (operation === 'TransactWriteItems' && stub.hold) {
        waiting.push(() => answer({}));
        return;
      }
      answer({});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The stub itself, so what a test sets (hold, billing) is what the server reads.
  return Object.assign(stub, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const key = (pk: string, sk = 'ACCOUNT') => ({ pk: { S: pk }, sk: { S: sk } });
const update = (pk: string): TransactWriteItem => ({
  Update: {
    TableName: 'ledger',
    Key: key(pk),
    UpdateExpression: 'SET #b = #b + :one',
    ExpressionAttributeNames: { '#b': 'balance' },
    ExpressionAttributeValues: { ':one': { N: '1' } },
  },
});
type Extra = Record<string, { S: string }>;
const put = (pk: string, sk: string, extra: Extra = {}): TransactWriteItem => ({
  // Key attributes after another attribute: the layer must find them by the table's schema.
  Put: {
    TableName: 'ledger',
    Item: { kind: { S: 'entry' }, ...extra, sk: { S: sk }, pk: { S: pk } },
  },
});

let upstream: StubUpstream;
let layer: ContentionLayer;
let client: DynamoDBClient;

async function startLayer(writeUnitsPerSecond?: number) {
  layer = await startContentionLayer({ upstream: upstream.endpoint, writeUnitsPerSecond });
  // One attempt per call: what DynamoDB answers, not what the SDK's own retries make of it.
  client = new DynamoDBClient({ ...LOCAL_AWS, endpoint: layer.endpoint, maxAttempts: 1 });
}

beforeEach(async () => {
  upstream = await stubUpstream();
});

afterEach(async () => {
  upstream.release();
  client?.destroy();
  await layer?.close();
  await upstream.close();
});

const transact = (...items: TransactWriteItem[]) =>
  client.send(new TransactWriteItemsCommand({ TransactItems: items }));

/** Lets a transaction reach the stub and wait there; resolves once it does (not when it ends). */
async function inFlight(...items: TransactWriteItem[]): Promise<{ done: Promise<unknown> }> {
  upstream.hold = true;
  const first = transact(...items);
  for (let i = 0; i < 100 && (upstream.seen.TransactWriteItems ?? 0) === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(upstream.seen.TransactWriteItems).toBe(1);
  return { done: first };
}

describe('contention layer: transactions on a held item', () => {
  it('cancels an overlapping transaction at once, as DynamoDB does, without forwarding it', async () => {
    await startLayer();
    const first = await inFlight(update('ACCOUNT#a'), put('ACCOUNT#a', 'ENTRY#1'));

    const error = await transact(put('INBOX#x', 'INBOX'), update('ACCOUNT#a')).catch((e) => e);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
    ]);
    expect((error as Error).message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
    );
    expect((error as TransactionCanceledException).$metadata.httpStatusCode).toBe(400);
    expect(upstream.seen.TransactWriteItems).toBe(1);
    expect(layer.stats).toMatchObject({ forwarded: 1, transactions: 0, conflicts: 1 });

    upstream.release();
    await first.done;
    // Released once DynamoDB answered: the same transaction now goes through.
    upstream.hold = false;
    await transact(put('INBOX#x', 'INBOX'), update('ACCOUNT#a'));
    expect(upstream.seen.TransactWriteItems).toBe(2);
  });

  it('holds a Put item by its key attributes, whatever else the item carries', async () => {
    await startLayer();
    const first = await inFlight(put('ACCOUNT#a', 'ENTRY#1', { amount: { S: '1' } }));
    const error = await transact(put('ACCOUNT#a', 'ENTRY#1', { amount: { S: '2' } })).catch(
      (e) => e,
    );
    expect((error as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
    ]);
    // Another entry of the same partition is another item.
    upstream.release();
    upstream.hold = false;
    await transact(put('ACCOUNT#a', 'ENTRY#2'));
    await first.done;
  });

  it('answers a plain write to a held item with TransactionConflictException', async () => {
    await startLayer();
    const first = await inFlight(update('ACCOUNT#a'));
    const write = (pk: string) =>
      client.send(new PutItemCommand({ TableName: 'ledger', Item: key(pk) }));
    const error = await write('ACCOUNT#a').catch((e) => e);
    expect(error).toBeInstanceOf(TransactionConflictException);
    expect((error as Error).message).toBe('Transaction is ongoing for the item');
    const updateError = await client
      .send(
        new UpdateItemCommand({
          TableName: 'ledger',
          Key: key('ACCOUNT#a'),
          UpdateExpression: 'SET #n = :n',
          ExpressionAttributeNames: { '#n': 'name' },
          ExpressionAttributeValues: { ':n': { S: 'x' } },
        }),
      )
      .catch((e) => e);
    expect(updateError).toBeInstanceOf(TransactionConflictException);
    await write('ACCOUNT#b');
    expect(upstream.seen.PutItem).toBe(1);
    expect(layer.stats.plainConflicts).toBe(2);
    upstream.release();
    await first.done;
  });

  it('passes reads and DynamoDB Streams calls through, held item or not', async () => {
    await startLayer();
    const first = await inFlight(update('ACCOUNT#a'));
    await client.send(new GetItemCommand({ TableName: 'ledger', Key: key('ACCOUNT#a') }));
    const streams = new DynamoDBStreamsClient({ ...LOCAL_AWS, endpoint: layer.endpoint });
    await streams.send(new ListStreamsCommand({}));
    streams.destroy();
    expect(upstream.seen).toMatchObject({ GetItem: 1, ListStreams: 1 });
    upstream.release();
    await first.done;
  });
});

describe('contention layer: the per-item write budget', () => {
  it('cancels a transaction over an item budget with ThrottlingError on an on-demand table', async () => {
    // 4 units a second: a transactional write of a 1 KB item costs 2.
    await startLayer(4);
    await transact(update('ACCOUNT#a'), put('ENTRY#1', 'E'));
    await transact(update('ACCOUNT#a'), put('ENTRY#2', 'E'));
    const error = await transact(put('ENTRY#3', 'E'), update('ACCOUNT#a')).catch((e) => e);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: 'None' },
      {
        Code: 'ThrottlingError',
        Message: expect.stringMatching(/^Throughput exceeds the current capacity of your table/),
      },
    ]);
    expect(upstream.seen.TransactWriteItems).toBe(2);
    expect(layer.stats.throttled).toBe(1);
  });

  it('throttles a plain write with ThrottlingException and its reason (1 unit per KB)', async () => {
    await startLayer(2);
    const write = () =>
      client.send(new PutItemCommand({ TableName: 'ledger', Item: key('ACCOUNT#a') }));
    await write();
    await write();
    const error = await write().catch((e) => e);
    expect(error).toBeInstanceOf(ThrottlingException);
    expect((error as ThrottlingException).throttlingReasons).toEqual([
      {
        reason: 'TableWriteKeyRangeThroughputExceeded',
        resource: 'arn:aws:dynamodb:ddblocal:000000000000:table/ledger',
      },
    ]);
  });

  it('uses the provisioned-mode answers on a provisioned table', async () => {
    upstream.billing = 'PROVISIONED';
    await startLayer(2);
    await transact(update('ACCOUNT#a'));
    const error = await transact(update('ACCOUNT#a')).catch((e) => e);
    expect((error as TransactionCanceledException).CancellationReasons?.[0]?.Code).toBe(
      'ProvisionedThroughputExceeded',
    );
    const plain = await client
      .send(new PutItemCommand({ TableName: 'ledger', Item: key('ACCOUNT#a') }))
      .catch((e) => e);
    expect(plain).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect((plain as ProvisionedThroughputExceededException).ThrottlingReasons?.[0]?.reason).toBe(
      'TableWriteKeyRangeThroughputExceeded',
    );
  });

  it('bills a large item by its size: 2 units per KB in a transaction', async () => {
    await startLayer(10);
    const big = { blob: { S: 'x'.repeat(3_000) } };
    // 3 KB → 6 units; the next needs 6 again with 4 left.
    await transact(put('ACCOUNT#a', 'BIG', big));
    const error = await transact(put('ACCOUNT#a', 'BIG', big)).catch((e) => e);
    expect((error as TransactionCanceledException).CancellationReasons?.[0]?.Code).toBe(
      'ThrottlingError',
    );
    // A small write to the same item still fits.
    await transact(put('ACCOUNT#a', 'BIG'));
  });
});

describe('contention layer: stats', () => {
  it('serves its counters at GET /contention/stats, and the items written more than once', async () => {
    await startLayer();
    await transact(update('ACCOUNT#a'), put('ACCOUNT#a', 'ENTRY#1'));
    await transact(update('ACCOUNT#a'), put('ACCOUNT#a', 'ENTRY#2'));
    await client.send(new PutItemCommand({ TableName: 'ledger', Item: key('ACCOUNT#a') }));
    const stats = (await (await fetch(`${layer.endpoint}${STATS_PATH}`)).json()) as ContentionStats;
    expect(stats).toMatchObject({ transactions: 2, conflicts: 0, throttled: 0 });
    expect(stats.heldMs).toBeGreaterThanOrEqual(0);
    expect(Object.values(stats.repeatedCommits)).toEqual([3]);
  });
});
