import type { TestProject } from 'vitest/node';
import { type DynamoPool, startDynamoPool } from '../support/dynamo-pool';
import '../support/dynamo-lease';

/**
 * A pool of DynamoDB Locals for the project, one per worker, each replaced after this many files
 * (test/support/dynamo-pool.ts says why); each test file leases one and makes its own table in
 * it. DYNAMODB_ENDPOINT names one that every file shares instead.
 *
 * Integration: 40, since only 13 of its 69 files' tables have a stream; each new JVM cost more
 * than the stream records it shed (the project alone 84 s and 140 CPU-s at 40, 88 s and 149 at
 * 16, 105 s and 183 at 4; the whole suite 256 s instead of 292). Faults and e2e: 4, as before:
 * every local stack's table has a stream, and their files are few and timing-sensitive.
 */
export const FILES_PER_INSTANCE: Readonly<Record<string, number>> = { integration: 40 };
const DEFAULT_FILES_PER_INSTANCE = 4;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    return async () => {};
  }
  const size = Number(project.config.maxWorkers) || 2;
  const pool: DynamoPool = await startDynamoPool({
    size,
    filesPerInstance: FILES_PER_INSTANCE[project.name] ?? DEFAULT_FILES_PER_INSTANCE,
  });
  project.provide('dynamoPool', pool.url);
  return () => pool.stop();
}
