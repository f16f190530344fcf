import type { TestProject } from 'vitest/node';
import { type DynamoPool, startDynamoPool } from '../support/dynamo-pool';
import '../support/dynamo-lease';

/**
 * A pool of DynamoDB Locals for the project, one per worker, each replaced after a few files
 * (test/support/dynamo-pool.ts says why); each test file leases one and makes its own table in
 * it. DYNAMODB_ENDPOINT names one that every file shares instead.
 */
export const FILES_PER_INSTANCE = 4;

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
