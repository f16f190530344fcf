import type { TestProject } from 'vitest/node';
import { type DynamoPool, startDynamoPool } from '../support/dynamo-pool';
import '../support/dynamo-lease';

/**
 * A pool of DynamoDB Locals for the project, one per worker, each replaced after this many files
 * (test/support/dynamo-pool.ts says why); each test file leases one and makes its own table in
 * it. DYNAMODB_ENDPOINT names one that every file shares instead. 4 until test tables lost their
 * streams (only 13 of the 69 integration files make one now): then each new JVM cost more than
 * the stream records it shed. At 40 the integration project took 84 s and 140 CPU-s alone
 * instead of 105 s and 183 (16: 88 s, 149), the whole suite 256 s instead of 292.
 */
export const FILES_PER_INSTANCE = 40;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    return async () => {};
  }
  const size = Number(project.config.maxWorkers) || 2;
  const pool: DynamoPool = await startDynamoPool({ size, filesPerInstance: FILES_PER_INSTANCE });
  project.provide('dynamoPool', pool.url);
  return () => pool.stop();
}
