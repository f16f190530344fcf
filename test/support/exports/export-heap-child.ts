/**
 * Runs one export in a process of its own and prints its outcome and heap figures as JSON: test/integration/exports/export-heap.test.ts reads the worker's heap without the test runner's.
 * Started with `node --expose-gc --import tsx`; reads its endpoints and ids from the environment.
 */

import { createS3ObjectSink } from '../../../functions/aws/s3-object-sink';
import { ExportWorker } from '../../../functions/domain/exports/worker';
import { createExportRunStore } from '../../../functions/dynamodb/exports/run-store';
import { localDynamoClient } from '../../../local/services/dynamodb/dynamodb-local';
import { localS3Client } from '../../../local/services/s3/bucket';
import { quietRuntime } from '../runtime';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const store = createExportRunStore({
  client: localDynamoClient(env('DYNAMODB_ENDPOINT')),
  tableName: env('TABLE_NAME'),
  pageSize: Number(env('PAGE_SIZE')),
});
/** The live heap after each page. */
const liveHeaps: number[] = [];
/** After each page the worker has written, a full GC: what is left is what the run retains. */
const measuredRuns: typeof store = {
  claimRun: (...args) => store.claimRun(...args),
  async *entryPages(accountId, upTo) {
    for await (const page of store.entryPages(accountId, upTo)) {
      yield page;
      gc();
      liveHeaps.push(process.memoryUsage().heapUsed);
    }
  },
};

const worker = new ExportWorker({
  ...quietRuntime(),
  runs: measuredRuns,
  objects: createS3ObjectSink({ client: localS3Client(env('S3_ENDPOINT')), bucket: env('BUCKET') }),
  reporter: { report: async () => 'applied' },
});

gc();
const baselineHeap = process.memoryUsage().heapUsed;
let peakHeap = baselineHeap;
const sample = () => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};
const sampler = setInterval(sample, 1);
const outcome = await worker.run(
  {
    taskId: env('TASK_ID'),
    executionId: env('EXECUTION_ID'),
    accountId: env('ACCOUNT_ID'),
    format: 'csv',
    callbackPath: '/v1/callbacks/export-worker',
  },
  { leaseMs: 600_000, giveUpMs: 590_000, finalAttempt: false },
);
sample();
clearInterval(sampler);
process.stdout.write(JSON.stringify({ outcome, baselineHeap, peakHeap, liveHeaps }));
