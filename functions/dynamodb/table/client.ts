import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

/**
 * Every DynamoDB attempt is bounded in time. Without a request timeout a black-holed connection
 * hangs a request until the Lambda itself times out (10 s for HTTP), and the caller gets API
 * Gateway's bare 503 instead of our `503 unavailable` with Retry-After. With these bounds a
 * stalled call fails within MAX_DYNAMODB_CALL_MS; a response lost after a commit is retried
 * by the SDK with the same ClientRequestToken, so a timeout never doubles a write.
 */
export interface DynamoTimeouts {
  readonly connectionTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxAttempts: number;
}

export const DYNAMODB_TIMEOUTS: DynamoTimeouts = {
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 1_500,
  maxAttempts: 3,
};

/** Upper bound of one call, all attempts and the SDK's backoff (≤ 2 × 1 s) included. */
export const MAX_DYNAMODB_CALL_MS =
  DYNAMODB_TIMEOUTS.maxAttempts *
    (DYNAMODB_TIMEOUTS.connectionTimeoutMs + DYNAMODB_TIMEOUTS.requestTimeoutMs) +
  2_000;

/** The one way functions and the local stack build their DynamoDB client. */
export function createDynamoClient(
  config: DynamoDBClientConfig = {},
  timeouts: DynamoTimeouts = DYNAMODB_TIMEOUTS,
): DynamoDBClient {
  return new DynamoDBClient({
    maxAttempts: timeouts.maxAttempts,
    requestHandler: {
      connectionTimeout: timeouts.connectionTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Without this the handler only logs a warning when the timeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
    ...config,
  });
}
