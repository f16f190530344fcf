import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../kit/free-port';
import { startDynamoLocal } from '../../local/services/dynamodb/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One DynamoDB Local for the whole integration run; each test file makes its own table. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DYNAMODB_ENDPOINT;
  if (external) {
    project.provide('dynamoEndpoint', external);
    return async () => {};
  }
  const dynamo = await startDynamoLocal(await freePort());
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
