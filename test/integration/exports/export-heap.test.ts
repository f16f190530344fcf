import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { buildApp } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EXPORT_BUCKET } from '../../../functions/contract/exports';
import { startDynamoLocalOnFreePort } from '../../../kit/dynamo-local';
import {
  localDynamoClient,
  type RunningDynamo,
} from '../../../local/services/dynamodb/dynamodb-local';
import { ensureLedgerTable } from '../../../local/services/dynamodb/table';
import { ensureBucket, localS3Client } from '../../../local/services/s3/bucket';
import { seedAccount, seedEntries, seedExecution } from '../../support/exports/exports';

const ENTRIES = 10_000;
/** 40 pages: enough to see whether the live heap climbs with the pages read. */
const PAGE_SIZE = 250;
/**
 * Live heap (after a full GC at each page) the run may add over its start. Streaming keeps one
 * page of entries and a chunk of text (parts are Buffers, outside the heap), whatever the count.
 */
const HEAP_GROWTH_LIMIT = 4 * 1024 * 1024;
/**
 * What the live heap may climb between the 10th page and the last (30 pages, 7,500 rows):
 * streaming climbs 0.26–0.33 MB there (V8 warming up, flat from about page 25); a run that kept
 * each row's text climbed 1.45 MB (measured 6 December 2026), one that kept its entries more.
 */
const CLIMB_LIMIT = 800 * 1024;
const run = promisify(execFile);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

let client: DynamoDBClient;
const tableName = 'ledger-heap';
/**
 * Its own DynamoDB Local: seeding 10,000 entries holds the emulator's write lock long enough to
 * time out the other integration files' transactions on the shared one.
 */
let dynamo: RunningDynamo;
const s3Server = buildApp({ logger: false, defaultRegion: 'us-east-1' });
let s3Endpoint: string;

beforeAll(async () => {
  dynamo = await startDynamoLocalOnFreePort();
  client = localDynamoClient(dynamo.endpoint);
  // The worker reads entries only: no stream reader runs here.
  await ensureLedgerTable(client, tableName, { stream: false });
  await s3Server.listen({ port: 0, host: '127.0.0.1' });
  const address = s3Server.server.address();
  s3Endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);
afterAll(async () => {
  await s3Server.close();
  client?.destroy();
  await dynamo?.stop();
});

describe('export worker memory (docs/contract.md §12)', () => {
  it(`streams ${ENTRIES} entries with a bounded heap`, { timeout: 300_000 }, async () => {
    const accountId = await seedAccount(client, tableName);
    const start = new Date(Date.now() - 10 * 60_000 - ENTRIES);
    await seedEntries(client, tableName, accountId, ENTRIES, start, 16);
    const ids = await seedExecution(client, tableName, accountId, {
      deadline: new Date(Date.now() + 900_000),
    });
    const s3 = localS3Client(s3Endpoint);
    await ensureBucket(s3, LOCAL_EXPORT_BUCKET);

    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/support/exports/export-heap-child.ts'],
      {
        env: {
          ...process.env,
          DYNAMODB_ENDPOINT: dynamo.endpoint,
          S3_ENDPOINT: s3Endpoint,
          TABLE_NAME: tableName,
          BUCKET: LOCAL_EXPORT_BUCKET,
          ACCOUNT_ID: accountId,
          TASK_ID: ids.taskId,
          EXECUTION_ID: ids.executionId,
          PAGE_SIZE: String(PAGE_SIZE),
        },
        maxBuffer: 1024 * 1024,
      },
    );
    const { outcome, baselineHeap, peakHeap, liveHeaps } = JSON.parse(stdout) as {
      outcome: {
        kind: string;
        result: { bytes: number; rows: number; key: string; sha256: string };
      };
      baselineHeap: number;
      peakHeap: number;
      liveHeaps: number[];
    };
    const peakLiveHeap = Math.max(...liveHeaps);
    const growth = peakLiveHeap - baselineHeap;
    // Medians of five pages each, so one page's GC timing moves neither end.
    const climb = median(liveHeaps.slice(-5)) - median(liveHeaps.slice(10, 15));
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MB`;
    console.log(
      `export of ${ENTRIES} entries in ${liveHeaps.length} pages (${mb(outcome.result.bytes)}): ` +
        `heap ${mb(baselineHeap)} at start, live peak ${mb(peakLiveHeap)} (+${mb(growth)}), ` +
        `climb from page 10 to the last ${mb(climb)}, peak with garbage ${mb(peakHeap)}`,
    );

    expect(outcome.kind).toBe('succeeded');
    expect(outcome.result.rows).toBe(ENTRIES);
    const object = await s3.send(
      new GetObjectCommand({ Bucket: LOCAL_EXPORT_BUCKET, Key: outcome.result.key }),
    );
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
    expect(bytes.length).toBe(outcome.result.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(outcome.result.sha256);
    expect(bytes.toString('utf8').split('\r\n').length - 2).toBe(ENTRIES);
    expect(liveHeaps.length).toBeGreaterThanOrEqual(ENTRIES / PAGE_SIZE);
    expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT);
    expect(climb).toBeLessThan(CLIMB_LIMIT);
    s3.destroy();
  });
});
