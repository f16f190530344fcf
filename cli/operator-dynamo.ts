import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_AWS } from '../functions/contract/local-stack';

/** Where an operator command (`reown`, `reconcile`) reads and writes the table. */
export interface OperatorTable {
  /** Real AWS (credentials and region from the environment) instead of the local stack. */
  readonly aws: boolean;
  /** The local DynamoDB endpoint; empty with --aws. */
  readonly dynamodb: string;
}

/**
 * Runs `work` with a DynamoDB client for an operator command, destroyed afterwards: on AWS with
 * the SDK's credentials and more attempts, locally against `--dynamodb`.
 */
export async function withOperatorDynamo<T>(
  target: OperatorTable,
  work: (dynamo: DynamoDBClient) => Promise<T>,
): Promise<T> {
  const dynamo = target.aws
    ? new DynamoDBClient({ maxAttempts: 6 })
    : new DynamoDBClient({ ...LOCAL_AWS, endpoint: target.dynamodb, maxAttempts: 3 });
  try {
    return await work(dynamo);
  } finally {
    dynamo.destroy();
  }
}
